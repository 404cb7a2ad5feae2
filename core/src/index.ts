export * from './disposable.ts';
export * from './points.ts';
export * from './bus.ts';
export * from './errors.ts';
export * from './logger.ts';
export * from './services.ts';
export * from './plan.ts';
export * from './host.ts';
