// Prompt releases' rows, typed, with their JSON parsed by schema: the space's configuration, what each environment
// serves of each prompt (state), and the release tasks.
import type { ServerContext } from '@tessera/sdk/server';
import type { Kysely, Transaction } from 'kysely';
import { z } from 'zod';
import { ApprovalConfig, DEFAULT_ENVS, OPERATIONS, Subtask, TASK_STATUSES } from '../shared/api.ts';
import { ServerContextToken } from '@tessera/sdk/server';

export interface StateRow {
  prompt_id: string;
  env: string;
  space_id: string;
  version: string;
  previous_version: string;
  task_id: string;
  gray_version: string;
  gray_percentage: number;
  gray_user_ids: string;
  gray_task_id: string;
  updated_by: string;
  updated_at: number;
}

export interface TaskRow {
  id: string;
  space_id: string;
  env: string;
  operation: (typeof OPERATIONS)[number];
  resources: string;
  gray: string | null;
  comment: string;
  status: (typeof TASK_STATUSES)[number];
  subtasks: string;
  approvers: string;
  decisions: string;
  before: string | null;
  created_by: string;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

interface Tables {
  prompt_release_config: { space_id: string; config: string; updated_by: string; updated_at: number };
  prompt_release_state: StateRow;
  prompt_release_task: TaskRow;
  prompt_release_task_prompt: { task_id: string; prompt_id: string; created_at: number };
}
export type Db = Kysely<Tables> | Transaction<Tables>;

export const ResourceRow = z.object({ prompt_id: z.string(), prompt_key: z.string(), version: z.string() });
export type ResourceRow = z.output<typeof ResourceRow>;
const Resources = z.array(ResourceRow);
const GrayRow = z.object({ percentage: z.number(), user_ids: z.array(z.string()) });
export type GrayRow = z.output<typeof GrayRow>;
const Subtasks = z.array(Subtask);
export type SubtaskRow = z.output<typeof Subtask>;
const Decisions = z.array(
  z.object({ user_id: z.string(), approve: z.boolean(), reason: z.string(), decided_at: z.number() }),
);
export type Decision = z.output<typeof Decisions>[number];
/** What each prompt's environment served before a task changed it (null: nothing had been released there). */
const StateSnapshot = z.object({
  version: z.string(),
  previous_version: z.string(),
  task_id: z.string(),
  gray_version: z.string(),
  gray_percentage: z.number(),
  gray_user_ids: z.string(),
  gray_task_id: z.string(),
});
const Before = z.array(z.object({ prompt_id: z.string(), state: StateSnapshot.nullable() }));
export type Before = z.output<typeof Before>;

/** A task row with its JSON read. */
export interface Task {
  row: TaskRow;
  resources: ResourceRow[];
  gray: GrayRow | null;
  subtasks: SubtaskRow[];
  approvers: string[];
  decisions: Decision[];
  before: Before | null;
}

const json = <T>(schema: z.ZodType<T>, text: string): T => schema.parse(JSON.parse(text));

/** A task row as read: PostgreSQL answers bigint columns as strings, so its times become numbers here. */
export function taskRowOf(row: TaskRow): TaskRow {
  return {
    ...row,
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
    finished_at: row.finished_at === null ? null : Number(row.finished_at),
  };
}

/** A state row as read (bigint and double columns as numbers on every database). */
function stateRowOf(row: StateRow): StateRow {
  return { ...row, gray_percentage: Number(row.gray_percentage), updated_at: Number(row.updated_at) };
}

export function taskOf(raw: TaskRow): Task {
  const row = taskRowOf(raw);
  return {
    row,
    resources: json(Resources, row.resources),
    gray: row.gray ? json(GrayRow, row.gray) : null,
    subtasks: json(Subtasks, row.subtasks),
    approvers: json(z.array(z.string()), row.approvers),
    decisions: json(Decisions, row.decisions),
    before: row.before ? json(Before, row.before) : null,
  };
}

export const grayUsersOf = (row: Pick<StateRow, 'gray_user_ids'>) => json(z.array(z.string()), row.gray_user_ids);

export const DEFAULT_CONFIG: ApprovalConfig = { envs: DEFAULT_ENVS, approvers: [], allow_self_approval: false };

export class ReleaseStore {
  static readonly inject = [ServerContextToken] as const;
  readonly db: Kysely<Tables>;
  constructor(ctx: ServerContext<unknown>) {
    this.db = ctx.db;
  }

