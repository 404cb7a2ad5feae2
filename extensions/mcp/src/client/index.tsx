import { defineExtension } from '@tessera/sdk/client';
export default defineExtension({ id: 'mcp', register() {} });
