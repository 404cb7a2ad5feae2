// The tables' calls (Coze's /api/memory/database/...): tables and their fields, rows (draft 1 or online 2), SQL and
// questions turned into SQL, imports and exports. One contract for the routes, the pages and /openapi.json. Rows
// answer every value as a string (Coze's map<string,string>); times are Unix seconds.
import { defineEndpoint, imageRef } from '@tessera/sdk';
import { z } from 'zod';
import { FieldItem, RWMode, TableName, TableType } from './index.ts';

const Id = z.string().min(1).max(32);
const InSpace = z.object({ space_id: Id });
const Done = z.object({});
const Type = z.number().int().min(1).max(2).default(TableType.Draft);
/** Values as Coze sends them (strings), or typed. */
const RecordValues = z.record(z.string().max(64), z.union([z.string(), z.number(), z.boolean(), z.null()]));
const RowView = z.record(z.string(), z.string());

export const FieldView = z.object({
  id: z.number(),
  name: z.string(),
  desc: z.string(),
  type: z.number(),
  must_required: z.boolean(),
});
export type FieldView = z.output<typeof FieldView>;

export const DatabaseView = z.object({
  id: z.string(),
  space_id: z.string(),
  table_name: z.string(),
  table_desc: z.string(),
  icon_uri: z.string(),
  icon_url: z.string(),
  /** 1 each end user their own rows, 2 read-only for end users, 3 rows shared by all */
  rw_mode: z.number(),
  prompt_disabled: z.boolean(),
  field_list: z.array(FieldView),
  creator_id: z.string(),
  create_time: z.number(),
  update_time: z.number(),
});
export type DatabaseView = z.output<typeof DatabaseView>;
const OneDatabase = z.object({ database_info: DatabaseView });

const Meta = z.object({
  table_name: TableName,
  table_desc: z.string().max(2000).default(''),
  icon_uri: imageRef().default(''),
  field_list: z.array(FieldItem).max(50),
  rw_mode: z
    .union([z.literal(RWMode.LimitedReadWrite), z.literal(RWMode.ReadOnly), z.literal(RWMode.UnlimitedReadWrite)])
    .default(RWMode.LimitedReadWrite),
  prompt_disabled: z.boolean().default(false),
});

export const AddTable = defineEndpoint({
  method: 'POST',
  path: '/api/memory/database/add',
  summary: 'Create a table with typed fields (text, whole number, time, number, true/false), per-user or shared rows',
  body: Meta.extend({ space_id: Id }),
  response: OneDatabase,
});

export const UpdateTable = defineEndpoint({
  method: 'POST',
  path: '/api/memory/database/update',
  summary:
    'Change a table: name, description, mode, and its fields (add, rename, retype with every value converted, drop)',
  body: Meta.partial().extend({ space_id: Id, id: Id }),
  response: OneDatabase,
});

export const DeleteTable = defineEndpoint({
  method: 'POST',
  path: '/api/memory/database/delete',
  summary: 'Delete a table with its draft and online rows',
  body: InSpace.extend({ id: Id }),
  response: Done,
});

export const ListTables = defineEndpoint({
  method: 'POST',
  path: '/api/memory/database/list',
  summary: 'Tables of a space: search by name, page',
  body: InSpace.extend({
    table_name: z.string().max(64).optional(),
    limit: z.number().int().min(1).max(100).default(20),
    offset: z.number().int().min(0).default(0),
  }),
  response: z.object({ database_info_list: z.array(DatabaseView), total_count: z.number(), has_more: z.boolean() }),
});

export const GetTable = defineEndpoint({
  method: 'POST',
  path: '/api/memory/database/get_by_id',
  summary: 'A table with its fields',
  body: InSpace.extend({ id: Id }),
  response: OneDatabase,
});

const Condition = z.object({
  field: z.string().min(1).max(64),
  op: z.enum(['eq', 'ne', 'gt', 'ge', 'lt', 'le', 'like', 'is_null', 'not_null']),
  value: z.string().max(4000).optional(),
});

