// Tasks, their log, files and replay links, experts, examples and scheduled tasks as the routes and the engine ask
// for them.
import type { ServerContext } from '@tessera/sdk/server';
import { BotSkills } from '@tessera/ext-bots/shared';
import type { Kysely } from 'kysely';
import {
  TaskLimits,
  type Expert,
  type FileView,
  type MessageView,
  type PlanStep,
  type TaskInput,
  type TaskStatus,
  type TaskView,
} from '../shared/api.ts';
import { texts, type EndText } from './texts.ts';
import { ServerContextToken } from '@tessera/sdk/server';
import { isRecord } from '@tessera/sdk';

export interface TaskRow {
  id: string;
  space_id: string;
  creator_id: string;
  task_name: string;
  query: string;
  task_type: string;
  /** What the task was given (TaskConfig). */
  config: string;
  /** Its steps (PlanStep[]). */
  plan: string;
  status: TaskStatus;
  pause_reason: string;
  end_code: string;
  end_text: string;
  question: string;
  steps: number;
  input_tokens: number;
  output_tokens: number;
  run_ms: number;
  lease_until: number;
  seq: number;
  scheduled_task_id: string;
  digg: number;
  feel: string;
  feedback: string;
  created_at: string;
  updated_at: string;
  finished_at: string;
}
export interface MessageRow {
  id: string;
  task_id: string;
  seq: number;
  step_index: number;
  kind: string;
  content: string;
  tool_name: string;
  call_id: string;
  data: string;
  is_error: number;
  file_id: string;
  expert: string;
  created_at: string;
}
export interface FileRow {
  id: string;
  task_id: string;
  name: string;
  mime: string;
  origin: 'input' | 'output';
  content: string;
  bytes: number;
  source_file_id: string;
  created_at: string;
}
export interface ShareRow {
  id: string;
  task_id: string;
  secret_hash: string;
  status: 'active' | 'revoked';
  views: number;
  created_by: string;
  created_at: string;
}
export interface ExpertRow {
  id: string;
  space_id: string;
  name: string;
  description: string;
  persona: string;
  model_id: string;
  created_at: string;
}
export interface CategoryRow {
  id: string;
  name: string;
  idx: number;
}
export interface ExampleRow {
  id: string;
  name: string;
  description: string;
  category_id: string;
  user_query: string;
  share_id: string;
  idx: number;
  status: 'online' | 'offline';
  official_recommend: number;
}
export interface ScheduledRow {
  id: string;
  space_id: string;
  creator_id: string;
  name: string;
  status: 'enabled' | 'disabled';
  cron: string;
  time_zone: string;
  task: string;
  task_plan: string;
  runs: number;
  last_run_at: string;
  created_at: string;
}
interface WorkspaceDb {
  agent_task: TaskRow;
  agent_task_message: MessageRow;
  agent_task_file: FileRow;
  agent_task_share: ShareRow;
  agent_expert: ExpertRow;
  agent_example_category: CategoryRow;
  agent_example: ExampleRow;
  agent_scheduled_task: ScheduledRow;
}

/** What a task was given, kept with it. */
export interface TaskConfig {
  model_id: string;
  file_uri_list: string[];
  tools: Record<string, unknown>;
  code: boolean;
  experts: Expert[];
  task_run_mode: 'auto' | 'confirm_plan';
  limits: TaskLimits;
  source_from: string;
  /** Notes the person sent while it worked, read by the next step. */
  notes?: string[];
}

/** What the agent may name a file: no folders, a known kind. */
export const FILE_NAME = /^[\p{L}\p{N}_][\p{L}\p{N} _.()-]{0,110}\.(md|txt|csv|json|svg|html|js|py|tsv|xml|yaml)$/u;
const MIME: Record<string, string> = {
  md: 'text/markdown',
  txt: 'text/plain',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  json: 'application/json',
  svg: 'image/svg+xml',
  html: 'text/html',
  js: 'text/javascript',
  py: 'text/x-python',
  xml: 'application/xml',
  yaml: 'application/yaml',
};
export const mimeOf = (name: string) => MIME[name.split('.').pop()?.toLowerCase() ?? ''] ?? 'text/plain';
export const MAX_FILES = 50;

/** The bots' skills, or nothing when the bots extension is off. */
export function skillRegistry(ctx: ServerContext) {
  try {
    return ctx.registry(BotSkills);
  } catch {
    return undefined;
  }
}

export const iso = () => new Date().toISOString();
const secs = (v: string) => (v ? Math.floor(Date.parse(v) / 1000) : 0);
export const json = <T>(text: string, fallback: T): T => {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};
export const configOf = (t: Pick<TaskRow, 'config'>) => json<TaskConfig>(t.config, {} as TaskConfig);
export const planOf = (t: Pick<TaskRow, 'plan'>) => json<PlanStep[]>(t.plan, []);

