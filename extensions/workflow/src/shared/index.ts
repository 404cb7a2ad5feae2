export * from './enums.ts';
export * from './schema.ts';
export * from './nodes.ts';
export * from './events.ts';
export * from './fields.ts';
