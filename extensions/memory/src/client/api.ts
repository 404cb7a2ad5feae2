// The pages' names for the contract's shapes (../shared/api.ts).
export type { MemoryBaseView as MemoryBase, MemoryMeta } from '../shared/api.ts';
