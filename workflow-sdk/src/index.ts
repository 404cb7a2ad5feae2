// @tessera/workflow-sdk: what a node type needs from the workflow extension, as a package an outside
// author installs: the NodeTypes point, the node-type definition and run context, the canvas schema,
// field helpers and the workflow events. Its client half is @tessera/workflow-sdk/client, its tester
// @tessera/workflow-sdk/testing.
export * from './enums.ts';
export * from './schema.ts';
export * from './nodes.ts';
export * from './events.ts';
export * from './fields.ts';
export * from './runner.ts';
