// The agent workspace (spec 002 §3 "Agent workspace", §7.9 /api/{product}_space, here /api/agent_space/...): a person
// gives a goal, files and tools; an agent plans steps, carries them out with the tools, the code sandbox and files of
// the task's own, and leaves results and a replay others can watch. One contract for the server and the page.
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';

const Id = z.string().min(1).max(32);
const Task = { task_id: Id };
const ok = z.object({});

/** What a task may spend; the page shows each beside what was spent. */
export const TaskLimits = z.object({
  /** Agent steps: each call of the model while carrying out the plan (a call may use tools). */
  max_steps: z.number().int().min(1).max(200).default(30),
  max_tokens: z.number().int().min(1000).max(2_000_000).default(200_000),
  /** Minutes of work (time spent paused or waiting for an answer is not counted). */
  max_minutes: z.number().int().min(1).max(240).default(30),
});
export type TaskLimits = z.infer<typeof TaskLimits>;

/** A specialised agent the planner can hand a step to (Coze's expert_agent_config). */
export const Expert = z.object({
  expert_id: z.string().trim().min(1).max(32),
  name: z.string().trim().min(1, 'Name the expert.').max(50),
  /** What the expert is good at (the planner reads it). */
  description: z.string().max(1000).default(''),
  /** How the expert works (its system prompt). */
  persona: z.string().max(20_000).default(''),
  /** Its model ('' = the task's). */
  model_id: z.string().max(32).default(''),
});
export type Expert = z.infer<typeof Expert>;

/**
 * The tools a task may use, by the bots' skill keys with the skills' own settings: `mcp` { tools: [{ server_id,
 * tool }] }, `plugins` { apis: [{ plugin_id, api_id }] }, `workflows` { workflows: [{ workflow_id }] }, `knowledge`
 * { datasets: [{ dataset_id }] }. Checked with each skill's schema when the task is made.
 */
export const TaskTools = z.record(z.string().max(64), z.unknown()).default({});

export const StepStatus = z.enum(['pending', 'running', 'done', 'skipped']);
export const PlanStep = z.object({
  step_id: z.string(),
  title: z.string(),
  detail: z.string(),
  /** The expert it is handed to ('' = the task's agent). */
  expert_id: z.string(),
  status: StepStatus,
  /** What the step came to (its last answer). */
  result: z.string(),
});
export type PlanStep = z.infer<typeof PlanStep>;

/**
 * planning (the model writes the plan), waiting_plan (the plan waits for the person: task_run_mode confirm_plan),
 * running, paused, waiting_user (the agent asked a question), finished, failed, stopped.
 */
export const TASK_STATUSES = [
  'planning',
  'waiting_plan',
  'running',
  'paused',
  'waiting_user',
  'finished',
  'failed',
  'stopped',
] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const ENDED: readonly string[] = ['finished', 'failed', 'stopped'];

const Usage = z.object({ steps: z.number(), input_tokens: z.number(), output_tokens: z.number(), run_ms: z.number() });

export const TaskView = z.object({
  task_id: z.string(),
  space_id: z.string(),
  task_name: z.string(),
  query: z.string(),
  /** chat (a person's), scheduled (a scheduled task's run). */
  task_type: z.string(),
  status: z.enum(TASK_STATUSES),
  pause_reason: z.string(),
  /** Why it ended, in the reader's language; end_code: finished, failed, stopped, step_limit, token_limit, time_limit. */
  end_reason: z.string(),
  end_code: z.string(),
  /** The question the agent waits on (waiting_user). */
  question: z.string(),
  plan: z.array(PlanStep),
  model_id: z.string(),
  file_uri_list: z.array(z.string()),
  tools: z.record(z.string(), z.unknown()),
  code: z.boolean(),
  expert_agent_config: z.array(Expert),
  task_run_mode: z.enum(['auto', 'confirm_plan']),
  limits: TaskLimits,
  usage: Usage,
  source_from: z.string(),
  scheduled_task_id: z.string(),
  digg: z.boolean(),
  feel: z.string(),
  created_at: z.number(),
  updated_at: z.number(),
  finished_at: z.number(),
});
export type TaskView = z.output<typeof TaskView>;

