// The tasks skill (server half): tools the model uses to schedule tasks for the user it talks to, the task routes
// (spec 000, `task/...`) for the bot's author, the webhook tasks' address, and the scheduler's job that fires them.
import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiError, ErrorCode, notFound } from '@tessera/sdk';
import { defineExtension, type ScheduledFiring } from '@tessera/sdk/server';
import { BotSkills, BotsService, Connectors } from '@tessera/ext-bots/shared';
import { z } from 'zod';
import {
  BotTaskList,
  CreateBotTask,
  CreateWebhookTask,
  RemoveBotTask,
  TasksSkillSettings,
  TriggerTask,
} from '../shared.ts';
import { FIRE_JOB, TaskService } from './service.ts';

const inBody = { space: { from: 'body' as const, field: 'space_id' } };
const same = (a: string, b: string) =>
  timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());

export default defineExtension({
  id: 'bot-skill-tasks',
  register(ctx) {
    ctx.migrations([
      {
        name: '0001_bot_tasks',
        up: async (db) => {
          await db.schema
            .createTable('bot_task')
            .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
            .addColumn('bot_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('end_user_id', 'varchar(200)', (c) => c.notNull())
            .addColumn('connector_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('conversation_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('name', 'varchar(100)', (c) => c.notNull())
            .addColumn('trigger_type', 'varchar(16)', (c) => c.notNull())
            .addColumn('mode', 'varchar(16)', (c) => c.notNull())
            .addColumn('cron_expr', 'varchar(200)', (c) => c.notNull())
            .addColumn('time_zone', 'varchar(64)', (c) => c.notNull())
            .addColumn('run_at', 'varchar(32)')
            .addColumn('user_question', 'varchar(2000)', (c) => c.notNull())
            .addColumn('secret', 'text')
            .addColumn('last_fired_at', 'varchar(32)')
            .addColumn('last_chat_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('last_error', 'varchar(500)', (c) => c.notNull())
            .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
            .addColumn('deleted_at', 'varchar(32)')
            .execute();
          await db.schema.createIndex('bot_task_bot').on('bot_task').columns(['bot_id', 'end_user_id']).execute();
        },
      },
    ]);
    const tasks = new TaskService(ctx);
    ctx.job({
      name: FIRE_JOB,
      concurrency: 4,
      handler: (firing) => tasks.onSchedule(firing as ScheduledFiring<{ task_id: string }>),
    });

    // In the chat: the model schedules, lists and removes the tasks of the user it talks to.
    ctx.register(BotSkills, {
      key: 'tasks',
      label: { 'en-US': 'Tasks', 'zh-CN': '任务' },
      settings: TasksSkillSettings,
      async contribute(turn) {
        const s = TasksSkillSettings.parse(turn.settings ?? {});
        const mine = { botId: turn.botId, connectorId: turn.connectorId, endUserId: turn.endUserId };
        // The preset tasks follow the published settings (not the editor's preview: its conversation is a draft's).
        if (turn.version !== null)
          await tasks.syncPresets(
            {
              ...mine,
              spaceId: turn.spaceId,
              userId: turn.userId,
              conversationId: turn.conversationId,
              timeZone: s.time_zone,
            },
            s.presets,
          );
        return {
          instructions: `You can schedule tasks for the user: at each time you are asked the task's question and answer in this conversation. Use create_task with a cron expression (five fields: minute hour day-of-month month day-of-week; "0 9 * * 1" is Mondays at 09:00) or run_at (an ISO 8601 time) for once. The user's time zone is ${s.time_zone} unless they name another; it is now ${new Date().toISOString()}. list_tasks and remove_task manage them.`,
          tools: [
            {
              name: 'create_task',
              description: 'Schedule a task for the user: the question is asked at each time and answered here.',
              parameters: {
                type: 'object',
                properties: {
                  name: { type: 'string', description: 'A short name: "Monday report"' },
                  question: { type: 'string', description: 'What you will be asked at each time' },
                  cron_expr: { type: 'string', description: 'Five cron fields, for a repeating task' },
                  run_at: { type: 'string', description: 'An ISO 8601 time, for a task that happens once' },
                  time_zone: { type: 'string', description: 'An IANA time zone such as Asia/Shanghai' },
                },
                required: ['name', 'question'],
              },
              async execute(args) {
                const a = z
                  .object({
                    name: z.string().min(1).max(100),
                    question: z.string().min(1).max(2000),
                    cron_expr: z.string().max(200).optional(),
                    run_at: z.string().max(40).optional(),
                    time_zone: z.string().max(64).optional(),
                  })
                  .parse(args);
                const t = await tasks.create({
                  ...mine,
                  spaceId: turn.spaceId,
                  userId: turn.userId,
                  conversationId: turn.conversationId,
                  name: a.name,
                  mode: 'user',
                  cron: a.cron_expr,
                  at: a.run_at,
                  timeZone: a.time_zone || s.time_zone,
                  question: a.question,
                });
                const v = await tasks.view(t);
                return { task_id: v.task_id, next_time: new Date(v.next_time * 1000).toISOString() };
              },
            },
            {
              name: 'list_tasks',
              description: "The user's scheduled tasks with this bot.",
              parameters: { type: 'object', properties: {} },
              async execute() {
                const list = await Promise.all((await tasks.list(mine)).map((t) => tasks.view(t)));
                return list.map((t) => ({
                  task_id: t.task_id,
                  name: t.name,
                  cron_expr: t.cron_expr,
                  time_zone: t.time_zone,
                  next_time: t.next_time ? new Date(t.next_time * 1000).toISOString() : null,
                  question: t.user_question,
                }));
              },
            },
            {
              name: 'remove_task',
              description: "Remove one of the user's tasks by its id (from list_tasks).",
              parameters: { type: 'object', properties: { task_id: { type: 'string' } }, required: ['task_id'] },
              async execute(args) {
                const t = await tasks.task(String(args.task_id ?? ''));
                if (t.bot_id !== turn.botId || t.end_user_id !== turn.endUserId || t.connector_id !== turn.connectorId)
                  throw notFound('That task is not one of this user’s.');
                await tasks.remove(t);
                return { removed: t.id };
              },
            },
          ],
        };
      },
    });

    // For the bot's author (members of its space).
    const botOf = async (spaceId: string, botId: string) => {
      const b = await ctx.service(BotsService).get(botId);
      if (!b || b.space_id !== spaceId) throw notFound(`There is no bot ${botId} in this space.`);
      return b;
    };
    ctx.route({
      ...CreateBotTask,
      auth: inBody,
      handler: async ({ body, caller }) => {
        await botOf(body.space_id, body.bot_id);
        if (!body.cron_expr === !body.run_at)
          throw new ApiError(400, ErrorCode.INVALID_PARAMS, 'Give the task a cron expression or one time (run_at).');
        const t = await tasks.create({
          botId: body.bot_id,
          spaceId: body.space_id,
          userId: caller!.userId,
          endUserId: caller!.userId,
          connectorId: Connectors.API,
          conversationId: '',
          name: body.name,
          mode: 'author',
          cron: body.cron_expr,
          at: body.run_at,
          timeZone: body.time_zone,
          question: body.user_question,
        });
        return { task: await tasks.view(t) };
      },
    });
    ctx.route({
      ...CreateWebhookTask,
      auth: inBody,
      handler: async ({ body, caller }) => {
        await botOf(body.space_id, body.bot_id);
        const { row, secret } = await tasks.createWebhook({
          botId: body.bot_id,
          spaceId: body.space_id,
          userId: caller!.userId,
          endUserId: caller!.userId,
          connectorId: Connectors.API,
          conversationId: '',
          name: body.name,
          mode: 'author',
          question: body.user_question,
        });
        return { task: await tasks.view(row), secret, webhook_url: `${tasks.webhookUrl(row.id)}/${secret}` };
      },
    });
    ctx.route({
      ...BotTaskList,
      auth: inBody,
      handler: async ({ body }) => {
        await botOf(body.space_id, body.bot_id);
        return { tasks: await Promise.all((await tasks.list({ botId: body.bot_id })).map((t) => tasks.view(t))) };
      },
    });
    ctx.route({
      ...RemoveBotTask,
      auth: inBody,
      handler: async ({ body }) => (await tasks.remove(await tasks.task(body.task_id, body.space_id)), {}),
    });
    ctx.route({
      ...TriggerTask,
      auth: inBody,
      handler: async ({ body }) => ({
        task: await tasks.view(await tasks.fire(await tasks.task(body.task_id, body.space_id))),
      }),
    });
    ctx.route({
      method: 'POST',
      path: '/api/task/webhook/:task_id/:secret',
      auth: 'anonymous',
      rateLimit: { max: 120, key: 'ip' },
      summary: "Call a webhook task: the bot is asked its question with the call's JSON body",
      params: z.object({ task_id: z.string().max(32), secret: z.string().max(100) }),
      handler: async ({ params, body }) => {
        const t = await tasks.task(params.task_id).catch(() => undefined);
        if (!t || t.trigger_type !== 'webhook' || !same(params.secret, tasks.secretOf(t)))
          throw new ApiError(404, ErrorCode.NOT_FOUND, `There is no webhook task ${params.task_id} with that secret.`);
        const fired = await tasks.fire(t, body ?? {});
        if (fired.last_error) throw new ApiError(409, ErrorCode.CONFLICT, fired.last_error);
        return { chat_id: fired.last_chat_id, conversation_id: fired.conversation_id };
      },
    });
  },
});
