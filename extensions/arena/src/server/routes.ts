// The arena's routes (spec 002 §7.14, under /api/models/): contestants, the question bank, battles (create, stream
// both answers and follow-ups, stop, vote, feedback) and the leaderboard, of the space's arena or the public one
// (`pool`), of models or bots (`kind`). A battle is its asker's; the space's members use the arena.
import type { ApiRequest, ServerContext } from '@tessera/sdk/server';
import { languageOf } from '@tessera/sdk';
import {
  AddQuestion,
  BreakMessage,
  CATEGORIES,
  CreatePk,
  DeleteQuestion,
  FeedbackTag,
  FeedbackText,
  GetConf,
  GetLeaderboard,
  GetLeaderboardV2,
  GetModelList,
  GetPk,
  MIN_VOTES,
  ListArenaBot,
  ListBank,
  RandBotId,
  RandQuestion,
  VotePk,
} from '../shared/api.ts';
import type { ArenaService } from './service.ts';
import { texts } from './texts.ts';
import { z } from 'zod';

const inSpace = { space: { from: 'body' as const, field: 'space_id' } };
const admins = { ...inSpace, role: 'admin' as const };
const both = (v: { en: string; zh: string }) => ({ 'en-US': v.en, 'zh-CN': v.zh });

const bankModule = () => import('./bank.ts');

