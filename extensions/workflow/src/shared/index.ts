// The workflow's shared API is the published node-type SDK: what node-type extensions import.
export * from '@tessera/workflow-sdk';
