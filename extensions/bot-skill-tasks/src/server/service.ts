// Bot tasks: a question the bot is asked at a time (a schedule with the host, key `bot-tasks:<id>`) or when a webhook
// is called, answered in a conversation (the user's, for a task made in the chat) through BotChatsService. A task
// keeps its last firing: when, the chat it started, or why it could not (the bot not published to the channel ...).
import { randomBytes } from 'node:crypto';
import { ApiError, ErrorCode, notFound, messageOf } from '@tessera/sdk';
import {
  SchedulesService,
  SecretsService,
  type ScheduledFiring,
  type ServerContext,
  ServerContextToken,
} from '@tessera/sdk/server';
import { BotChatsService, Connectors } from '@tessera/ext-bots/shared';
import type { Kysely } from 'kysely';
import type { BotTaskView } from '../shared.ts';

export const FIRE_JOB = 'bot_tasks.fire';
const key = (id: string) => `bot-tasks:${id}`;
/** Tasks one user may keep with one bot (made in the chat). */
export const MAX_USER_TASKS = 20;

export interface TaskRow {
  id: string;
  bot_id: string;
  space_id: string;
  /** The studio user the task runs as (usage and permissions). */
  user_id: string;
  end_user_id: string;
  connector_id: string;
  conversation_id: string;
  name: string;
  trigger_type: 'time' | 'webhook';
  mode: 'user' | 'author' | 'preset';
  cron_expr: string;
  time_zone: string;
  run_at: string | null;
  user_question: string;
  secret: string | null;
  last_fired_at: string | null;
  last_chat_id: string;
  last_error: string;
  created_at: string;
  deleted_at: string | null;
}

interface TasksDb {
  bot_task: TaskRow;
}

const iso = () => new Date().toISOString();
const secs = (v: string | null | undefined) => (v ? Math.floor(Date.parse(v) / 1000) : 0);

export interface NewTask {
  botId: string;
  spaceId: string;
  userId: string;
  endUserId: string;
  connectorId: string;
  conversationId: string;
  name: string;
  mode: 'user' | 'author' | 'preset';
  cron?: string;
  at?: string;
  timeZone: string;
  question: string;
}

export class TaskService {
  static readonly inject = [ServerContextToken] as const;
  #ctx: ServerContext;

  constructor(ctx: ServerContext) {
    this.#ctx = ctx;
  }