export function registerRoutes(ctx: ServerContext, arena: ArenaService): void {
  /** A battle's space, for the routes that take its id. */
  const ofBattle = {
    space: async (req: { body: { pk_id?: unknown } }) => (await arena.get(String(req.body?.pk_id ?? '')))?.space_id,
  };
  const mine = (req: ApiRequest<{ pk_id: string }>) => arena.own(req.body.pk_id, req.caller!.userId);
  const tags = async () => (await bankModule()).FEEDBACK_TAGS.map((t) => ({ key: t.key, label: both(t) }));

  ctx.route({
    ...GetConf,
    auth: 'user',
    handler: async () => {
      const { CATEGORY_LABELS } = await bankModule();
      return {
        categories: CATEGORIES.map((key) => ({ key, label: both(CATEGORY_LABELS[key]) })),
        tags: await tags(),
        min_votes: MIN_VOTES,
      };
    },
  });
  ctx.route({ ...FeedbackTag, auth: 'user', handler: async () => ({ tags: await tags() }) });

  const contestants = async (spaceId: string, pool: 'space' | 'public', kind: 'model' | 'bot') => {
    const { models } = await arena.counts(spaceId, pool, kind);
    return (await arena.contestants(spaceId, pool, kind)).map((c) => ({ ...c, battles: models.get(c.id) ?? 0 }));
  };
  ctx.route({
    ...GetModelList,
    auth: inSpace,
    handler: async ({ body }) => ({ models: await contestants(body.space_id, body.pool, 'model') }),
  });
  ctx.route({
    ...ListArenaBot,
    auth: inSpace,
    handler: async ({ body }) => ({
      bots: [
        ...(await contestants(body.space_id, body.pool, 'model')),
        ...(await contestants(body.space_id, body.pool, 'bot')),
      ],
    }),
  });
  ctx.route({
    ...RandBotId,
    auth: inSpace,
    handler: async ({ body }) => {
      const all = await arena.contestants(body.space_id, body.pool, body.kind);
      if (!all.length) throw texts.error(400, body.kind === 'bot' ? 'twoBots' : 'twoModels');
      return { id: all[Math.floor(Math.random() * all.length)].id };
    },
  });

  // ---------------------------------------------------------------- the question bank
  const bank = async (spaceId: string, category: string | undefined, language: unknown) => {
    const zh = languageOf(language) === 'zh-CN';
    const { BUILTIN_QUESTIONS } = await bankModule();
    const own = await arena.db
      .selectFrom('arena_question')
      .selectAll()
      .where('space_id', '=', spaceId)
      .orderBy('created_at')
      .execute();
    return [
      ...BUILTIN_QUESTIONS.map((q) => ({ id: q.id, text: zh ? q.zh : q.en, category: q.category, builtin: true })),
      ...own.map((q) => ({ id: q.id, text: q.text, category: q.category, builtin: false })),
    ].filter((q) => !category || q.category === category);
  };
  ctx.route({
    ...ListBank,
    auth: inSpace,
    handler: async ({ body, headers }) => ({
      questions: await bank(body.space_id, body.category, headers['accept-language']),
    }),
  });
  ctx.route({
    ...RandQuestion,
    auth: inSpace,
    handler: async ({ body, headers }) => {
      const all = await bank(body.space_id, body.category, headers['accept-language']);
      if (!all.length) throw texts.error(404, 'emptyBank');
      return { question: all[Math.floor(Math.random() * all.length)] };
    },
  });
  ctx.route({
    ...AddQuestion,
    auth: admins,
    audit: { action: 'arena.question.add', target: 'space_id' },
    handler: async ({ body, caller }) => {
      const row = {
        id: ctx.host.newId(),
        space_id: body.space_id,
        text: body.text,
        category: body.category,
        created_by: caller!.userId,
        created_at: new Date().toISOString(),
      };
      await arena.db.insertInto('arena_question').values(row).execute();
      return { question: { id: row.id, text: row.text, category: row.category, builtin: false } };
    },
  });
  ctx.route({
    ...DeleteQuestion,
    auth: admins,
    audit: { action: 'arena.question.delete', target: 'question_id' },
    handler: async ({ body }) => {
      const r = await arena.db
        .deleteFrom('arena_question')
        .where('id', '=', body.question_id)
        .where('space_id', '=', body.space_id)
        .executeTakeFirst();
      if (!Number(r.numDeletedRows)) throw texts.error(404, 'noQuestion', { id: body.question_id });
      return {};
    },
  });

  // ---------------------------------------------------------------- battles
  ctx.route({
    ...CreatePk,
    auth: inSpace,
    rateLimit: { max: 30, windowMs: 60_000, key: 'caller' },
    handler: async ({ body, caller }) => {
      const b = await arena.create(body.space_id, caller!.userId, body.question, body.category, body.pool, body.kind);
      return { pk_id: b.id, category: b.category, pool: b.pool, kind: body.kind };
    },
  });
  ctx.route({
    method: 'POST',
    path: '/api/models/chat',
    auth: ofBattle,
    stream: true,
    summary:
      'Both sides of a battle answer its question, or a follow-up `query` once answered (before the vote), streamed: ' +
      'delta { side, text }, done { side, latency_ms }, error { side, msg }, then end { status }',
    body: z.object({
      pk_id: z.string().min(1).max(32),
      query: z.string().trim().min(1, 'Ask the next question.').max(8000).optional(),
    }),
    handler: async (req, reply) => {
      const b = await mine(req);
      arena.checkTurn(b, req.body.query);
      await arena.answer(b, reply.sse(), req.signal, req.headers['accept-language'], req.body.query);
    },
  });
  ctx.route({
    ...BreakMessage,
    auth: ofBattle,
    handler: async (req) => (arena.stop((await mine(req)).id), {}),
  });
  ctx.route({ ...GetPk, auth: ofBattle, handler: async (req) => ({ battle: await arena.view(await mine(req)) }) });
  ctx.route({
    ...VotePk,
    auth: ofBattle,
    handler: async (req) => ({
      battle: await arena.view(await arena.vote(await mine(req), req.body.vote, req.body.tags, req.body.text)),
    }),
  });
  ctx.route({
    ...FeedbackText,
    auth: ofBattle,
    handler: async (req) => ({ battle: await arena.view(await arena.feedback(await mine(req), req.body.text)) }),
  });

  // ---------------------------------------------------------------- the leaderboard
  ctx.route({
    ...GetLeaderboard,
    auth: inSpace,
    handler: ({ body }) => arena.leaderboard(body.space_id, body.category, body.pool, body.kind),
  });
  ctx.route({
    ...GetLeaderboardV2,
    auth: inSpace,
    handler: async ({ body }) => ({
      categories: await Promise.all(
        CATEGORIES.map(async (category) => ({
          category,
          ...(await arena.leaderboard(body.space_id, category, body.pool, body.kind)),
        })),
      ),
    }),
  });
}
