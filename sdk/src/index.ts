// @tessera/sdk: what both halves of an extension import. Side-specific parts: @tessera/sdk/server, /client.
export {
  ErrorSinks,
  defineEvent,
  defineHookPoint,
  defineRegistryPoint,
  defineService,
  describeError,
  toDisposable,
  type Disposable,
  type EventToken,
  type ExtensionContext,
  type ExtensionManifest,
  type HookCaller,
  type HookPointToken,
  type Logger,
  type RegistryEntry,
  type RegistryPointToken,
  type RegistryView,
  type ReportedError,
  type Injectable,
  type ServiceClass,
  type ServiceToken,
} from '@tessera/core';
export * from './api.ts';
export * from './areas.ts';
export * from './events.ts';
export * from './resources.ts';
export * from './urls.ts';
export * from './values.ts';