/** A line of the log before it is saved (the store gives it its id, place and time). */
export type NewMessage = Partial<Omit<MessageRow, 'id' | 'task_id' | 'seq' | 'created_at' | 'is_error'>> & {
  kind: string;
  is_error?: boolean;
};

export class WorkspaceStore {
  static readonly inject = [ServerContextToken] as const;
  readonly #ctx: ServerContext;
  constructor(ctx: ServerContext) {
    this.#ctx = ctx;
  }
  get db(): Kysely<WorkspaceDb> {
    return this.#ctx.db;
  }
  newId() {
    return this.#ctx.host.newId();
  }

  async find(id: string): Promise<TaskRow | undefined> {
    return this.db.selectFrom('agent_task').selectAll().where('id', '=', id).executeTakeFirst();
  }
  async task(id: string): Promise<TaskRow> {
    const t = await this.find(id);
    if (!t) throw texts.error(404, 'noTask', { id });
    return t;
  }
  /** A task of the caller's: others' tasks are not there for them (a 404, as for a task that does not exist). */
  async own(id: string, userId: string): Promise<TaskRow> {
    const t = await this.find(id);
    if (!t || t.creator_id !== userId) throw texts.error(404, 'noTask', { id });
    return t;
  }
  /**
   * Writes a task's fields; with `from`, only while its status is still that one (a stop or a pause that came
   * meanwhile wins over what a step read before it). False when the status had changed.
   */
  async set(id: string, set: Partial<TaskRow>, from?: TaskStatus, db: Kysely<WorkspaceDb> = this.db): Promise<boolean> {
    let q = db
      .updateTable('agent_task')
      .set({ ...set, updated_at: iso() })
      .where('id', '=', id);
    if (from) q = q.where('status', '=', from);
    return Number((await q.executeTakeFirst()).numUpdatedRows) > 0;
  }
  /** Ends a task still in the status `from`, with the line that says why, together; false when its status had changed. */
  async end(id: string, from: TaskStatus, set: Partial<TaskRow>, notice: NewMessage): Promise<MessageRow | undefined> {
    return this.db.transaction().execute(async (tx) => {
      if (!(await this.set(id, set, from, tx))) return undefined;
      return this.add(id, notice, tx);
    });
  }

  /** Takes the task's next step for this job unless another holds it; false when it is held. */
  async lease(id: string, ms: number): Promise<boolean> {
    const now = Date.now();
    const r = await this.db
      .updateTable('agent_task')
      .set({ lease_until: now + ms })
      .where('id', '=', id)
      .where('lease_until', '<', now)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }
  async release(id: string): Promise<void> {
    await this.db.updateTable('agent_task').set({ lease_until: 0 }).where('id', '=', id).execute();
  }

  /** Adds a line to the task's log in its place (one statement takes the place, one saves the line). */
  async add(taskId: string, m: NewMessage, db: Kysely<WorkspaceDb> = this.db): Promise<MessageRow> {
    const { seq } = await db
      .updateTable('agent_task')
      .set((eb) => ({ seq: eb('seq', '+', 1) }))
      .where('id', '=', taskId)
      .returning('seq')
      .executeTakeFirstOrThrow();
    const row: MessageRow = {
      id: this.newId(),
      task_id: taskId,
      seq: Number(seq),
      step_index: m.step_index ?? -1,
      kind: m.kind,
      content: m.content ?? '',
      tool_name: (m.tool_name ?? '').slice(0, 100),
      call_id: (m.call_id ?? '').slice(0, 100),
      data: m.data ?? '',
      is_error: m.is_error ? 1 : 0,
      file_id: m.file_id ?? '',
      expert: (m.expert ?? '').slice(0, 50),
      created_at: iso(),
    };
    await db.insertInto('agent_task_message').values(row).execute();
    return row;
  }
  async messages(taskId: string, afterSeq = 0): Promise<MessageRow[]> {
    return this.db
      .selectFrom('agent_task_message')
      .selectAll()
      .where('task_id', '=', taskId)
      .where('seq', '>', afterSeq)
      .orderBy('seq')
      .execute();
  }

