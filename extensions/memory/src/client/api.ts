export interface MemoryMeta {
  key: string;
  description: string;
}
export interface MemoryBase {
  memorybase_id: string;
  space_id: string;
  name: string;
  description: string;
  metas: MemoryMeta[];
  update_time: number;
}
