// The studio's workflow calls (Coze's /api/workflow_api/...: drafts, versions, test runs, the run history): one
// contract for the routes, the pages and /openapi.json. Times are Unix seconds unless a field says otherwise.
import { defineEndpoint, imageRef } from '@tessera/sdk';
import { Canvas, FieldDeclSchema, RunMode, WorkflowMode } from '@tessera/workflow-sdk';
import { z } from 'zod';

const BASE = '/api/workflow_api';
const Id = z.string().min(1).max(32);
const VERSION = /^v\d+\.\d+\.\d+$/;
/** A canvas as JSON text or as an object. */
export const SchemaInput = z.union([z.string().max(20_000_000), z.record(z.string(), z.unknown())]);
const Inputs = z.union([z.string().max(5_000_000), z.record(z.string(), z.unknown())]).optional();
const Fields = z.array(FieldDeclSchema);
const Created = z.object({ workflow_id: z.string() });
const Reference = z.object({ workflow_id: z.string(), name: z.string() });
const Texts = z.record(z.string(), z.string());

/** A workflow as the studio lists it: Coze's workflow meta with its development and publish statuses. */
export const MetaView = z.object({
  workflow_id: z.string(),
  space_id: z.string(),
  name: z.string(),
  desc: z.string(),
  icon_uri: z.string(),
  /** 0 Workflow, 3 ChatFlow. */
  flow_mode: z.number(),
  creator_id: z.string(),
  /** The draft's revision (a save from an older one is refused). */
  revision: z.number(),
  /** DevelopmentStatus: can submit, cannot, submitted, deleted. */
  status: z.number(),
  /** PublishStatus: can publish, cannot, published, deleted. */
  publish_status: z.number(),
  latest_version: z.string().nullable(),
  latest_commit_id: z.string().nullable(),
  /** ISO time of the last publication. */
  published_at: z.string().nullable(),
  create_time: z.number(),
  update_time: z.number(),
});
export type MetaView = z.output<typeof MetaView>;

/** A node type of the catalogue (from the NodeTypes registry). */
export const NodeTypeInfo = z.object({
  key: z.string(),
  code: z.number(),
  /** The code as Coze's canvas names it ("1" Start ...). */
  type: z.string(),
  version: z.number(),
  category: z.string(),
  label: Texts,
  description: Texts.nullable(),
  singleton: z.boolean(),
  role: z.enum(['entry', 'exit']).nullable(),
  /** Whether its outputs are computed from its settings or declared by the person. */
  outputs: z.enum(['computed', 'declared']),
  /** A loop or batch: nodes inside it see its locals. */
  composite: z.boolean(),
});
export type NodeTypeInfo = z.output<typeof NodeTypeInfo>;

export const Problem = z.object({
  /** 1 node error, 2 path error, 3 concurrent-path error. */
  type: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  node_id: z.string().optional(),
  field: z.string().optional(),
  message: z.string(),
  level: z.literal('warning').optional(),
});

/** One node's execution in a run: inputs and outputs as JSON text. */
export const NodeResultView = z.object({
  node_id: z.string(),
  node_type: z.string(),
  node_title: z.string(),
  /** NodeExecStatus: 1 waiting, 2 running, 3 success, 4 fail. */
  node_status: z.number(),
  input: z.string().nullable(),
  output: z.string().nullable(),
  error_info: z.string().nullable(),
  branch: z.string().nullable(),
  duration_ms: z.number(),
  tokens: z.number(),
  logs: z.array(z.string()),
});
export type NodeResultView = z.output<typeof NodeResultView>;

/** A run: status, input and output (JSON text), per-node results, the question it waits on. */
export const ProcessView = z.object({
  execute_id: z.string(),
  workflow_id: z.string(),
  /** RunStatus: 1 running, 2 success, 3 fail, 4 cancelled. */
  execute_status: z.number(),
  execute_mode: z.number(),
  run_mode: z.number(),
  version: z.string().nullable(),
  input: z.string(),
  output: z.string().nullable(),
  reason: z.string().nullable(),
  interrupt: z.object({ event_id: z.string(), type: z.number(), data: z.unknown() }).loose().nullable(),
  log_id: z.string(),
  create_time: z.number(),
  update_time: z.number(),
  duration_ms: z.number().nullable(),
  node_results: z.array(NodeResultView),
});
export type ProcessView = z.output<typeof ProcessView>;

const NodeExecution = z.object({
  execute_id: z.string(),
  node_id: z.string(),
  node_status: z.number(),
  input: z.string().nullable(),
  output: z.string().nullable(),
  error_info: z.string().nullable(),
  duration_ms: z.number(),
  /** ISO time. */
  started_at: z.string(),
});