/** A line of a task's log: what was asked, planned, thought, called, answered, written. */
export const MessageView = z.object({
  message_id: z.string(),
  /** Its place in the task's log (poll with after_seq). */
  seq: z.number(),
  /** The plan step it belongs to (-1: the task's own: the goal, the plan, the summary). */
  step_index: z.number(),
  /** user, plan, answer, tool_call, tool_result, question, file, summary, notice */
  kind: z.string(),
  content: z.string(),
  tool_name: z.string(),
  call_id: z.string(),
  /** The tool's arguments (tool_call) or output (tool_result), as JSON text. */
  data: z.string(),
  is_error: z.boolean(),
  file_id: z.string(),
  /** The expert who spoke ('' = the agent). */
  expert: z.string(),
  created_at: z.number(),
});
export type MessageView = z.output<typeof MessageView>;

export const FileView = z.object({
  file_id: z.string(),
  name: z.string(),
  mime: z.string(),
  bytes: z.number(),
  /** input (given with the task), output (written by the agent or its code). */
  origin: z.string(),
  created_at: z.number(),
});
export type FileView = z.output<typeof FileView>;

const NewTask = {
  query: z.string().trim().min(1, 'Say what the agent should do.').max(20_000),
  task_name: z.string().trim().max(100).default(''),
  model_id: z.string().min(1, 'Choose a model for the agent.').max(32),
  /** Files of the space (file ids from /v1/files/upload) the agent may read. */
  file_uri_list: z.array(Id).max(20).default([]),
  tools: TaskTools,
  /** Whether the agent may run code in the sandbox. */
  code: z.boolean().default(true),
  expert_agent_config: z.array(Expert).max(10).default([]),
  /** auto: the plan runs as soon as it is written; confirm_plan: it waits for the person (who may edit it). */
  task_run_mode: z.enum(['auto', 'confirm_plan']).default('auto'),
  limits: TaskLimits.prefault({}),
  source_from: z.string().max(32).default('workspace'),
};
export const TaskInput = z.object(NewTask);
export type TaskInput = z.input<typeof TaskInput>;

