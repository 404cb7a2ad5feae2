// @tessera/sdk/testing: test one extension alone. The server half runs in a real (in-process) host.
export {
  createExtensionTester,
  type ExtensionTester,
  type ExtensionTesterOptions,
  type ExtensionStub,
  type TestResponse,
} from '@tessera/server';