export const PastRun = z.object({
  execute_id: z.string(),
  execute_status: z.number(),
  /** ExecuteMode: test run, node debug, API ... */
  execute_mode: z.number(),
  run_mode: z.number(),
  version: z.string().nullable(),
  reason: z.string().nullable(),
  user_id: z.string(),
  create_time: z.number(),
  duration_ms: z.number().nullable(),
});
export type PastRun = z.output<typeof PastRun>;

/** A span of a run (the run, its nodes, their inner calls); ms since the epoch. */
export const RunSpan = z
  .object({
    id: z.string(),
    run_id: z.string(),
    parent_id: z.string().nullable(),
    name: z.string(),
    start_ms: z.number(),
    end_ms: z.number().nullable(),
    status: z.string(),
    attributes: z.record(z.string(), z.unknown()),
  })
  .loose();
export type RunSpan = z.output<typeof RunSpan>;

export const VersionView = z.object({
  commit_id: z.string(),
  version: z.string(),
  version_description: z.string(),
  creator_id: z.string(),
  publish_time: z.number(),
});
export type VersionView = z.output<typeof VersionView>;

export const OperationView = z.object({
  id: z.string(),
  /** OperateType: draft, submit, publish ... */
  type: z.number(),
  commit_id: z.string().nullable(),
  operator_id: z.string(),
  desc: z.string(),
  create_time: z.number(),
});
export type OperationView = z.output<typeof OperationView>;

const JsonPath = z.array(z.union([z.string(), z.number()]));
const DiffEntry = z.object({
  path: JsonPath,
  key: z.string(),
  kind: z.enum(['added', 'removed', 'changed']),
  before: z.unknown().optional(),
  after: z.unknown().optional(),
});
const Conflict = z.object({
  path: JsonPath,
  key: z.string(),
  base: z.unknown().optional(),
  ours: z.unknown().optional(),
  theirs: z.unknown().optional(),
});

const Validation = {
  summary: 'Every problem of the draft (or a given schema) at once: node, path and concurrent-path errors',
  body: z.object({ space_id: Id, workflow_id: Id, schema: SchemaInput.optional() }),
  response: z.object({
    valid: z.boolean(),
    errors: z.array(Problem),
    /** What each node gives the nodes after it (and a composite to its body), for reference pickers. */
    node_outputs: z.record(z.string(), Fields),
    node_locals: z.record(z.string(), Fields),
  }),
};
export const ValidateTree = defineEndpoint({ method: 'POST', path: `${BASE}/validate_tree`, ...Validation });
export const Validate = defineEndpoint({ method: 'POST', path: `${BASE}/validate`, ...Validation });

export const ListNodeTypes = defineEndpoint({
  method: 'GET',
  path: `${BASE}/node_types`,
  summary: 'The node catalogue (from the node-type registry)',
  response: z.object({ node_types: z.array(NodeTypeInfo) }),
});

export const CreateWorkflow = defineEndpoint({
  method: 'POST',
  path: `${BASE}/create`,
  summary: 'Create a workflow (flow_mode 0 Workflow, 3 ChatFlow)',
  body: z.object({
    space_id: Id,
    name: z.string().trim().min(1).max(100),
    desc: z.string().max(2000).default(''),
    icon_uri: imageRef(2_000_000).default(''),
    flow_mode: z
      .union([z.literal(WorkflowMode.Workflow), z.literal(WorkflowMode.ChatFlow)])
      .default(WorkflowMode.Workflow),
  }),
  response: Created,
});

export const SaveDraft = defineEndpoint({
  method: 'POST',
  path: `${BASE}/save`,
  summary: 'Save the draft canvas (base_revision detects a save made from an older draft)',
  body: z.object({
    space_id: Id,
    workflow_id: Id,
    schema: SchemaInput,
    base_revision: z.number().int().positive().optional(),
  }),
  response: MetaView,
});

export const GetCanvas = defineEndpoint({
  method: 'POST',
  path: `${BASE}/canvas`,
  summary: 'The draft canvas with the workflow meta and statuses',
  body: z.object({ space_id: Id, workflow_id: Id }),
  response: z.object({ workflow: MetaView.extend({ schema_json: z.string() }) }),
});

export const UpdateMeta = defineEndpoint({
  method: 'POST',
  path: `${BASE}/update_meta`,
  summary: 'Rename, describe or change the icon',
  body: z.object({
    space_id: Id,
    workflow_id: Id,
    name: z.string().trim().min(1).max(100).optional(),
    desc: z.string().max(2000).optional(),
    icon_uri: imageRef(2_000_000).optional(),
  }),
  response: MetaView,
});