export const CreateTask = defineEndpoint({
  method: 'POST',
  path: '/api/agent_space/task/create',
  summary: 'Give the agent a task: it plans, then carries the plan out (or waits for the plan to be confirmed)',
  body: z
    .object({
      space_id: Id,
      ...NewTask,
      /** Coze's name for MCP tools: the same as tools.mcp.tools (added to them). */
      mcp_tool_list: z
        .array(z.object({ server_id: z.string().min(1).max(32), tool: z.string().min(1).max(200) }))
        .max(30)
        .default([]),
    })
    .transform(({ mcp_tool_list, ...b }) => {
      if (!mcp_tool_list.length) return b;
      const mcp = (b.tools.mcp ?? {}) as { tools?: unknown[] };
      return { ...b, tools: { ...b.tools, mcp: { ...mcp, tools: [...(mcp.tools ?? []), ...mcp_tool_list] } } };
    }),
  response: z.object({ task: TaskView }),
});
export const UpdateTask = defineEndpoint({
  method: 'POST',
  path: '/api/agent_space/task/update',
  summary: 'Rename a task, or change its limits (they apply from the next step)',
  body: z.object({ ...Task, task_name: z.string().trim().min(1).max(100).optional(), limits: TaskLimits.optional() }),
  response: z.object({ task: TaskView }),
});
export const DeleteTask = defineEndpoint({
  method: 'POST',
  path: '/api/agent_space/task/delete',
  summary: 'Delete a task with its log, files and replays (a running one is stopped first)',
  body: z.object(Task),
  response: ok,
});
export const TaskInfo = defineEndpoint({
  method: 'POST',
  path: '/api/agent_space/task/info',
  summary: 'A task',
  body: z.object(Task),
  response: z.object({ task: TaskView }),
});
export const ListTasks = defineEndpoint({
  method: 'POST',
  path: '/api/agent_space/task/list',
  summary: "The caller's tasks in a space, newest first",
  body: z.object({
    space_id: Id,
    status: z.enum(TASK_STATUSES).optional(),
    scheduled_task_id: z.string().max(32).optional(),
    page: z.number().int().min(1).default(1),
    size: z.number().int().min(1).max(100).default(20),
  }),
  response: z.object({ tasks: z.array(TaskView), total: z.number() }),
});
export const TaskChat = defineEndpoint({
  method: 'POST',
  path: '/api/agent_space/task/chat',
  summary:
    'Tell a task something: the answer to its question (it goes on), a note for its next step, or a follow-up for an ended task (planned and carried out)',
  body: z.object({ ...Task, query: z.string().trim().min(1, 'Write the message.').max(20_000) }),
  response: z.object({ task: TaskView }),
});
export const PollTask = defineEndpoint({
  method: 'POST',
  path: '/api/agent_space/task/poll',
  summary: "A task and its log's lines after after_seq (polling instead of the stream)",
  body: z.object({ ...Task, after_seq: z.number().int().min(0).default(0) }),
  response: z.object({ task: TaskView, messages: z.array(MessageView) }),
});
export const TaskMessages = defineEndpoint({
  method: 'POST',
  path: '/api/agent_space/task/messages',
  summary: "A task's whole log, oldest first",
  body: z.object(Task),
  response: z.object({ messages: z.array(MessageView) }),
});
export const OperateTask = defineEndpoint({
  method: 'POST',
  path: '/api/agent_space/task/operate',
  summary:
    'start (a confirmed plan), pause (with pause_reason), resume, or stop a task; a step under way finishes its tool call first',
  body: z.object({
    ...Task,
    operate_type: z.enum(['start', 'pause', 'resume', 'stop']),
    pause_reason: z.string().trim().max(500).default(''),
  }),
  response: z.object({ task: TaskView }),
});
export const UpdatePlan = defineEndpoint({
  method: 'POST',
  path: '/api/agent_space/task/plan/update',
  summary:
    'Change the steps still to come (a waiting, paused or asking task): the done ones stay, these replace the rest',
  body: z.object({
    ...Task,
    steps: z
      .array(
        z.object({
          title: z.string().trim().min(1, 'Give each step a title.').max(200),
          detail: z.string().max(4000).default(''),
          expert_id: z.string().max(32).default(''),
        }),
      )
      .min(1, 'Keep at least one step.')
      .max(30),
  }),
  response: z.object({ task: TaskView }),
});
export const TaskFiles = defineEndpoint({
  method: 'POST',
  path: '/api/agent_space/task/file/list',
  summary: "A task's files: those given with it and those it wrote",
  body: z.object(Task),
  response: z.object({ files: z.array(FileView) }),
});
export const UploadTaskFile = defineEndpoint({
  method: 'POST',
  path: '/api/agent_space/task/file/upload',
  summary: 'Add a text file to a task (the agent reads it from its next step)',
  body: z.object({
    ...Task,
    name: z.string().trim().min(1).max(120),
    content: z.string().max(1_000_000, 'A text file of a task holds at most 1 MB.'),
  }),
  response: z.object({ file: FileView }),
});
export const TaskFeedback = defineEndpoint({
  method: 'POST',
  path: '/api/agent_space/task/feedback',
  summary: 'Say how a task went: digg (a like), feel (good or bad) and words',
  body: z.object({
    ...Task,
    digg: z.boolean().optional(),
    feel: z.enum(['good', 'bad', '']).optional(),
    content: z.string().max(2000).default(''),
  }),
  response: z.object({ task: TaskView }),
});
export const TaskQuota = defineEndpoint({
  method: 'POST',
  path: '/api/agent_space/quota',
  summary: "The caller's task quota: tasks made today, those at work, and the limits",
  body: z.object({ space_id: Id }),
  response: z.object({
    used_today: z.number(),
    daily_limit: z.number(),
    running: z.number(),
    max_running: z.number(),
  }),
});

// ---------------------------------------------------------------- replays

