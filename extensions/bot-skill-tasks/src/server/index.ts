// The tasks skill (server half): tools the model uses to schedule tasks for the user it talks to, the task routes
// (spec 000, `task/...`) for the bot's author, the webhook tasks' address, and the scheduler's job that fires them.
import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiError, ErrorCode, languageOf, notFound } from '@tessera/sdk';
import { defineExtension, SchedulesService, type ScheduledFiring } from '@tessera/sdk/server';
import { BotSkills, BotsService, Connectors } from '@tessera/ext-bots/shared';
import { z } from 'zod';
import {
  BotTaskList,
  CreateBotTask,
  CreatePresetTask,
  PresetTaskList,
  RemovePresetTask,
  TaskIntro,
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
    const tasks = ctx.resolve(TaskService);
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
    // Preset tasks: kept in the skill's settings of the bot's draft (published with its next version).
    const presetsOf = async (botId: string) => {
      const bots = ctx.service(BotsService);
      const read = async (which: 'draft' | 'published') =>
        TasksSkillSettings.parse((await bots.skillSettings(botId, 'tasks', which)) ?? {});
      return { draft: await read('draft'), published: await read('published') };
    };
    const answer = async (botId: string) => {
      const p = await presetsOf(botId);
      return { draft: p.draft.presets, published: p.published.presets };
    };
    ctx.route({
      ...CreatePresetTask,
      auth: inBody,
      handler: async ({ body, caller }) => {
        await botOf(body.space_id, body.bot_id);
        const { draft } = await presetsOf(body.bot_id);
        if (draft.presets.some((p) => p.name === body.name))
          throw new ApiError(409, ErrorCode.CONFLICT, `The bot already has a preset task named "${body.name}".`);
        if (draft.presets.length >= 10)
          throw new ApiError(400, ErrorCode.INVALID_PARAMS, 'A bot has at most 10 preset tasks.');
        await ctx.service(SchedulesService).preview({ cron: body.cron_expr, timeZone: draft.time_zone }, 1);
        const preset = { name: body.name, cron_expr: body.cron_expr, user_question: body.user_question };
        await ctx
          .service(BotsService)
          .setSkillSettings(body.bot_id, 'tasks', { ...draft, presets: [...draft.presets, preset] }, caller!.userId);
        return answer(body.bot_id);
      },
    });
    ctx.route({
      ...PresetTaskList,
      auth: inBody,
      handler: async ({ body }) => (await botOf(body.space_id, body.bot_id), answer(body.bot_id)),
    });
    ctx.route({
      ...RemovePresetTask,
      auth: inBody,
      handler: async ({ body, caller }) => {
        await botOf(body.space_id, body.bot_id);
        const { draft } = await presetsOf(body.bot_id);
        if (!draft.presets.some((p) => p.name === body.name))
          throw notFound(`The bot has no preset task named "${body.name}".`);
        const presets = draft.presets.filter((p) => p.name !== body.name);
        await ctx.service(BotsService).setSkillSettings(body.bot_id, 'tasks', { ...draft, presets }, caller!.userId);
        return answer(body.bot_id);
      },
    });
    ctx.route({
      ...TaskIntro,
      auth: inBody,
      handler: async ({ body, headers }) => {
        await botOf(body.space_id, body.bot_id);
        const { published } = await presetsOf(body.bot_id);
        const zh = languageOf(headers['accept-language']) === 'zh-CN';
        const lines = published.presets.map((p) => `${p.name} (${p.cron_expr}, ${published.time_zone})`);
        const intro = !lines.length
          ? zh
            ? '此智能体没有预设任务。你可以在对话中让它为你安排任务。'
            : 'This bot has no preset tasks. You can ask it in the chat to schedule tasks for you.'
          : zh
            ? `此智能体会定时为你运行：${lines.join('；')}。你也可以在对话中让它安排更多任务。`
            : `This bot runs these for you on a schedule: ${lines.join('; ')}. You can ask it in the chat for more.`;
        return { intro, presets: published.presets };
      },
    });
    ctx.route({
      method: 'POST',
      path: '/api/task/webhook/:task_id/:secret',
      response: z.object({ chat_id: z.string(), conversation_id: z.string() }),
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