export const CopyWorkflow = defineEndpoint({
  method: 'POST',
  path: `${BASE}/copy`,
  summary: 'Copy a workflow (its draft) in the same space',
  body: z.object({ space_id: Id, workflow_id: Id }),
  response: Created,
});

export const ListReferences = defineEndpoint({
  method: 'POST',
  path: `${BASE}/workflow_references`,
  summary: 'Workflows of the space that use this one as a sub-workflow',
  body: z.object({ space_id: Id, workflow_id: Id }),
  response: z.object({ workflow_list: z.array(Reference) }),
});

export const DeleteWorkflow = defineEndpoint({
  method: 'POST',
  path: `${BASE}/delete`,
  summary: 'Delete a workflow; the answer says whether it could (delete check) and who used it',
  body: z.object({ space_id: Id, workflow_id: Id, action: z.number().int().optional() }),
  response: z.object({ status: z.number(), references: z.array(Reference) }),
});

export const BatchDelete = defineEndpoint({
  method: 'POST',
  path: `${BASE}/batch_delete`,
  summary: 'Delete several workflows',
  body: z.object({ space_id: Id, workflow_id_list: z.array(Id).min(1).max(100) }),
  response: z.null(),
});

export const ListWorkflows = defineEndpoint({
  method: 'POST',
  path: `${BASE}/workflow_list`,
  summary: 'Workflows of a space: paging, name, flow mode and status filters, order and direction',
  body: z.object({
    space_id: Id,
    page: z.number().int().min(1).default(1),
    size: z.number().int().min(1).max(100).default(20),
    name: z.string().max(100).optional(),
    flow_mode: z.number().int().optional(),
    status: z.number().int().min(1).max(2).optional(),
    order_by: z.number().int().min(0).max(4).default(1),
    sort_type: z.number().int().min(1).max(2).default(2),
    login_user_create: z.boolean().optional(),
    workflow_ids: z.array(Id).max(100).optional(),
  }),
  response: z.object({ workflow_list: z.array(MetaView), total: z.number(), has_more: z.boolean() }),
});

export const WorkflowDetail = defineEndpoint({
  method: 'POST',
  path: `${BASE}/workflow_detail`,
  summary: 'Details of workflows by id',
  body: z.object({ space_id: Id, workflow_ids: z.array(Id).min(1).max(100) }),
  response: z.array(MetaView.extend({ inputs: Fields })),
});

export const GetSignature = defineEndpoint({
  method: 'POST',
  path: `${BASE}/signature`,
  summary:
    "A workflow's inputs (its entry node's fields) and outputs (what its exit node returns), of the draft or a published version",
  body: z.object({ space_id: Id, workflow_id: Id, version: z.string().max(40).optional() }),
  response: z.object({ inputs: Fields, outputs: Fields }),
});

export const TestRun = defineEndpoint({
  method: 'POST',
  path: `${BASE}/test_run`,
  summary: 'Run the draft: run_mode 0 sync (the result), 1 stream (SSE), 2 async (execute_id; poll get_process)',
  body: z.object({
    space_id: Id,
    workflow_id: Id,
    input: Inputs,
    run_mode: z.number().int().min(0).max(2).default(RunMode.Async),
  }),
  response: z.union([ProcessView, z.object({ execute_id: z.string() })]),
});

export const TestResume = defineEndpoint({
  method: 'POST',
  path: `${BASE}/test_resume`,
  summary: 'Answer the question a run waits on and continue it',
  body: z.object({
    space_id: Id,
    workflow_id: Id,
    execute_id: Id,
    event_id: z.string().min(1),
    data: z.unknown(),
    run_mode: z.number().int().min(0).max(2).default(RunMode.Async),
  }),
  response: z.union([ProcessView, z.object({ execute_id: z.string() })]),
});

export const CancelRun = defineEndpoint({
  method: 'POST',
  path: `${BASE}/cancel`,
  summary: 'Cancel a run',
  body: z.object({ space_id: Id, workflow_id: Id, execute_id: Id }),
  response: z.object({ execute_status: z.number() }),
});

export const GetProcess = defineEndpoint({
  method: 'GET',
  path: `${BASE}/get_process`,
  summary: 'A run: status, output, per-node results, the question it waits on',
  query: z.object({ space_id: Id, workflow_id: Id, execute_id: Id }),
  response: ProcessView,
});

export const NodeHistory = defineEndpoint({
  method: 'POST',
  path: `${BASE}/get_node_execute_history`,
  summary: 'Executions of one node (latest first)',
  body: z.object({
    space_id: Id,
    workflow_id: Id,
    node_id: z.string().min(1),
    execute_id: Id.optional(),
    limit: z.number().int().min(1).max(50).default(10),
  }),
  response: z.object({ executions: z.array(NodeExecution) }),
});