export const ShareView = z.object({
  task_share_id: z.string(),
  status: z.enum(['active', 'revoked']),
  views: z.number(),
  created_at: z.number(),
});
export const CreateReplay = defineEndpoint({
  method: 'POST',
  path: '/api/agent_space/replay/create',
  summary:
    'Share an ended task as a replay: a link with a secret (shown once) that anyone may watch it by, without signing in',
  body: z.object(Task),
  response: z.object({ share: ShareView, secret: z.string(), path: z.string() }),
});
export const ListReplays = defineEndpoint({
  method: 'POST',
  path: '/api/agent_space/replay/list',
  summary: "A task's replay links",
  body: z.object(Task),
  response: z.object({ shares: z.array(ShareView) }),
});
export const OperateReplay = defineEndpoint({
  method: 'POST',
  path: '/api/agent_space/replay/operate',
  summary: 'revoke a replay link (it stops working at once)',
  body: z.object({ task_share_id: Id, operate_type: z.enum(['revoke']) }),
  response: z.object({ share: ShareView }),
});
export const ReplayView = z.object({
  task_name: z.string(),
  query: z.string(),
  status: z.string(),
  end_reason: z.string(),
  plan: z.array(PlanStep.omit({ expert_id: true })),
  messages: z.array(MessageView.omit({ file_id: true }).extend({ file_id: z.string() })),
  files: z.array(FileView),
  created_at: z.number(),
  finished_at: z.number(),
});
export type ReplayView = z.output<typeof ReplayView>;
export const GetReplay = defineEndpoint({
  method: 'POST',
  path: '/api/agent_space/replay/get',
  summary: 'A shared task to watch: its goal, plan, steps and files (no sign-in; the secret of the link is needed)',
  body: z.object({ task_share_id: Id, secret: z.string().min(1).max(100) }),
  response: z.object({ replay: ReplayView }),
});

// ---------------------------------------------------------------- experts, examples

export const ExpertView = Expert.extend({ space_id: z.string(), created_at: z.number() });
export const ListExperts = defineEndpoint({
  method: 'POST',
  path: '/api/agent_space/expert/list',
  summary: "A space's experts (specialised agents tasks can hand steps to)",
  body: z.object({ space_id: Id }),
  response: z.object({ experts: z.array(ExpertView) }),
});
export const SaveExpert = defineEndpoint({
  method: 'POST',
  path: '/api/agent_space/expert/save',
  summary: 'Make or change an expert of a space (without expert_id: a new one)',
  body: z.object({ space_id: Id, ...Expert.partial({ expert_id: true }).shape }),
  response: z.object({ expert: ExpertView }),
});
export const DeleteExpert = defineEndpoint({
  method: 'POST',
  path: '/api/agent_space/expert/delete',
  summary: 'Delete an expert (tasks made with it keep their copy)',
  body: z.object({ space_id: Id, expert_id: Id }),
  response: ok,
});