  get #db(): Kysely<TasksDb> {
    return this.#ctx.db;
  }

  webhookUrl(id: string): string {
    return `${this.#ctx.host.publicUrl.replace(/\/$/, '')}/api/task/webhook/${id}`;
  }

  async view(t: TaskRow): Promise<BotTaskView> {
    const state = t.trigger_type === 'time' ? await this.#ctx.service(SchedulesService).get(key(t.id)) : undefined;
    const secrets = this.#ctx.service(SecretsService);
    return {
      task_id: t.id,
      bot_id: t.bot_id,
      name: t.name,
      trigger_type: t.trigger_type,
      mode: t.mode,
      cron_expr: t.cron_expr,
      time_zone: t.time_zone,
      run_at: secs(t.run_at),
      user_question: t.user_question,
      end_user_id: t.end_user_id,
      connector_id: t.connector_id,
      conversation_id: t.conversation_id,
      next_time: secs(state?.nextRunAt),
      last_time: secs(t.last_fired_at),
      last_chat_id: t.last_chat_id,
      last_error: t.last_error,
      webhook_url: t.trigger_type === 'webhook' ? this.webhookUrl(t.id) : '',
      secret_hint: t.secret ? secrets.mask(secrets.decrypt(t.secret)) : '',
      create_time: secs(t.created_at),
    };
  }

  async task(id: string, spaceId?: string): Promise<TaskRow> {
    let q = this.#db.selectFrom('bot_task').selectAll().where('id', '=', id).where('deleted_at', 'is', null);
    if (spaceId) q = q.where('space_id', '=', spaceId);
    const t = await q.executeTakeFirst();
    if (!t) throw notFound(`There is no task ${id}${spaceId ? ' in this space' : ''}.`);
    return t;
  }

  async list(filter: { botId: string; connectorId?: string; endUserId?: string }): Promise<TaskRow[]> {
    let q = this.#db
      .selectFrom('bot_task')
      .selectAll()
      .where('bot_id', '=', filter.botId)
      .where('deleted_at', 'is', null);
    if (filter.connectorId !== undefined) q = q.where('connector_id', '=', filter.connectorId);
    if (filter.endUserId !== undefined) q = q.where('end_user_id', '=', filter.endUserId);
    return q.orderBy('created_at').execute();
  }

  /** A time task: checked by the scheduler (a bad cron, zone or past time is a 400 that names it), then kept. */
  async create(t: NewTask): Promise<TaskRow> {
    if (
      t.mode === 'user' &&
      (await this.list({ botId: t.botId, connectorId: t.connectorId, endUserId: t.endUserId })).length >= MAX_USER_TASKS
    )
      throw new ApiError(
        400,
        ErrorCode.INVALID_PARAMS,
        `A user keeps at most ${MAX_USER_TASKS} tasks with a bot: remove one first.`,
      );
    const row: TaskRow = {
      id: this.#ctx.host.newId(),
      bot_id: t.botId,
      space_id: t.spaceId,
      user_id: t.userId,
      end_user_id: t.endUserId,
      connector_id: t.connectorId,
      conversation_id: t.conversationId,
      name: t.name,
      trigger_type: 'time',
      mode: t.mode,
      cron_expr: t.cron ?? '',
      time_zone: t.timeZone,
      run_at: t.at ? new Date(Date.parse(t.at)).toISOString() : null,
      user_question: t.question,
      secret: null,
      last_fired_at: null,
      last_chat_id: '',
      last_error: '',
      created_at: iso(),
      deleted_at: null,
    };
    await this.#ctx.service(SchedulesService).save({
      key: key(row.id),
      job: FIRE_JOB,
      payload: { task_id: row.id },
      cron: t.cron || undefined,
      at: t.at || undefined,
      timeZone: t.timeZone,
    });
    await this.#db.insertInto('bot_task').values(row).execute();
    return row;
  }

  async createWebhook(t: Omit<NewTask, 'cron' | 'at' | 'timeZone'>): Promise<{ row: TaskRow; secret: string }> {
    const secret = randomBytes(24).toString('base64url');
    const row: TaskRow = {
      id: this.#ctx.host.newId(),
      bot_id: t.botId,
      space_id: t.spaceId,
      user_id: t.userId,
      end_user_id: t.endUserId,
      connector_id: t.connectorId,
      conversation_id: t.conversationId,
      name: t.name,
      trigger_type: 'webhook',
      mode: t.mode,
      cron_expr: '',
      time_zone: '',
      run_at: null,
      user_question: t.question,
      secret: this.#ctx.service(SecretsService).encrypt(secret),
      last_fired_at: null,
      last_chat_id: '',
      last_error: '',
      created_at: iso(),
      deleted_at: null,
    };
    await this.#db.insertInto('bot_task').values(row).execute();
    return { row, secret };
  }

  async remove(t: TaskRow): Promise<void> {
    await this.#ctx.service(SchedulesService).remove(key(t.id));
    await this.#db.updateTable('bot_task').set({ deleted_at: iso() }).where('id', '=', t.id).execute();
  }

  /**
   * The preset tasks of a user of the published bot, as its settings say now: the missing ones made in the user's
   * conversation, the ones changed or gone removed (one read a turn; writes only when something changed).
   */
  async syncPresets(
    who: Omit<NewTask, 'name' | 'mode' | 'cron' | 'at' | 'question'>,
    presets: { name: string; cron_expr: string; user_question: string }[],
  ): Promise<void> {
    const have = (await this.list({ botId: who.botId, connectorId: who.connectorId, endUserId: who.endUserId })).filter(
      (t) => t.mode === 'preset',
    );
    const same = (t: TaskRow, p: (typeof presets)[number]) =>
      t.name === p.name &&
      t.cron_expr === p.cron_expr &&
      t.user_question === p.user_question &&
      t.time_zone === who.timeZone;
    for (const t of have) if (!presets.some((p) => same(t, p))) await this.remove(t);
    for (const p of presets)
      if (!have.some((t) => same(t, p)))
        await this.create({ ...who, name: p.name, mode: 'preset', cron: p.cron_expr, question: p.user_question });
  }

  secretOf(t: TaskRow): string {
    return t.secret ? this.#ctx.service(SecretsService).decrypt(t.secret) : '';
  }

  /**
   * Asks the bot the task's question (and what came with it) in the task's conversation; a new conversation the
   * first time, kept for the next firings. The outcome is kept on the task.
   */
  async fire(t: TaskRow, extra?: unknown): Promise<TaskRow> {
    const message =
      extra === undefined ? t.user_question : `${t.user_question}\n\n${JSON.stringify(extra).slice(0, 8000)}`;
    let changed: Partial<TaskRow>;
    try {
      const r = await this.#ctx.service(BotChatsService).startPublished({
        botId: t.bot_id,
        userId: t.user_id,
        endUserId: t.end_user_id,
        message,
        conversationId: t.conversation_id || undefined,
        connectorId: t.connector_id || Connectors.API,
        logId: `task-${t.id}-${Date.now()}`,
      });
      changed = { last_fired_at: iso(), last_chat_id: r.chat_id, conversation_id: r.conversation_id, last_error: '' };
    } catch (e) {
      changed = {
        last_fired_at: iso(),
        last_error: messageOf(e).slice(0, 500),
      };
    }
    await this.#db.updateTable('bot_task').set(changed).where('id', '=', t.id).execute();
    return { ...t, ...changed };
  }

  /** The scheduler's job: a task's time came. */
  async onSchedule(firing: ScheduledFiring<{ task_id: string }>): Promise<void> {
    const t = await this.#db
      .selectFrom('bot_task')
      .selectAll()
      .where('id', '=', firing.payload.task_id)
      .executeTakeFirst();
    if (!t || t.deleted_at) {
      await this.#ctx.service(SchedulesService).remove(firing.key);
      return;
    }
    await this.fire(t);
  }
}
