// The arena: a space's chat models fight blind in pairs on one question; the asker votes, then learns who was who.
// Pairs are drawn to make the ranking converge; the leaderboard is fitted from the votes (rating.ts) and kept until
// the next vote. The maths and the bank load with the first battle or board.
import { LocalCache, type ServerContext, type SseStream } from '@tessera/sdk/server';
import { ModelsService } from '@tessera/ext-models/shared';
import type { Kysely } from 'kysely';
import type { Outcome } from './rating.ts';
import { texts } from './texts.ts';
import { MIN_VOTES, type BattleView, type LeaderboardRow } from '../shared/api.ts';

export interface BattleRow {
  id: string;
  space_id: string;
  user_id: string;
  question: string;
  category: string;
  model_a: string;
  model_b: string;
  answer_a: string;
  answer_b: string;
  ms_a: number;
  ms_b: number;
  status: 'created' | 'answering' | 'answered' | 'failed' | 'voted';
  vote: string;
  tags: string;
  feedback_text: string;
  created_at: string;
  voted_at: string | null;
}
interface ArenaDb {
  arena_battle: BattleRow;
  arena_question: {
    id: string;
    space_id: string;
    text: string;
    category: string;
    created_by: string;
    created_at: string;
  };
}

const iso = () => new Date().toISOString();
const secs = (v: string) => Math.floor(Date.parse(v) / 1000);
const SCORE: Record<string, number> = { a: 1, b: 0, tie: 0.5, both_bad: 0.5 };
const list = (text: string): string[] => {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
};