export const CategoryView = z.object({ category_id: z.string(), name: z.string(), index: z.number() });
export const ExampleView = z.object({
  example_id: z.string(),
  example_name: z.string(),
  example_description: z.string(),
  category_id: z.string(),
  user_query: z.string(),
  /** A replay that shows the example done: its link's path after /replay/ (id#secret; '' = none). */
  share_id: z.string(),
  index: z.number(),
  /** online (shown to everyone), offline (administrators only). */
  status: z.enum(['online', 'offline']),
  official_recommend: z.boolean(),
});
export type ExampleView = z.output<typeof ExampleView>;
export const ListExamples = defineEndpoint({
  method: 'POST',
  path: '/api/agent_space/example/list',
  summary: 'The examples to start a task from, with their categories (administrators also see those offline)',
  body: z.object({ category_id: z.string().max(32).optional(), all: z.boolean().default(false) }),
  response: z.object({ examples: z.array(ExampleView), categories: z.array(CategoryView) }),
});
export const SaveExample = defineEndpoint({
  method: 'POST',
  path: '/api/agent_space/admin/example/save',
  summary: 'Make or change an example (platform administrators)',
  body: z.object({
    example_id: z.string().max(32).optional(),
    example_name: z.string().trim().min(1, 'Name the example.').max(100),
    example_description: z.string().max(1000).default(''),
    category_id: z.string().max(32).default(''),
    user_query: z.string().trim().min(1, 'Write the query the example starts with.').max(20_000),
    /** A replay link (or its path after /replay/) showing the example done. */
    share_id: z
      .string()
      .trim()
      .max(200)
      .default('')
      .transform((v) => v.replace(/^.*\/replay\//, '')),
    index: z.number().int().min(0).max(10_000).default(0),
    status: z.enum(['online', 'offline']).default('online'),
    official_recommend: z.boolean().default(false),
  }),
  response: z.object({ example: ExampleView }),
});
export const DeleteExample = defineEndpoint({
  method: 'POST',
  path: '/api/agent_space/admin/example/delete',
  summary: 'Delete an example (platform administrators)',
  body: z.object({ example_id: Id }),
  response: ok,
});
export const SaveCategory = defineEndpoint({
  method: 'POST',
  path: '/api/agent_space/admin/category/save',
  summary: 'Make or change an example category (platform administrators)',
  body: z.object({
    category_id: z.string().max(32).optional(),
    name: z.string().trim().min(1, 'Name the category.').max(50),
    index: z.number().int().min(0).max(10_000).default(0),
  }),
  response: z.object({ category: CategoryView }),
});
export const DeleteCategory = defineEndpoint({
  method: 'POST',
  path: '/api/agent_space/admin/category/delete',
  summary: 'Delete an example category (its examples keep no category)',
  body: z.object({ category_id: Id }),
  response: ok,
});

// ---------------------------------------------------------------- scheduled tasks

export const Trigger = z.object({
  /** Five fields, six with seconds, or a preset (@daily, @hourly, @weekly, @weekdays ...). */
  cron: z.string().trim().min(1, 'Say when it runs (a cron expression).').max(100),
  time_zone: z.string().max(64).default('UTC'),
});
export const ScheduledView = z.object({
  scheduled_task_id: z.string(),
  space_id: z.string(),
  scheduled_task_name: z.string(),
  /** enabled, disabled */
  status: z.enum(['enabled', 'disabled']),
  trigger: Trigger,
  /** The task each run starts with (its query, model, tools, experts, limits). */
  task: TaskInput,
  /** The plan every run follows ([] = each run plans for itself). */
  task_plan: z.array(z.object({ title: z.string(), detail: z.string(), expert_id: z.string() })),
  next_run_at: z.string().nullable(),
  last_run_at: z.string().nullable(),
  runs: z.number(),
  created_at: z.number(),
});
export type ScheduledView = z.output<typeof ScheduledView>;
const ScheduledBody = {
  scheduled_task_name: z.string().trim().min(1, 'Name the scheduled task.').max(100),
  trigger: Trigger,
  task: TaskInput,
  task_plan: z
    .array(
      z.object({
        title: z.string().trim().min(1).max(200),
        detail: z.string().max(4000).default(''),
        expert_id: z.string().max(32).default(''),
      }),
    )
    .max(30)
    .default([]),
};
export const CreateScheduled = defineEndpoint({
  method: 'POST',
  path: '/api/agent_space/scheduled_task/create',
  summary: 'A task run on a cron (enabled at once)',
  body: z.object({ space_id: Id, ...ScheduledBody }),
  response: z.object({ scheduled: ScheduledView }),
});
export const UpdateScheduled = defineEndpoint({
  method: 'POST',
  path: '/api/agent_space/scheduled_task/update',
  summary: 'Change a scheduled task',
  body: z.object({ scheduled_task_id: Id, ...ScheduledBody }),
  response: z.object({ scheduled: ScheduledView }),
});
export const DeleteScheduled = defineEndpoint({
  method: 'POST',
  path: '/api/agent_space/scheduled_task/delete',
  summary: 'Delete a scheduled task (its runs stay as tasks)',
  body: z.object({ scheduled_task_id: Id }),
  response: ok,
});
export const ListScheduled = defineEndpoint({
  method: 'POST',
  path: '/api/task_api/get_agent_task_list',
  summary: "A space's scheduled tasks",
  body: z.object({ space_id: Id }),
  response: z.object({ scheduled: z.array(ScheduledView) }),
});
export const SetScheduledStatus = defineEndpoint({
  method: 'POST',
  path: '/api/task_api/set_agent_task_status',
  summary: 'Enable or disable a scheduled task',
  body: z.object({ scheduled_task_id: Id, status: z.enum(['enabled', 'disabled']) }),
  response: z.object({ scheduled: ScheduledView }),
});
export const ScheduledRuns = defineEndpoint({
  method: 'POST',
  path: '/api/task_api/get_agent_task_exec_list',
  summary: "A scheduled task's runs (tasks), newest first",
  body: z.object({ scheduled_task_id: Id, size: z.number().int().min(1).max(100).default(20) }),
  response: z.object({ tasks: z.array(TaskView) }),
});
export const TryRunScheduled = defineEndpoint({
  method: 'POST',
  path: '/api/agent_space/scheduled_task/try_run',
  summary: 'Run a scheduled task now, once (a try run), whatever its status',
  body: z.object({ scheduled_task_id: Id }),
  response: z.object({ task: TaskView }),
});
