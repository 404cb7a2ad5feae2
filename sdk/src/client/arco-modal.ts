// Arco's Modal, on its own: `Modal` in widgets loads it with the first dialog drawn. (An import, not a
// re-export: the build rewrites imports from Arco per component, with their style.)
import { Modal } from '@arco-design/web-react';

export { Modal };
