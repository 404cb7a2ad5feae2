// @tessera/sdk/client: the client half of an extension.
export * from '../index.ts';
export * from './points.ts';
export * from './request.ts';
export * from './context.tsx';
export * from './widgets.tsx';
export * from './lazy.tsx';
export * from './page.tsx';
export * from './shared-views.tsx';
export * from './merge-lazy.ts';
export * from './live.tsx';