export class ArenaService {
  readonly #ctx: ServerContext;
  /** Leaderboards by space and category, until the next vote there. */
  readonly #boards = new LocalCache<string, { rows: LeaderboardRow[]; votes: number }>({ max: 500, ttlMs: 60_000 });
  /** Battles fought per model and per pair, by space, until the next vote there (every new battle asks). */
  readonly #counts = new LocalCache<string, { models: Map<string, number>; pairs: Map<string, number> }>({
    max: 500,
    ttlMs: 60_000,
  });
  /** Battles being answered, to stop them (break_message). */
  readonly #running = new Map<string, AbortController>();

  constructor(ctx: ServerContext) {
    this.#ctx = ctx;
  }
  get db(): Kysely<ArenaDb> {
    return this.#ctx.db as Kysely<ArenaDb>;
  }

  /** The space's enabled chat models: those that fight. */
  async contestants(spaceId: string): Promise<{ id: string; name: string }[]> {
    return (await this.#ctx.service(ModelsService).list(spaceId, 'chat'))
      .filter((m) => m.enabled)
      .map((m) => ({ id: m.model_id, name: m.display_name || m.model_name }));
  }

  async #voted(spaceId: string, category?: string): Promise<BattleRow[]> {
    let q = this.db
      .selectFrom('arena_battle')
      .selectAll()
      .where('space_id', '=', spaceId)
      .where('status', '=', 'voted');
    if (category) q = q.where('category', '=', category);
    return q.orderBy('voted_at').execute();
  }

  /** Battles each model fought, and each pair, among the voted ones. */
  async counts(spaceId: string): Promise<{ models: Map<string, number>; pairs: Map<string, number> }> {
    const hit = this.#counts.get(spaceId);
    if (hit) return hit;
    const { pairKey } = await import('./rating.ts');
    const models = new Map<string, number>();
    const pairs = new Map<string, number>();
    for (const b of await this.#voted(spaceId)) {
      models.set(b.model_a, (models.get(b.model_a) ?? 0) + 1);
      models.set(b.model_b, (models.get(b.model_b) ?? 0) + 1);
      pairs.set(pairKey(b.model_a, b.model_b), (pairs.get(pairKey(b.model_a, b.model_b)) ?? 0) + 1);
    }
    return this.#counts.set(spaceId, { models, pairs });
  }

  async leaderboard(spaceId: string, category?: string): Promise<{ rows: LeaderboardRow[]; votes: number }> {
    const key = `${spaceId}:${category ?? ''}`;
    const hit = this.#boards.get(key);
    if (hit) return hit;
    const names = new Map((await this.contestants(spaceId)).map((c) => [c.id, c.name]));
    const battles = await this.#voted(spaceId, category);
    const outcomes: Outcome[] = battles.map((b) => ({ a: b.model_a, b: b.model_b, score: SCORE[b.vote] ?? 0.5 }));
    // Models that fought keep their row after being removed from the space (named by their id).
    const ids = [...new Set([...names.keys(), ...battles.flatMap((b) => [b.model_a, b.model_b])])];
    const { leaderboard, ranksOf } = await import('./rating.ts');
    const rated = leaderboard(ids, outcomes);
    const ranks = ranksOf(rated);
    const board = {
      rows: rated.map((r, i) => ({
        rank: ranks[i],
        model_id: r.id,
        name: names.get(r.id) ?? r.id,
        rating: Math.round(r.rating * 10) / 10,
        ci_low: Math.round(r.ci_low * 10) / 10,
        ci_high: Math.round(r.ci_high * 10) / 10,
        battles: r.battles,
        wins: r.wins,
        losses: r.losses,
        ties: r.ties,
        provisional: r.battles < MIN_VOTES,
      })),
      votes: battles.length,
    };
    return this.#boards.set(key, board);
  }

  async create(spaceId: string, userId: string, question: string, category: string): Promise<BattleRow> {
    const ids = (await this.contestants(spaceId)).map((c) => c.id);
    const board = await this.leaderboard(spaceId);
    const ratings = new Map(board.rows.map((r) => [r.model_id, r.rating]));
    const { drawPair } = await import('./rating.ts');
    const pair = drawPair(ids, ratings, (await this.counts(spaceId)).pairs);
    if (!pair) throw texts.error(400, 'twoModels');
    const row: BattleRow = {
      id: this.#ctx.host.newId(),
      space_id: spaceId,
      user_id: userId,
      question,
      category,
      model_a: pair[0],
      model_b: pair[1],
      answer_a: '',
      answer_b: '',
      ms_a: 0,
      ms_b: 0,
      status: 'created',
      vote: '',
      tags: '[]',
      feedback_text: '',
      created_at: iso(),
      voted_at: null,
    };
    await this.db.insertInto('arena_battle').values(row).execute();
    return row;
  }

  async get(id: string): Promise<BattleRow | undefined> {
    return this.db.selectFrom('arena_battle').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async own(id: string, userId: string): Promise<BattleRow> {
    const b = await this.get(id);
    if (!b || b.user_id !== userId) throw texts.error(404, 'noBattle', { id });
    return b;
  }

  async view(b: BattleRow): Promise<BattleView> {
    const voted = b.status === 'voted';
    const names = voted ? new Map((await this.contestants(b.space_id)).map((c) => [c.id, c.name])) : undefined;
    return {
      pk_id: b.id,
      question: b.question,
      category: b.category,
      answer_a: b.answer_a,
      answer_b: b.answer_b,
      status: b.status,
      vote: b.vote,
      tags: list(b.tags),
      feedback_text: b.feedback_text,
      model_a: names ? { id: b.model_a, name: names.get(b.model_a) ?? b.model_a } : null,
      model_b: names ? { id: b.model_b, name: names.get(b.model_b) ?? b.model_b } : null,
      created_at: secs(b.created_at),
    };
  }

  /** Both models answer at once, streamed as `delta` { side, text }, `done` { side, latency_ms } or `error`; then `end`. */
  async answer(b: BattleRow, sse: SseStream, signal: AbortSignal, language: unknown): Promise<void> {
    const taken = await this.db
      .updateTable('arena_battle')
      .set({ status: 'answering' })
      .where('id', '=', b.id)
      .where('status', '=', 'created')
      .executeTakeFirst();
    if (!Number(taken.numUpdatedRows)) throw texts.error(409, 'answered');
    const controller = new AbortController();
    const stop = () => controller.abort();
    signal.addEventListener('abort', stop);
    this.#running.set(b.id, controller);
    const side = async (s: 'a' | 'b', modelId: string) => {
      const started = Date.now();
      let text = '';
      try {
        const models = this.#ctx.service(ModelsService);
        const model = await models.get(b.space_id, modelId);
        const { streamText } = await import('ai');
        let failure: unknown;
        const result = streamText({
          model: await model.chat(),
          messages: [{ role: 'user', content: b.question }],
          temperature: model.default_params.temperature,
          maxOutputTokens: model.default_params.max_tokens,
          abortSignal: controller.signal,
          maxRetries: 0,
          onError: ({ error }) => void (failure ??= error),
        });
        for await (const part of result.fullStream) {
          if (part.type === 'text-delta') {
            text += part.text;
            sse.send('delta', { side: s, text: part.text });
          } else if (part.type === 'error') failure ??= part.error;
        }
        if (failure && !controller.signal.aborted) throw failure;
        if (!controller.signal.aborted) {
          const u = await result.totalUsage;
          await models
            .recordUsage({
              space_id: b.space_id,
              model_id: modelId,
              input_tokens: u.inputTokens ?? 0,
              output_tokens: u.outputTokens ?? 0,
              source: 'arena',
            })
            .catch(() => undefined);
        }
        sse.send('done', { side: s, latency_ms: Date.now() - started });
        return { text, ms: Date.now() - started, ok: !!text };
      } catch (e) {
        const detail = (e as { msg?: string }).msg ?? (e as Error).message ?? String(e);
        sse.send('error', { side: s, msg: texts.text('modelFailed', { side: s.toUpperCase(), detail }, language) });
        return { text, ms: Date.now() - started, ok: false };
      }
    };
    try {
      const [a, bb] = await Promise.all([side('a', b.model_a), side('b', b.model_b)]);
      const status = a.ok && bb.ok ? 'answered' : 'failed';
      await this.db
        .updateTable('arena_battle')
        .set({ answer_a: a.text, answer_b: bb.text, ms_a: a.ms, ms_b: bb.ms, status })
        .where('id', '=', b.id)
        .execute();
      sse.send('end', { status });
    } finally {
      signal.removeEventListener('abort', stop);
      this.#running.delete(b.id);
      sse.close();
    }
  }

  stop(id: string): void {
    this.#running.get(id)?.abort();
  }

  async vote(b: BattleRow, vote: string, tags: string[], text: string): Promise<BattleRow> {
    if (b.status === 'voted') throw texts.error(409, 'voted');
    if (b.status !== 'answered') throw texts.error(400, 'notAnswered');
    const known = (await import('./bank.ts')).FEEDBACK_TAGS.map((t) => t.key);
    const unknown = tags.filter((t) => !known.includes(t));
    if (unknown.length) throw texts.error(400, 'unknownTag', { tags: unknown.join(', '), known: known.join(', ') });
    const set = {
      status: 'voted' as const,
      vote,
      tags: JSON.stringify([...new Set(tags)]),
      feedback_text: text,
      voted_at: iso(),
    };
    const r = await this.db
      .updateTable('arena_battle')
      .set(set)
      .where('id', '=', b.id)
      .where('status', '=', 'answered')
      .executeTakeFirst();
    if (!Number(r.numUpdatedRows)) throw texts.error(409, 'voted');
    this.#boards.clear((key) => key.startsWith(`${b.space_id}:`));
    this.#counts.delete(b.space_id);
    return { ...b, ...set };
  }

  async feedback(b: BattleRow, text: string): Promise<BattleRow> {
    if (b.status !== 'voted') throw texts.error(400, 'notVoted');
    await this.db.updateTable('arena_battle').set({ feedback_text: text }).where('id', '=', b.id).execute();
    return { ...b, feedback_text: text };
  }
}
