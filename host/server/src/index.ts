export { loadConfig, ConfigError, type TesseraConfig } from './config.ts';
export { createServer, type TesseraServer, type CreateServerOptions } from './server.ts';
export { discoverExtensions } from './discovery.ts';
export { openDatabase, migrateExtension } from './database.ts';
export {
  createExtensionTester,
  type ExtensionTester,
  type ExtensionTesterOptions,
  type ExtensionStub,
  type TestResponse,
} from './testing.ts';