export const RunHistory = defineEndpoint({
  method: 'POST',
  path: `${BASE}/get_execute_history_list`,
  summary: "A workflow's runs, newest first (test runs, debug runs and API runs)",
  body: z.object({
    space_id: Id,
    workflow_id: Id,
    execute_mode: z.number().int().optional(),
    limit: z.number().int().min(1).max(100).default(20),
    before_id: Id.optional(),
  }),
  response: z.object({ runs: z.array(PastRun), has_more: z.boolean() }),
});

export const NodeDebug = defineEndpoint({
  method: 'POST',
  path: `${BASE}/nodeDebug`,
  summary: 'Run one node of the draft with given inputs',
  body: z.object({ space_id: Id, workflow_id: Id, node_id: z.string().min(1), input: Inputs }),
  response: ProcessView,
});

export const GetTrace = defineEndpoint({
  method: 'GET',
  path: `${BASE}/trace`,
  summary: 'The spans of a run (run, nodes, inner calls)',
  query: z.object({ space_id: Id, execute_id: Id }),
  response: z.object({ spans: z.array(RunSpan) }),
});

export const SubmitDraft = defineEndpoint({
  method: 'POST',
  path: `${BASE}/submit`,
  summary: 'Commit the draft with a description',
  body: z.object({
    space_id: Id,
    workflow_id: Id,
    desc: z.string().max(2000).default(''),
    force: z.boolean().default(false),
  }),
  response: z.object({ commit_id: z.string() }),
});

export const PublishWorkflow = defineEndpoint({
  method: 'POST',
  path: `${BASE}/publish`,
  summary: 'Publish the draft as a version (vX.Y.Z, greater than the last one)',
  body: z.object({
    space_id: Id,
    workflow_id: Id,
    workflow_version: z.string().regex(VERSION, 'Use a version like v1.0.0.'),
    version_description: z.string().max(2000).default(''),
    force: z.boolean().default(false),
  }),
  response: z.object({ workflow_id: z.string(), commit_id: z.string(), workflow_version: z.string() }),
});

export const ListVersions = defineEndpoint({
  method: 'POST',
  path: `${BASE}/version_list`,
  summary: 'Published versions, newest first',
  body: z.object({
    space_id: Id,
    workflow_id: Id,
    page: z.number().int().min(1).default(1),
    size: z.number().int().min(1).max(100).default(20),
  }),
  response: z.object({ version_list: z.array(VersionView) }),
});

export const ListOperations = defineEndpoint({
  method: 'POST',
  path: `${BASE}/operate_list`,
  summary: 'Operation history (drafts, submits, publishes, reverts)',
  body: z.object({
    space_id: Id,
    workflow_id: Id,
    limit: z.number().int().min(1).max(100).default(20),
    last_commit_id: z.string().optional(),
    type: z.number().int().optional(),
  }),
  response: z.object({ operate_list: z.array(OperationView), has_more: z.boolean() }),
});

export const HistorySchema = defineEndpoint({
  method: 'POST',
  path: `${BASE}/history_schema`,
  summary: 'The canvas of a commit or published version (to compare with the draft)',
  body: z.object({ space_id: Id, workflow_id: Id, commit_id: Id }),
  response: z.object({
    commit_id: z.string(),
    version: z.string().nullable(),
    description: z.string(),
    schema_json: z.string(),
    create_time: z.number(),
  }),
});

export const RevertDraft = defineEndpoint({
  method: 'POST',
  path: `${BASE}/revert`,
  summary: 'Make a commit (or version) the draft again',
  body: z.object({ space_id: Id, workflow_id: Id, commit_id: Id }),
  response: z.object({ revision: z.number() }),
});

export const DiffVersions = defineEndpoint({
  method: 'POST',
  path: `${BASE}/diff`,
  summary:
    'What changed between two versions of a workflow (a commit id, or empty for the draft): nodes added, removed, moved and changed field by field, links',
  body: z.object({
    space_id: Id,
    workflow_id: Id,
    left_commit_id: z.string().max(32).default(''),
    right_commit_id: z.string().max(32).default(''),
  }),
  response: z.object({ diff: z.array(DiffEntry) }),
});

export const Merge3Way = defineEndpoint({
  method: 'POST',
  path: `${BASE}/merge_3way`,
  summary:
    'Merge what the person changed (ours, from the canvas they opened: base) with the draft saved meanwhile: the merged canvas, the conflicts, links dropped, the revision to save it over',
  body: z.object({ space_id: Id, workflow_id: Id, base: SchemaInput, ours: SchemaInput }),
  response: z.object({
    merged: Canvas,
    conflicts: z.array(Conflict),
    /** Links dropped because a node at one end is gone. */
    dropped: z.array(z.string()),
    theirs_revision: z.number(),
  }),
});
