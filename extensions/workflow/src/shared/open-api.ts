// What the workflow open API answers (Coze's /v1/workflow/run, the run history, /v1/workflows ...): declared on the
// routes, so /openapi.json describes them and the test suite checks them against what `@coze/api` reads. The run
// and the run history answer outside the envelope's data, as Coze does.
import { z } from 'zod';

const Usage = z.object({ input_count: z.number(), output_count: z.number(), token_count: z.number() });

/** A run waited for (data: the End node's output as JSON text), or started with is_async. */
export const RunAnswer = z.union([
  z.object({
    code: z.number(),
    msg: z.string(),
    data: z.string(),
    execute_id: z.string(),
    debug_url: z.string(),
    token: z.number(),
    cost: z.string(),
    usage: Usage,
  }),
  z.object({ code: z.number(), msg: z.string(), execute_id: z.string(), debug_url: z.string() }),
]);

/** A run as Coze's run history answers it: `output` wraps the End node's JSON as {"Output": "..."}. */
export const RunHistoryEntry = z.object({
  execute_id: z.string(),
  execute_status: z.enum(['Running', 'Success', 'Fail', 'Cancel']),
  bot_id: z.string(),
  connector_id: z.string(),
  connector_uid: z.string(),
  run_mode: z.number(),
  logid: z.string(),
  create_time: z.number(),
  update_time: z.number(),
  output: z.string(),
  token: z.string(),
  usage: Usage,
  cost: z.string(),
  error_code: z.string(),
  error_message: z.string(),
  debug_url: z.string(),
  interrupt_data: z.unknown().nullable(),
});
export const RunHistoryAnswer = z.object({ code: z.number(), msg: z.string(), data: z.array(RunHistoryEntry) });

const WorkflowBrief = z.object({
  workflow_id: z.string(),
  workflow_name: z.string(),
  description: z.string(),
  icon_url: z.string(),
  app_id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  creator: z.object({ id: z.string() }),
  flow_mode: z.number(),
  latest_version: z.string().nullable(),
});

export const WorkflowInfo = z.object({
  workflow_detail: WorkflowBrief,
  input: z.object({
    parameters: z.record(
      z.string(),
      z.object({ type: z.string(), required: z.boolean(), description: z.string(), default_value: z.unknown() }),
    ),
  }),
});
export const WorkflowPage = z.object({ items: z.array(WorkflowBrief), has_more: z.boolean() });
export const VersionPage = z.object({
  items: z.array(
    z.object({
      version: z.string().nullable(),
      description: z.string(),
      created_at: z.string(),
      commit_id: z.string(),
      creator: z.object({ id: z.string() }),
    }),
  ),
  has_more: z.boolean(),
});
