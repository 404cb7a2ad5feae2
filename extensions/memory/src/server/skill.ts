// The memory skill: at each turn the model gets what is remembered about the user and tools to note and
// recall events; after each finished chat a background job asks a chat model for facts to keep.
import { JobQueueService, type ServerContext } from '@tessera/sdk/server';
import { BotChatsService, BotSkills, ChatFinished } from '@tessera/ext-bots/shared';
import { ModelsService } from '@tessera/ext-models/shared';
import { MAX_FACTS, MemorySettings, parseMetas, type MemoryStore } from './store.ts';

const EXTRACT_JOB = 'memory.extract';

const time = (t?: string) => {
  if (!t) return undefined;
  const n = Date.parse(t);
  if (Number.isNaN(n)) throw new Error(`"${t}" is not a time (use ISO 8601).`);
  return n;
};

export function registerMemorySkill(ctx: ServerContext<unknown>, store: MemoryStore) {
  ctx.register(BotSkills, {
    key: 'memory',
    label: { 'en-US': 'Long-term memory', 'zh-CN': '长期记忆' },
    settings: MemorySettings,
    async contribute(turn) {
      const s = turn.settings as MemorySettings;
      const { owner } = await store.ownerOf(turn.botId, s, turn.spaceId);
      const known = s.profile ? await store.facts(owner, turn.endUserId) : [];
      const lines = known.map((f) => `- ${f.key}: ${f.value}`);
      return {
        instructions:
          [
            s.profile && lines.length ? `What you remember about the user:\n${lines.join('\n')}` : '',
            s.events
              ? 'Note events the user tells you about (with their time) with remember_event, and look past ones up with recall_events.'
              : '',
          ]
            .filter(Boolean)
            .join('\n\n') || undefined,
        tools: s.events
          ? [
              {
                name: 'remember_event',
                description: 'Keeps an event the user mentioned, with when it happens or happened.',
                parameters: {
                  type: 'object',
                  properties: {
                    content: { type: 'string' },
                    time: { type: 'string', description: 'ISO 8601; default now' },
                  },
                  required: ['content'],
                  additionalProperties: false,
                },
                execute: async (args) =>
                  store.addEvent(
                    owner,
                    turn.endUserId,
                    String(args.content ?? ''),
                    args.time ? String(args.time) : undefined,
                  ),
              },
              {
                name: 'recall_events',
                description:
                  'Finds events the user mentioned before, by words and/or a time range; answers them with their time (cite them).',
                parameters: {
                  type: 'object',
                  properties: {
                    query: { type: 'string' },
                    from: { type: 'string', description: 'ISO 8601' },
                    to: { type: 'string', description: 'ISO 8601' },
                  },
                  additionalProperties: false,
                },
                execute: async (args) => ({
                  events: await store.events(owner, turn.endUserId, {
                    text: args.query ? String(args.query) : undefined,
                    from: time(args.from as string | undefined),
                    to: time(args.to as string | undefined),
                  }),
                }),
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
      const settings = await store.settingsOf(ex.bot_id, ex.draft ? 'draft' : 'published');
      if (!settings?.profile) return;
      const { owner, base } = await store.ownerOf(ex.bot_id, settings, ex.space_id);
      // A memory base with keys keeps those only.
      const metas = base ? parseMetas(base.metas) : [];
      const models = ctx.service(ModelsService);
      const modelId = settings.model_id ?? (await models.list(ex.space_id, 'chat'))[0]?.model_id;
      if (!modelId) return ctx.logger.warn(`memory: no chat model in space ${ex.space_id} to extract facts with`);
      const model = await models.get(ex.space_id, modelId);
      const known = await store.facts(owner, ex.end_user_id);
      const { generateText } = await import('ai');
      const keys = metas.length
        ? ` Keep only these keys: ${metas.map((m) => (m.description ? `${m.key} (${m.description})` : m.key)).join(', ')}.`
        : ' Use short snake_case keys.';
      const r = await generateText({
        model: await model.chat(),
        temperature: 0,
        maxRetries: 1,
        system: `You keep a short profile of a user: stable facts (name, city, preferences, job ...). Given what you know and the latest exchange, answer only a JSON object of facts to add or change, {"key": "value"}; {} when there is nothing new.${keys}`,
        prompt: `Known: ${JSON.stringify(Object.fromEntries(known.map((f) => [f.key, f.value])))}\nUser: ${ex.question.slice(0, 4000)}\nAssistant: ${ex.answer.slice(0, 4000)}`,
      });
      await models
        .recordUsage({
          space_id: ex.space_id,
          model_id: modelId,
          input_tokens: r.usage?.inputTokens ?? 0,
          output_tokens: r.usage?.outputTokens ?? 0,
          source: 'memory',
        })
        .catch(() => undefined);
      let found: Record<string, unknown> = {};
      try {
        found = JSON.parse(
          r.text
            .trim()
            .replace(/^```(?:json)?\s*/i, '')
            .replace(/```\s*$/, ''),
        );
      } catch {
        return ctx.logger.warn(`memory: the model's facts were not JSON for chat ${p.chat_id}`);
      }
      const allowed = metas.length ? new Set(metas.map((m) => m.key)) : undefined;
      let count = known.length;
      for (const [k, v] of Object.entries(found ?? {})) {
        const key = k
          .toLowerCase()
          .replace(/[^a-z0-9_]+/g, '_')
          .slice(0, 64);
        if (!key || v === null || v === undefined || typeof v === 'object' || (allowed && !allowed.has(key))) continue;
        if (!known.some((f) => f.key === key) && ++count > MAX_FACTS) break;
        await store.upsert(owner, ex.end_user_id, key, String(v), p.chat_id);
      }
    },
  });
  ctx.on(ChatFinished, async (e) => {
    if (e.status !== 'completed') return;
    await ctx.service(JobQueueService).enqueue(EXTRACT_JOB, { conversation_id: e.conversation_id, chat_id: e.chat_id });
  });
}
