// Online evaluation's calls (spec 002 §7.7 observation tasks, /api/observability/v1/tasks, as Coze Loop names
// them): a task runs evaluators on a sample of the new traces (or spans) that match its filters, between its
// effective times; the scores are kept as the spans' annotations and drawn over time.
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';

const Id = z.string().min(1).max(32);
const BASE = '/api/observability/v1/tasks';

export const TASK_STATUSES = ['unstarted', 'running', 'pending', 'success', 'failed', 'disabled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
/** What a filter reads of a span: these names, or any other as an attribute key. */
export const SPAN_FIELDS = ['span_name', 'span_type', 'model_name', 'status', 'service_name', 'source'] as const;
export const QUERY_TYPES = ['eq', 'not_eq', 'in', 'not_in', 'match', 'exist'] as const;

export const FilterField = z.object({
  field_name: z.string().trim().min(1, 'Name the field a filter reads.').max(128),
  query_type: z.enum(QUERY_TYPES).default('eq'),
  values: z.array(z.string().max(500)).max(50).default([]),
});
export type FilterField = z.output<typeof FilterField>;

export const SpanFilters = z.object({
  /** Which spans of a trace are evaluated: the root (the default), model calls, or every span. */
  span_list_type: z.enum(['root_span', 'llm_span', 'all_span']).default('root_span'),
  filters: z.object({ filter_fields: z.array(FilterField).max(20).default([]) }).default({ filter_fields: [] }),
});

export const FieldMapping = z.object({
  /** The evaluator's input it fills: input, output or reference. */
  field_schema: z.object({ key: z.enum(['input', 'output', 'reference']), name: z.string().max(64).optional() }),
  /** What of the span: input, output, or an attribute key. */
  trace_field_key: z.string().trim().min(1).max(128),
  /** A path into that value when it holds JSON ($.messages[0].content or messages.0.content). */
  trace_field_jsonpath: z.string().max(200).default(''),
});
export type FieldMapping = z.output<typeof FieldMapping>;

export const AutoEvaluateConfig = z.object({
  evaluator_id: Id,
  /** The evaluator's version (its latest when the task was made, without one); kept with the task. */
  evaluator_version: z.string().max(32).optional(),
  field_mappings: z.array(FieldMapping).max(3).default([]),
});

export const TaskInput = z.object({
  name: z.string().trim().min(1, 'Give the task a name.').max(100),
  description: z.string().max(2000).default(''),
  workspace_id: Id,
  task_type: z.literal('auto_evaluate').default('auto_evaluate'),
  rule: z.object({
    span_filters: SpanFilters.default({ span_list_type: 'root_span', filters: { filter_fields: [] } }),
    sampler: z.object({
      sample_rate: z.number().gt(0, 'The sample rate is above 0.').max(1, 'The sample rate is at most 1 (all).'),
      /** At most this many spans are sampled (0: no limit); the task is done then. */
      sample_size: z.number().int().min(0).max(10_000_000).default(0),
    }),
    effective_time: z
      .object({ start_at: z.number().int().min(0).optional(), end_at: z.number().int().min(0).optional() })
      .default({}),
  }),
  task_config: z.object({
    auto_evaluate_configs: z.array(AutoEvaluateConfig).min(1, 'Choose at least one evaluator.').max(5),
  }),
});

export const TaskView = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  workspace_id: z.string(),
  task_type: z.literal('auto_evaluate'),
  task_status: z.enum(TASK_STATUSES),
  rule: z.object({
    span_filters: SpanFilters,
    sampler: z.object({ sample_rate: z.number(), sample_size: z.number() }),
    effective_time: z.object({ start_at: z.number(), end_at: z.number() }),
  }),
  task_config: z.object({
    auto_evaluate_configs: z.array(
      z.object({
        evaluator_id: z.string(),
        evaluator_version: z.string(),
        evaluator_name: z.string(),
        field_mappings: z.array(FieldMapping),
      }),
    ),
  }),
  task_detail: z.object({
    sampled_count: z.number(),
    success_count: z.number(),
    failed_count: z.number(),
    pending_count: z.number(),
  }),
  base_info: z.object({
    created_by: z.object({ user_id: z.string() }),
    created_at: z.number(),
    updated_at: z.number(),
  }),
});
export type TaskView = z.output<typeof TaskView>;