  async config(spaceId: string): Promise<ApprovalConfig> {
    const row = await this.db
      .selectFrom('prompt_release_config')
      .select('config')
      .where('space_id', '=', spaceId)
      .executeTakeFirst();
    return row ? ApprovalConfig.parse(JSON.parse(row.config)) : DEFAULT_CONFIG;
  }

  async saveConfig(spaceId: string, config: ApprovalConfig, userId: string): Promise<void> {
    const values = { space_id: spaceId, config: JSON.stringify(config), updated_by: userId, updated_at: Date.now() };
    await this.db
      .insertInto('prompt_release_config')
      .values(values)
      .onConflict((oc) =>
        oc.column('space_id').doUpdateSet({ config: values.config, updated_by: userId, updated_at: values.updated_at }),
      )
      .execute();
  }

  async states(promptId: string, db: Db = this.db): Promise<StateRow[]> {
    return (await db.selectFrom('prompt_release_state').selectAll().where('prompt_id', '=', promptId).execute()).map(
      stateRowOf,
    );
  }

  async state(promptId: string, env: string, db: Db = this.db): Promise<StateRow | undefined> {
    const row = await db
      .selectFrom('prompt_release_state')
      .selectAll()
      .where('prompt_id', '=', promptId)
      .where('env', '=', env)
      .executeTakeFirst();
    return row && stateRowOf(row);
  }

  async putState(row: StateRow, db: Db = this.db): Promise<void> {
    const { prompt_id: _p, env: _e, ...rest } = row;
    await db
      .insertInto('prompt_release_state')
      .values(row)
      .onConflict((oc) => oc.columns(['prompt_id', 'env']).doUpdateSet(rest))
      .execute();
  }

  async task(spaceId: string, id: string, db: Db = this.db): Promise<Task | undefined> {
    const row = await db
      .selectFrom('prompt_release_task')
      .selectAll()
      .where('id', '=', id)
      .where('space_id', '=', spaceId)
      .executeTakeFirst();
    return row && taskOf(row);
  }

  async insertTask(row: TaskRow, db: Db = this.db): Promise<void> {
    await db.insertInto('prompt_release_task').values(row).execute();
    await db
      .insertInto('prompt_release_task_prompt')
      .values(
        taskOf(row).resources.map((r) => ({ task_id: row.id, prompt_id: r.prompt_id, created_at: row.created_at })),
      )
      .execute();
  }

  async updateTask(row: TaskRow, db: Db = this.db): Promise<void> {
    const { id, ...rest } = row;
    await db.updateTable('prompt_release_task').set(rest).where('id', '=', id).execute();
  }

  /** Tasks of a space, newest first: of one prompt, in a status, or among those given. */
  async list(
    spaceId: string,
    q: { promptId?: string; status?: TaskRow['status']; page: number; size: number },
  ): Promise<{ rows: TaskRow[]; total: number }> {
    let base = this.db.selectFrom('prompt_release_task as t').where('t.space_id', '=', spaceId);
    if (q.promptId)
      base = base.where('t.id', 'in', (eb) =>
        eb.selectFrom('prompt_release_task_prompt').select('task_id').where('prompt_id', '=', q.promptId!),
      );
    if (q.status) base = base.where('t.status', '=', q.status);
    const [rows, total] = await Promise.all([
      base
        .selectAll('t')
        .orderBy('t.created_at', 'desc')
        .orderBy('t.id', 'desc')
        .limit(q.size)
        .offset((q.page - 1) * q.size)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows: rows.map(taskRowOf), total: Number(total.n) };
  }

  /** The space's tasks waiting for approval (few: the inbox reads them all and keeps the caller's). */
  async waiting(spaceId: string): Promise<TaskRow[]> {
    return this.db
      .selectFrom('prompt_release_task')
      .selectAll()
      .where('space_id', '=', spaceId)
      .where('status', '=', 'waiting_approval')
      .orderBy('created_at', 'desc')
      .limit(500)
      .execute()
      .then((rows) => rows.map(taskRowOf));
  }

  /** Other tasks holding a gray release of these prompts in this environment (a new release ends them). */
  async grayTasks(spaceId: string, env: string, promptIds: string[], except: string, db: Db = this.db) {
    if (!promptIds.length) return [];
    const rows = await db
      .selectFrom('prompt_release_task')
      .selectAll()
      .where('space_id', '=', spaceId)
      .where('env', '=', env)
      .where('status', '=', 'in_gray')
      .where('id', '!=', except)
      .where('id', 'in', (eb) =>
        eb.selectFrom('prompt_release_task_prompt').select('task_id').where('prompt_id', 'in', promptIds),
      )
      .execute();
    return rows.map(taskOf);
  }
}
