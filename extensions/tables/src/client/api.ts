// What the table pages read from the server.
export type { DatabaseView as DatabaseInfo, FieldView as FieldInfo } from '../shared/api.ts';
export const TYPE_KEYS: Record<number, string> = { 1: 'text', 2: 'integer', 3: 'time', 4: 'number', 5: 'boolean' };