export const CheckTaskName = defineEndpoint({
  method: 'GET',
  path: `${BASE}/check_name`,
  summary: 'Whether a task name is free in the space',
  query: z.object({ workspace_id: Id, name: z.string().max(200) }),
  response: z.object({ pass: z.boolean(), message: z.string() }),
});
export const CreateTask = defineEndpoint({
  method: 'POST',
  path: BASE,
  summary: 'An observation task: evaluators run on a sample of the new spans that match its filters',
  body: z.object({ task: TaskInput }),
  response: z.object({ task_id: z.string() }),
});
export const UpdateTask = defineEndpoint({
  method: 'PUT',
  path: `${BASE}/:task_id`,
  summary: 'Pause (pending or disabled) or resume (running) a task, or change its description, times or sample rate',
  params: z.object({ task_id: Id }),
  body: z.object({
    workspace_id: Id,
    task_status: z.enum(['running', 'pending', 'disabled']).optional(),
    description: z.string().max(2000).optional(),
    effective_time: z
      .object({ start_at: z.number().int().min(0).optional(), end_at: z.number().int().min(0).optional() })
      .optional(),
    sample_rate: z.number().gt(0).max(1).optional(),
  }),
  response: z.object({}),
});
export const ListTasks = defineEndpoint({
  method: 'POST',
  path: `${BASE}/list`,
  summary: "The space's observation tasks, newest first (by name or status)",
  body: z.object({
    workspace_id: Id,
    task_filters: z
      .object({ name: z.string().max(100).optional(), task_status: z.enum(TASK_STATUSES).optional() })
      .default({}),
    limit: z.number().int().min(1).max(200).default(20),
    offset: z.number().int().min(0).default(0),
    order_by: z.number().int().min(0).max(2).default(2),
  }),
  response: z.object({ tasks: z.array(TaskView), total: z.number() }),
});
export const GetTask = defineEndpoint({
  method: 'GET',
  path: `${BASE}/:task_id`,
  summary: 'One observation task with its counts',
  params: z.object({ task_id: Id }),
  query: z.object({ workspace_id: Id }),
  response: z.object({ task: TaskView }),
});

export const ResultPoint = z.object({
  time_ms: z.number(),
  evaluator_id: z.string(),
  count: z.number(),
  failed: z.number(),
  avg_score: z.number().nullable(),
});
export const ResultItem = z.object({
  trace_id: z.string(),
  span_id: z.string(),
  evaluator_id: z.string(),
  status: z.enum(['pending', 'running', 'done', 'failed']),
  score: z.number().nullable(),
  reason: z.string(),
  input: z.string(),
  output: z.string(),
  finished_at: z.number(),
});
export type ResultItem = z.output<typeof ResultItem>;
export const TaskResults = defineEndpoint({
  method: 'POST',
  path: `${BASE}/:task_id/results`,
  summary: "A task's scores over time (per evaluator: count, failures, mean score a bucket) and the latest ones",
  params: z.object({ task_id: Id }),
  body: z.object({
    workspace_id: Id,
    /** Milliseconds since the epoch; the last day without them. */
    start_time: z.number().int().optional(),
    end_time: z.number().int().optional(),
    bucket: z.enum(['minute', 'hour', 'day']).optional(),
    page_size: z.number().int().min(1).max(200).default(50),
  }),
  response: z.object({
    bucket_ms: z.number(),
    series: z.array(ResultPoint),
    items: z.array(ResultItem),
  }),
});
export const PreviewTask = defineEndpoint({
  method: 'POST',
  path: `${BASE}/preview`,
  summary: "How many of the last day's spans a rule would have matched and sampled, with some of them",
  body: z.object({
    workspace_id: Id,
    rule: z.object({ span_filters: SpanFilters, sampler: z.object({ sample_rate: z.number().gt(0).max(1) }) }),
  }),
  response: z.object({
    scanned: z.number(),
    matched: z.number(),
    sampled: z.number(),
    spans: z.array(
      z.object({ trace_id: z.string(), span_id: z.string(), name: z.string(), input: z.string(), output: z.string() }),
    ),
  }),
});
export const ListTaskEvaluators = defineEndpoint({
  method: 'GET',
  path: `${BASE}/evaluators`,
  summary: "The space's evaluators a task may run (latest version each)",
  query: z.object({ workspace_id: Id }),
  response: z.object({
    evaluators: z.array(
      z.object({ evaluator_id: z.string(), name: z.string(), kind: z.string(), latest_version: z.string() }),
    ),
  }),
});