export const ListRecords = defineEndpoint({
  method: 'POST',
  path: '/api/memory/database/list_records',
  summary:
    "A table's rows (draft 1 or online 2): conditions, sort, paging; every user's rows in the studio unless uuid is given",
  body: InSpace.extend({
    database_id: Id,
    table_type: Type,
    limit: z.number().int().min(1).max(100).default(50),
    offset: z.number().int().min(0).default(0),
    conditions: z.array(Condition).max(20).optional(),
    order_by_list: z
      .array(
        z.object({ field: z.string().min(1).max(64), direction: z.union([z.literal(1), z.literal(2)]).default(1) }),
      )
      .max(5)
      .optional(),
    uuid: z.string().max(200).optional(),
  }),
  response: z.object({
    data: z.array(RowView),
    HasMore: z.boolean(),
    TotalNum: z.number(),
    field_list: z.array(FieldView),
  }),
});

export const UpdateRecords = defineEndpoint({
  method: 'POST',
  path: '/api/memory/database/update_records',
  summary: 'Add, change and delete rows of a table (draft 1 or online 2); added rows are yours',
  body: InSpace.extend({
    database_id: Id,
    table_type: Type,
    record_data_add: z.array(RecordValues).max(500).default([]),
    record_data_alter: z.array(RecordValues).max(500).default([]),
    record_data_delete: z
      .array(z.object({ id: z.union([z.string(), z.number()]) }).passthrough())
      .max(500)
      .default([]),
  }),
  /** The rows added (as stored), and how many were changed and deleted. */
  response: z.object({ data: z.array(RowView), changed: z.number(), deleted: z.number() }),
});

export const SqlResultView = z.object({
  kind: z.enum(['select', 'insert', 'update', 'delete']),
  rows: z.array(RowView),
  rowNum: z.number(),
});
export type SqlResultView = z.output<typeof SqlResultView>;

export const ExecuteSql = defineEndpoint({
  method: 'POST',
  path: '/api/memory/database/execute_sql',
  summary:
    "Run one checked SELECT, INSERT, UPDATE or DELETE over the space's tables (every user's rows); ? takes the next of params",
  body: InSpace.extend({
    sql: z.string().max(10_000),
    params: z
      .array(z.union([z.string(), z.number(), z.boolean(), z.null()]))
      .max(100)
      .default([]),
    table_type: Type,
  }),
  response: SqlResultView,
});

export const AskTables = defineEndpoint({
  method: 'POST',
  path: '/api/memory/table_nl2sql',
  summary:
    "Turn a question into one checked SQL statement over the space's tables with a chat model, show it, and run it unless run is false",
  body: InSpace.extend({
    question: z.string().trim().min(1, 'Ask a question.').max(2000),
    model_id: Id,
    table_type: Type,
    run: z.boolean().default(true),
    database_ids: z.array(Id).max(20).optional(),
  }),
  /** The statement written; its result, or why it was refused. */
  response: z.object({ sql: z.string(), result: SqlResultView.optional(), refused: z.string().optional() }),
});

export const ResetTable = defineEndpoint({
  method: 'POST',
  path: '/api/memory/database/reset',
  summary: "Delete every row of a table's draft (1) or online (2) data",
  body: InSpace.extend({ database_id: Id, table_type: Type }),
  response: Done,
});

// ---- import and export

export const ImportView = z.object({
  import_id: z.string(),
  database_id: z.string(),
  table_type: z.number(),
  file_name: z.string(),
  status: z.enum(['queued', 'running', 'done', 'failed']),
  total: z.number(),
  done: z.number(),
  failed: z.number(),
  /** 0..100 */
  progress: z.number(),
  /** The first rows refused, with their line in the file. */
  errors: z.array(z.object({ line: z.number(), message: z.string() })),
  message: z.string().nullable(),
});
export type ImportView = z.output<typeof ImportView>;

export const ImportRows = defineEndpoint({
  method: 'POST',
  path: '/api/memory/database/import',
  summary:
    'Import rows from CSV or XLSX (a header row naming the fields; XLSX as base64, its first sheet) as a background job; follow it with import_progress',
  body: InSpace.extend({
    database_id: Id,
    table_type: z.number().int().min(1).max(2).default(1),
    file_name: z.string().max(255).default(''),
    format: z.enum(['csv', 'xlsx']).default('csv'),
    content: z
      .string()
      .min(1, 'The file is empty.')
      .max(9 * 1024 * 1024, 'The file is larger than 9 MB.'),
  }),
  response: ImportView,
});

export const ImportProgress = defineEndpoint({
  method: 'POST',
  path: '/api/memory/database/import_progress',
  summary: 'How an import goes: status, rows done and failed, the first errors with their lines',
  body: InSpace.extend({ import_id: Id }),
  response: ImportView,
});
