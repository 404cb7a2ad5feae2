// Prompt releases' calls (spec 002 §7.5, devops/prompt_platform v1: release, gray release, release tasks, the space's
// release_approval_config). A release task asks for a change of what an environment serves (a version to everyone,
// first to a gray share of callers, or nothing: offline); it waits for an approver where the environment needs one,
// then runs its subtasks (gray, then full; or full; or offline); it can be cancelled, and rolled back while what it
// set is still live.
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';

const Id = z.string().min(1).max(32);
const BASE = '/api/devops/prompt_platform/v1';
const inSpace = { space_id: Id };

export const TASK_STATUSES = ['waiting_approval', 'rejected', 'in_gray', 'done', 'cancelled', 'rolled_back'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const OPERATIONS = ['release', 'offline', 'rollback'] as const;
export type Operation = (typeof OPERATIONS)[number];
export const SUBTASK_KEYS = ['gray', 'full', 'offline'] as const;
export type SubtaskKey = (typeof SUBTASK_KEYS)[number];

export const Env = z.object({
  env: z
    .string()
    .trim()
    .regex(/^[a-z][a-z0-9_-]{0,31}$/, 'An environment key has lower-case letters, digits, - and _ (a letter first).'),
  name: z.string().trim().min(1, 'Give the environment a name.').max(50),
  need_approval: z.boolean().default(false),
});
export type Env = z.output<typeof Env>;

export const ApprovalConfig = z.object({
  envs: z
    .array(Env)
    .min(1, 'Keep at least one environment.')
    .max(20)
    .refine((e) => new Set(e.map((x) => x.env)).size === e.length, 'Two environments have the same key.'),
  /** Who approves releases to an environment that needs approval; the space's owner and administrators when empty. */
  approvers: z.array(Id).max(50).default([]),
  /** Whoever asked may approve their own release too (a space of one); off by default (four eyes). */
  allow_self_approval: z.boolean().default(false),
});
export type ApprovalConfig = z.output<typeof ApprovalConfig>;

export const DEFAULT_ENVS: Env[] = [
  { env: 'dev', name: 'Development', need_approval: false },
  { env: 'staging', name: 'Staging', need_approval: false },
  { env: 'production', name: 'Production', need_approval: true },
];

export const GrayConfig = z
  .object({
    /** The share of callers served the gray version (by a stable hash of the caller), 0-100. */
    percentage: z.number().min(0, 'The share is 0 to 100.').max(100, 'The share is 0 to 100.'),
    /** Callers always served it (end users' ids as the app passes them). */
    user_ids: z.array(z.string().trim().min(1).max(128)).max(1000).default([]),
  })
  .refine((g) => g.percentage > 0 || g.user_ids.length > 0, 'Give the gray release a share above 0 or some users.');
export type GrayConfig = z.output<typeof GrayConfig>;

export const Resource = z.object({ prompt_id: Id, version: z.string().max(32).default('') });

export const Subtask = z.object({
  subtask_key: z.enum(SUBTASK_KEYS),
  status: z.enum(['pending', 'done', 'cancelled']),
  finished_at: z.number().nullable(),
});

export const TaskView = z.object({
  task_id: z.string(),
  space_id: z.string(),
  env: z.string(),
  env_name: z.string(),
  trigger_operation: z.enum(OPERATIONS),
  release_resources: z.array(z.object({ prompt_id: z.string(), prompt_key: z.string(), version: z.string() })),
  gray_release_config: z.object({ percentage: z.number(), user_ids: z.array(z.string()) }).nullable(),
  comment: z.string(),
  status: z.enum(TASK_STATUSES),
  subtasks: z.array(Subtask),
  approvers: z.array(z.string()),
  decisions: z.array(
    z.object({ user_id: z.string(), approve: z.boolean(), reason: z.string(), decided_at: z.number() }),
  ),
  created_by: z.string(),
  created_at: z.number(),
  finished_at: z.number().nullable(),
  /** What the caller may do with it now. */
  can_approve: z.boolean(),
  can_cancel: z.boolean(),
  can_rollback: z.boolean(),
});
export type TaskView = z.output<typeof TaskView>;

export const EnvState = z.object({
  env: z.string(),
  name: z.string(),
  need_approval: z.boolean(),
  /** The version everyone (outside the gray share) gets; empty when nothing is live. */
  version: z.string(),
  gray_release_config: z
    .object({ version: z.string(), percentage: z.number(), user_ids: z.array(z.string()), task_id: z.string() })
    .nullable(),
  /** The version a roll back would bring back (the one live before this one); empty when there is none. */
  previous_version: z.string(),
  updated_by: z.string(),
  updated_at: z.number().nullable(),
});
export type EnvState = z.output<typeof EnvState>;

export const GetApprovalConfig = defineEndpoint({
  method: 'POST',
  path: `${BASE}/release_approval_config/get`,
  summary: "The space's environments, which need approval, and its approvers",
  body: z.object(inSpace),
  response: z.object({ config: ApprovalConfig, can_edit: z.boolean() }),
});
export const UpdateApprovalConfig = defineEndpoint({
  method: 'POST',
  path: `${BASE}/release_approval_config/update`,
  summary: "Change the space's environments and approvers (space administrators)",
  body: z.object({ ...inSpace, config: ApprovalConfig }),
  response: z.object({ config: ApprovalConfig }),
});
export const ReleaseInfoList = defineEndpoint({
  method: 'POST',
  path: `${BASE}/release/info_list`,
  summary: "What each environment serves of a prompt: its version, a gray release's, the version before",
  body: z.object({ ...inSpace, prompt_id: Id }),
  /** With the prompt's key and its committed versions (newest first), to choose from. */
  response: z.object({ prompt_key: z.string(), versions: z.array(z.string()), envs: z.array(EnvState) }),
});
export const PreviewRelease = defineEndpoint({
  method: 'POST',
  path: `${BASE}/release/preview`,
  summary: 'The version an environment serves one caller (with the gray rule applied)',
  body: z.object({ ...inSpace, prompt_id: Id, env: z.string().max(32), user_id: z.string().max(128).default('') }),
  response: z.object({ version: z.string(), gray: z.boolean() }),
});
export const RollbackRelease = defineEndpoint({
  method: 'POST',
  path: `${BASE}/release/rollback`,
  summary: 'Serve the version live before the current one again, in one environment (a release task, done at once)',
  body: z.object({ ...inSpace, prompt_id: Id, env: z.string().max(32), comment: z.string().max(500).default('') }),
  response: z.object({ task: TaskView }),
});
export const CreateReleaseTask = defineEndpoint({
  method: 'POST',
  path: `${BASE}/release_task/create`,
  summary: 'Release versions of prompts to an environment (to a gray share first), or take them offline',
  body: z.object({
    ...inSpace,
    env: z.string().max(32),
    trigger_operation: z.enum(['release', 'offline']).default('release'),
    release_resources: z.array(Resource).min(1, 'Choose a prompt to release.').max(20),
    gray_release_config: GrayConfig.optional(),
    comment: z.string().max(500).default(''),
  }),
  response: z.object({ task: TaskView }),
});
export const GetReleaseTask = defineEndpoint({
  method: 'POST',
  path: `${BASE}/release_task/get`,
  summary: 'A release task with its subtasks and decisions',
  body: z.object({ ...inSpace, task_id: Id }),
  response: z.object({ task: TaskView }),
});
export const ListReleaseTasks = defineEndpoint({
  method: 'POST',
  path: `${BASE}/release_task/list`,
  summary: "The space's release tasks, newest first (of a prompt, in a status, or waiting for the caller's approval)",
  body: z.object({
    ...inSpace,
    prompt_id: Id.optional(),
    status: z.enum(TASK_STATUSES).optional(),
    to_approve: z.boolean().default(false),
    page: z.number().int().min(1).max(10_000).default(1),
    size: z.number().int().min(1).max(100).default(20),
  }),
  response: z.object({ tasks: z.array(TaskView), total: z.number() }),
});
export const ListApprovers = defineEndpoint({
  method: 'POST',
  path: `${BASE}/release_task/list_approvers`,
  summary: 'Who may approve a release to an environment',
  body: z.object({ ...inSpace, env: z.string().max(32) }),
  response: z.object({
    need_approval: z.boolean(),
    /** The approvers named in the space's configuration; empty: its owner and administrators approve. */
    approvers: z.array(z.string()),
    admins_approve: z.boolean(),
  }),
});
export const DecideReleaseTask = defineEndpoint({
  method: 'POST',
  path: `${BASE}/release_task/approve`,
  summary: 'Approve a release task (it runs at once) or reject it, with a reason',
  body: z.object({ ...inSpace, task_id: Id, approve: z.boolean(), reason: z.string().max(500).default('') }),
  response: z.object({ task: TaskView }),
});
export const TriggerSubtask = defineEndpoint({
  method: 'POST',
  path: `${BASE}/release_task/trigger_subtask`,
  summary: "Change a gray release's share or users (gray), or release it to everyone (full)",
  body: z.object({
    ...inSpace,
    task_id: Id,
    subtask_key: z.enum(['gray', 'full']),
    gray_release_config: GrayConfig.optional(),
  }),
  response: z.object({ task: TaskView }),
});
export const CancelReleaseTask = defineEndpoint({
  method: 'POST',
  path: `${BASE}/release_task/cancel`,
  summary: 'Cancel a release waiting for approval, or a gray release (its callers get the version before again)',
  body: z.object({ ...inSpace, task_id: Id }),
  response: z.object({ task: TaskView }),
});
export const RollbackReleaseTask = defineEndpoint({
  method: 'POST',
  path: `${BASE}/release_task/rollback`,
  summary: 'Undo what a release task set, while it is still what the environment serves',
  body: z.object({ ...inSpace, task_id: Id }),
  response: z.object({ task: TaskView }),
});
