// What the table pages read from the server.
export interface FieldInfo {
  id: number;
  name: string;
  desc: string;
  type: number;
  must_required: boolean;
}
export interface DatabaseInfo {
  id: string;
  space_id: string;
  table_name: string;
  table_desc: string;
  rw_mode: number;
  field_list: FieldInfo[];
  update_time: number;
}
export const TYPE_KEYS: Record<number, string> = { 1: 'text', 2: 'integer', 3: 'time', 4: 'number', 5: 'boolean' };
