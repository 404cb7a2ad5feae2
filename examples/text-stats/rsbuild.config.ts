import { extensionBuildConfig } from '@tessera/sdk/build';

export default extensionBuildConfig({ root: import.meta.dirname });