  async files(taskId: string): Promise<FileRow[]> {
    return this.db
      .selectFrom('agent_task_file')
      .selectAll()
      .where('task_id', '=', taskId)
      .orderBy('created_at')
      .orderBy('name')
      .execute();
  }
  async file(taskId: string, idOrName: string): Promise<FileRow | undefined> {
    return this.db
      .selectFrom('agent_task_file')
      .selectAll()
      .where('task_id', '=', taskId)
      .where((eb) => eb.or([eb('id', '=', idOrName), eb('name', '=', idOrName)]))
      .executeTakeFirst();
  }
  /** Writes a file of the task (a file of that name is replaced). */
  async putFile(
    taskId: string,
    f: { name: string; content: string; mime: string; origin: FileRow['origin']; source_file_id?: string },
  ): Promise<FileRow> {
    const was = await this.file(taskId, f.name);
    const row: FileRow = {
      id: was?.id ?? this.newId(),
      task_id: taskId,
      name: f.name,
      mime: f.mime,
      origin: f.origin,
      content: f.content,
      bytes: Buffer.byteLength(f.content),
      source_file_id: f.source_file_id ?? '',
      created_at: iso(),
    };
    if (was) await this.db.updateTable('agent_task_file').set(row).where('id', '=', was.id).execute();
    else await this.db.insertInto('agent_task_file').values(row).execute();
    return row;
  }

  view(t: TaskRow, language?: unknown): TaskView {
    const c = configOf(t);
    const end = json<EndText | null>(t.end_text, null);
    return {
      task_id: t.id,
      space_id: t.space_id,
      task_name: t.task_name,
      query: t.query,
      task_type: t.task_type,
      status: t.status,
      pause_reason: t.pause_reason,
      end_reason: end ? texts.text(end.key, end.params, language) : '',
      end_code: t.end_code,
      question: t.question,
      plan: planOf(t),
      model_id: c.model_id ?? '',
      file_uri_list: c.file_uri_list ?? [],
      tools: c.tools ?? {},
      code: c.code ?? false,
      expert_agent_config: c.experts ?? [],
      task_run_mode: c.task_run_mode ?? 'auto',
      limits: TaskLimits.parse(c.limits ?? {}),
      usage: {
        steps: Number(t.steps),
        input_tokens: Number(t.input_tokens),
        output_tokens: Number(t.output_tokens),
        run_ms: Number(t.run_ms),
      },
      source_from: c.source_from ?? '',
      scheduled_task_id: t.scheduled_task_id,
      digg: !!Number(t.digg),
      feel: t.feel,
      created_at: secs(t.created_at),
      updated_at: secs(t.updated_at),
      finished_at: secs(t.finished_at),
    };
  }
  /** A line as a reader sees it: the studio's own words (why it ended) in their language. */
  messageView(m: MessageRow, language?: unknown): MessageView {
    const said = m.kind === 'notice' ? json<EndText | null>(m.data, null) : null;
    return {
      message_id: m.id,
      seq: Number(m.seq),
      step_index: Number(m.step_index),
      kind: m.kind,
      content: said?.key ? texts.text(said.key, said.params ?? {}, language) : m.content,
      tool_name: m.tool_name,
      call_id: m.call_id,
      data: m.data,
      is_error: !!Number(m.is_error),
      file_id: m.file_id,
      expert: m.expert,
      created_at: secs(m.created_at),
    };
  }
  fileView(f: FileRow): FileView {
    return {
      file_id: f.id,
      name: f.name,
      mime: f.mime,
      bytes: Number(f.bytes),
      origin: f.origin,
      created_at: secs(f.created_at),
    };
  }

  /** A new task's row from what it was given. */
  newTask(
    spaceId: string,
    userId: string,
    input: Omit<TaskInput, 'limits'> & { limits: TaskLimits; model_id: string },
    extra: { task_type?: string; scheduled_task_id?: string; plan?: PlanStep[] } = {},
  ): TaskRow {
    const now = iso();
    const config: TaskConfig = {
      model_id: input.model_id,
      file_uri_list: input.file_uri_list ?? [],
      tools: isRecord(input.tools) ? input.tools : {},
      code: input.code ?? true,
      experts: (input.expert_agent_config ?? []) as Expert[],
      task_run_mode: input.task_run_mode ?? 'auto',
      limits: input.limits,
      source_from: input.source_from ?? 'workspace',
    };
    const name = input.task_name?.trim() || input.query.trim().split('\n')[0].slice(0, 60);
    return {
      id: this.newId(),
      space_id: spaceId,
      creator_id: userId,
      task_name: name,
      query: input.query,
      task_type: extra.task_type ?? 'chat',
      config: JSON.stringify(config),
      plan: JSON.stringify(extra.plan ?? []),
      status: extra.plan?.length ? 'running' : 'planning',
      pause_reason: '',
      end_code: '',
      end_text: '',
      question: '',
      steps: 0,
      input_tokens: 0,
      output_tokens: 0,
      run_ms: 0,
      lease_until: 0,
      seq: 0,
      scheduled_task_id: extra.scheduled_task_id ?? '',
      digg: 0,
      feel: '',
      feedback: '',
      created_at: now,
      updated_at: now,
      finished_at: '',
    };
  }
}
