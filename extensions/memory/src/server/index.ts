// Long-term memory: a bot skill that gives the model what it remembers about the end user (profile facts
// extracted after each finished chat by a model, in a background job) and a time capsule of events it can
// add to and recall by text and time. Everything is kept per bot and end user.
import { badRequest, notFound } from '@tessera/sdk';
import { defineExtension, JobQueueService, containsText } from '@tessera/sdk/server';
import { BotChatsService, BotSkills, BotsService, ChatFinished } from '@tessera/ext-bots/shared';
import { ModelsService } from '@tessera/ext-models/shared';
import { z } from 'zod';
import { migrations } from './migrations.ts';

export const MemorySettings = z.object({
  /** Facts about the user, extracted after chats. */
  profile: z.boolean().default(true),
  /** Events with their time the model may note and recall. */
  events: z.boolean().default(true),
  /** The model that extracts facts; default: the space's first chat model. */
  model_id: z.string().max(32).optional(),
});
type Settings = z.infer<typeof MemorySettings>;
const MAX_FACTS = 50;
const EXTRACT_JOB = 'memory.extract';

export default defineExtension({
  id: 'memory',
  register(ctx) {
    ctx.migrations(migrations);
    const facts = async (botId: string, user: string) => (await ctx.db.selectFrom('memory_profile').select(['id', 'key', 'value', 'updated_at']).where('bot_id', '=', botId).where('end_user_id', '=', user).orderBy('key').execute()) as { id: string; key: string; value: string; updated_at: number }[];
    const upsert = async (botId: string, user: string, key: string, value: string, chatId?: string) => {
      const values = { value: value.slice(0, 1000), source_chat_id: chatId ?? null, updated_at: Date.now() };
      await ctx.db.insertInto('memory_profile').values({ id: ctx.host.newId(), bot_id: botId, end_user_id: user, key, ...values }).onConflict((oc) => oc.columns(['bot_id', 'end_user_id', 'key']).doUpdateSet(values)).execute();
    };
    const events = async (botId: string, user: string, q: { text?: string; from?: number; to?: number; limit?: number }) => {
      let s = ctx.db.selectFrom('memory_event').selectAll().where('bot_id', '=', botId).where('end_user_id', '=', user);
      if (q.text?.trim()) s = s.where(containsText('content', q.text.trim()));
      if (q.from !== undefined) s = s.where('happened_at', '>=', q.from);
      if (q.to !== undefined) s = s.where('happened_at', '<=', q.to);
      return ((await s.orderBy('happened_at', 'desc').limit(q.limit ?? 20).execute()) as { id: string; content: string; happened_at: number }[]).map((e) => ({ id: e.id, content: e.content, time: new Date(Number(e.happened_at)).toISOString() }));
    };
    const addEvent = async (botId: string, user: string, content: string, time?: string) => {
      const at = time ? Date.parse(time) : Date.now();
      if (Number.isNaN(at)) throw new Error(`"${time}" is not a time (use ISO 8601, e.g. 2026-11-23T18:00:00Z).`);
      const id = ctx.host.newId();
      await ctx.db.insertInto('memory_event').values({ id, bot_id: botId, end_user_id: user, content: content.slice(0, 2000), happened_at: at, created_at: Date.now() }).execute();
      return { id, content, time: new Date(at).toISOString() };
    };
    const time = (t?: string) => {
      if (!t) return undefined;
      const n = Date.parse(t);
      if (Number.isNaN(n)) throw new Error(`"${t}" is not a time (use ISO 8601).`);
      return n;
    };

    ctx.register(BotSkills, {
      key: 'memory',
      label: { 'en-US': 'Long-term memory', 'zh-CN': '长期记忆' },
      settings: MemorySettings,
      async contribute(turn) {
        const s = turn.settings as Settings;
        const known = s.profile ? await facts(turn.botId, turn.endUserId) : [];
        const lines = known.map((f) => `- ${f.key}: ${f.value}`);
        return {
          instructions: [s.profile && lines.length ? `What you remember about the user:\n${lines.join('\n')}` : '', s.events ? 'Note events the user tells you about (with their time) with remember_event, and look past ones up with recall_events.' : ''].filter(Boolean).join('\n\n') || undefined,
          tools: s.events
            ? [
                {
                  name: 'remember_event',
                  description: 'Keeps an event the user mentioned, with when it happens or happened.',
                  parameters: { type: 'object', properties: { content: { type: 'string' }, time: { type: 'string', description: 'ISO 8601; default now' } }, required: ['content'], additionalProperties: false },
                  execute: async (args) => addEvent(turn.botId, turn.endUserId, String(args.content ?? ''), args.time ? String(args.time) : undefined),
                },
                {
                  name: 'recall_events',
                  description: 'Finds events the user mentioned before, by words and/or a time range; answers them with their time (cite them).',
                  parameters: { type: 'object', properties: { query: { type: 'string' }, from: { type: 'string', description: 'ISO 8601' }, to: { type: 'string', description: 'ISO 8601' } }, additionalProperties: false },
                  execute: async (args) => ({ events: await events(turn.botId, turn.endUserId, { text: args.query ? String(args.query) : undefined, from: time(args.from as string | undefined), to: time(args.to as string | undefined) }) }),
                },
              ]
            : [],
        };
      },
    });

    // After a finished chat: extract facts about the user in the background.
    ctx.job({
      name: EXTRACT_JOB,
      concurrency: 2,
      async handler(p: { conversation_id: string; chat_id: string }) {
        const ex = await ctx.service(BotChatsService).exchange(p.conversation_id, p.chat_id);
        if (!ex || !ex.question.trim()) return;
        const parsed = MemorySettings.safeParse((await ctx.service(BotsService).skillSettings(ex.bot_id, 'memory', ex.draft ? 'draft' : 'published')) ?? undefined);
        if (!parsed.success || !parsed.data.profile) return;
        const models = ctx.service(ModelsService);
        const modelId = parsed.data.model_id ?? (await models.list(ex.space_id, 'chat'))[0]?.model_id;
        if (!modelId) return ctx.logger.warn(`memory: no chat model in space ${ex.space_id} to extract facts with`);
        const model = await models.get(ex.space_id, modelId);
        const known = await facts(ex.bot_id, ex.end_user_id);
        const { generateText } = await import('ai');
        const r = await generateText({
          model: await model.chat(),
          temperature: 0,
          maxRetries: 1,
          system: 'You keep a short profile of a user: stable facts (name, city, preferences, job ...). Given what you know and the latest exchange, answer only a JSON object of facts to add or change, {"key": "value"}, with short snake_case keys; {} when there is nothing new.',
          prompt: `Known: ${JSON.stringify(Object.fromEntries(known.map((f) => [f.key, f.value])))}\nUser: ${ex.question.slice(0, 4000)}\nAssistant: ${ex.answer.slice(0, 4000)}`,
        });
        await models.recordUsage({ space_id: ex.space_id, model_id: modelId, input_tokens: r.usage?.inputTokens ?? 0, output_tokens: r.usage?.outputTokens ?? 0, source: 'memory' }).catch(() => undefined);
        let found: Record<string, unknown> = {};
        try {
          found = JSON.parse(r.text.trim().replace(/^```(?:json)?\s*/i, '').replace(/```\s*$/, ''));
        } catch {
          return ctx.logger.warn(`memory: the model's facts were not JSON for chat ${p.chat_id}`);
        }
        let count = known.length;
        for (const [k, v] of Object.entries(found ?? {})) {
          const key = k.toLowerCase().replace(/[^a-z0-9_]+/g, '_').slice(0, 64);
          if (!key || v === null || v === undefined || typeof v === 'object') continue;
          if (!known.some((f) => f.key === key) && ++count > MAX_FACTS) break;
          await upsert(ex.bot_id, ex.end_user_id, key, String(v), p.chat_id);
        }
      },
    });
    ctx.on(ChatFinished, async (e) => {
      if (e.status !== 'completed') return;
      await ctx.service(JobQueueService).enqueue(EXTRACT_JOB, { conversation_id: e.conversation_id, chat_id: e.chat_id });
    });

    // What a bot remembers about you (your debug chats and the chat page): list, edit, delete, clear.
    const Bot = z.object({ space_id: z.string().min(1), bot_id: z.string().min(1).max(32) });
    const inSpace = { space: { from: 'body' as const, field: 'space_id' } };
    const own = async (b: z.infer<typeof Bot>) => {
      const bot = await ctx.service(BotsService).get(b.bot_id);
      if (!bot || bot.space_id !== b.space_id) throw notFound(`There is no bot ${b.bot_id} in this space.`);
    };
    ctx.route({ method: 'POST', path: '/api/memory/long_term/profile/list', auth: inSpace, summary: 'What the bot remembers about you', body: Bot, handler: async ({ body, caller }) => (await own(body), { facts: (await facts(body.bot_id, caller!.userId)).map((f) => ({ ...f, updated_at: Number(f.updated_at) })) }) });
    ctx.route({
      method: 'POST',
      path: '/api/memory/long_term/profile/update',
      auth: inSpace,
      summary: 'Set or correct a fact the bot remembers about you',
      body: Bot.extend({ key: z.string().regex(/^[a-z0-9_]{1,64}$/, 'A key uses lower-case letters, digits and _.'), value: z.string().min(1).max(1000) }),
      handler: async ({ body, caller }) => {
        await own(body);
        const known = await facts(body.bot_id, caller!.userId);
        if (!known.some((f) => f.key === body.key) && known.length >= MAX_FACTS) throw badRequest(`A bot keeps at most ${MAX_FACTS} facts about a user.`);
        await upsert(body.bot_id, caller!.userId, body.key, body.value);
        return {};
      },
    });
    ctx.route({
      method: 'POST',
      path: '/api/memory/long_term/profile/delete',
      auth: inSpace,
      summary: 'Forget facts the bot remembers about you (the given keys, or all)',
      body: Bot.extend({ keys: z.array(z.string().max(64)).max(100).optional() }),
      handler: async ({ body, caller }) => {
        await own(body);
        let q = ctx.db.deleteFrom('memory_profile').where('bot_id', '=', body.bot_id).where('end_user_id', '=', caller!.userId);
        if (body.keys?.length) q = q.where('key', 'in', body.keys);
        await q.execute();
        return {};
      },
    });
    ctx.route({
      method: 'POST',
      path: '/api/memory/long_term/events/list',
      auth: inSpace,
      summary: 'Events the bot noted for you: search by words and time range',
      body: Bot.extend({ query: z.string().max(200).optional(), from: z.number().int().optional(), to: z.number().int().optional(), limit: z.number().int().min(1).max(100).default(50) }),
      handler: async ({ body, caller }) => (await own(body), { events: await events(body.bot_id, caller!.userId, { text: body.query, from: body.from, to: body.to, limit: body.limit }) }),
    });
    ctx.route({
      method: 'POST',
      path: '/api/memory/long_term/events/create',
      auth: inSpace,
      summary: 'Note an event for you (content and time)',
      body: Bot.extend({ content: z.string().min(1).max(2000), time: z.string().max(40).optional() }),
      handler: async ({ body, caller }) => {
        await own(body);
        try {
          return await addEvent(body.bot_id, caller!.userId, body.content, body.time);
        } catch (e) {
          throw badRequest((e as Error).message, { field: 'time' });
        }
      },
    });
    ctx.route({
      method: 'POST',
      path: '/api/memory/long_term/events/delete',
      auth: inSpace,
      summary: 'Forget events noted for you (the given ids, or all)',
      body: Bot.extend({ ids: z.array(z.string().max(32)).max(100).optional() }),
      handler: async ({ body, caller }) => {
        await own(body);
        let q = ctx.db.deleteFrom('memory_event').where('bot_id', '=', body.bot_id).where('end_user_id', '=', caller!.userId);
        if (body.ids?.length) q = q.where('id', 'in', body.ids);
        await q.execute();
        return {};
      },
    });
  },
});
