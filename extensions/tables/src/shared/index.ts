// @tessera/ext-tables/shared: tables (Coze's "databases") as other extensions see them.
import { defineService, isOneOf } from '@tessera/sdk';
import { z } from 'zod';

/** Coze's FieldItemType. */
export const FieldType = { Text: 1, Number: 2, Date: 3, Float: 4, Boolean: 5 } as const;
/** Coze's BotTableRWMode: each end user sees their own rows (1), read-only for end users (2), rows shared by all (3). */
export const RWMode = { LimitedReadWrite: 1, ReadOnly: 2, UnlimitedReadWrite: 3 } as const;
/** Which data: what test runs and the editor use (1), what published bots and workflows use (2). */
export const TableType = { Draft: 1, Online: 2 } as const;

/** Fields every table has; their names cannot be used for user fields. */
export const SYSTEM_FIELDS = ['id', 'uuid', 'sys_platform', 'bstudio_create_time'] as const;

export const FieldName = z
  .string()
  .regex(
    /^[a-z][a-z0-9_]{0,63}$/,
    'A field name uses lower-case letters, digits and _, starting with a letter (at most 64).',
  )
  .refine(
    (n) => !isOneOf(SYSTEM_FIELDS, n),
    'This name is a system field (id, uuid, sys_platform, bstudio_create_time).',
  );
export const TableName = z
  .string()
  .regex(
    /^[a-z][a-z0-9_]{0,63}$/,
    'A table name uses lower-case letters, digits and _, starting with a letter (at most 64).',
  );

export const FieldItem = z.object({
  name: FieldName,
  desc: z.string().max(300).default(''),
  type: z.number().int().min(1).max(5),
  must_required: z.boolean().default(false),
  /** The field's stable id (0 or absent: a new field). Keeping the id while changing the name renames. */
  id: z.coerce.number().int().min(0).default(0),
});
export type FieldItem = z.infer<typeof FieldItem>;

export interface TableInfo {
  id: string;
  space_id: string;
  table_name: string;
  table_desc: string;
  rw_mode: number;
  field_list: (FieldItem & { id: number })[];
}

/** A row as tables answer it: every value a string (Coze's map<string,string>), system fields included. */
export type Row = Record<string, string>;

export interface RowsQuery {
  tableId: string;
  tableType: number;
  /** The end user the rows belong to in a per-user table (ignored for shared tables). */
  uuid: string;
  where?: {
    field: string;
    op: 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le' | 'like' | 'is_null' | 'not_null';
    value?: string;
  }[];
  orderBy?: { field: string; direction: 'asc' | 'desc' }[];
  limit?: number;
  offset?: number;
}

export interface Tables {
  info(tableId: string): Promise<TableInfo | undefined>;
  list(spaceId: string): Promise<TableInfo[]>;
  select(q: RowsQuery): Promise<{ rows: Row[]; total: number }>;
  insert(
    t: { tableId: string; tableType: number; uuid: string; connectorId?: string },
    rows: Record<string, unknown>[],
  ): Promise<Row[]>;
  /** Changes the rows matching `where` (the end user's own in a per-user table); answers how many. */
  update(
    q: Pick<RowsQuery, 'tableId' | 'tableType' | 'uuid' | 'where'>,
    values: Record<string, unknown>,
  ): Promise<number>;
  /** Deletes the rows matching `where` (the end user's own in a per-user table); answers how many. */
  delete(q: Pick<RowsQuery, 'tableId' | 'tableType' | 'uuid' | 'where'>): Promise<number>;
  /**
   * Runs one checked SELECT/INSERT/UPDATE/DELETE over the space's tables (names as the user named them; `?`
   * takes the next of `params`); a statement outside the subset is a 400 saying why.
   */
  sql(
    spaceId: string,
    text: string,
    params: unknown[],
    scope: { tableType: number; uuid: string; /** Only these tables (a bot's). */ tableIds?: string[] },
  ): Promise<{ kind: string; rows: Row[]; rowNum: number }>;
}
export const TablesService = defineService<Tables>({
  id: 'tables.service',
  owner: 'tables',
  description: 'Tables of a space: their fields and rows (draft or online; per end user or shared).',
});
