// The arena: a space's chat models (or its published bots; or, in the public arena, the platform's models with every
// space's votes) fight blind in pairs on a question and its follow-ups; the asker votes, then learns who was who.
// Pairs are drawn to make the ranking converge; the leaderboard is fitted from the votes (rating.ts) and kept until
// the next vote. The maths and the bank load with the first battle or board.
import { messageOf } from '@tessera/sdk';
import { LocalCache, type ServerContext, type SseStream, ServerContextToken } from '@tessera/sdk/server';
import type { Kysely } from 'kysely';
import type { Contestant, Kind, Pool, Said } from './contestants.ts';
import type { Outcome } from './rating.ts';
import { texts } from './texts.ts';
import { MAX_TURNS, MIN_VOTES, type BattleView, type LeaderboardRow } from '../shared/api.ts';

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
  /** space, or public (the platform's models; its votes count in the public board). */
  pool: Pool;
  /** The follow-up questions and their answers (JSON of Turn[]). */
  turns: string;
  /** The conversations bots answer in (a bot keeps the earlier questions itself). */
  conv_a: string;
  conv_b: string;
}
interface Turn {
  question: string;
  answer_a: string;
  answer_b: string;
  ms_a: number;
  ms_b: number;
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
const parsed = <T>(text: string): T[] => {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? (v as T[]) : [];
  } catch {
    return [];
  }
};
const list = (text: string): string[] => parsed<unknown>(text).map(String);
/** Where votes are pooled: the space's own, or the public arena's. */
const scopeOf = (spaceId: string, pool: Pool) => (pool === 'public' ? 'public' : spaceId);
/** Every question of a battle with both answers, the first included. */
const turnsOf = (b: BattleRow): Turn[] => [
  { question: b.question, answer_a: b.answer_a, answer_b: b.answer_b, ms_a: b.ms_a, ms_b: b.ms_b },
  ...parsed<Turn>(b.turns),
];

export class ArenaService {
  static readonly inject = [ServerContextToken] as const;
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
    return this.#ctx.db;
  }

  /** Who fights in the space's arena (or the public one): chat models or published bots. */
  async contestants(spaceId: string, pool: Pool = 'space', kind: Kind = 'model'): Promise<Contestant[]> {
    return (await import('./contestants.ts')).contestants(this.#ctx, spaceId, pool, kind);
  }

  async #voted(spaceId: string, pool: Pool, kind: Kind, category?: string): Promise<BattleRow[]> {
    let q = this.db.selectFrom('arena_battle').selectAll().where('pool', '=', pool).where('status', '=', 'voted');
    if (pool === 'space') q = q.where('space_id', '=', spaceId);
    q = kind === 'bot' ? q.where('model_a', 'like', 'bot:%') : q.where('model_a', 'not like', 'bot:%');
    if (category) q = q.where('category', '=', category);
    return q.orderBy('voted_at').execute();
  }

  /** Battles each contestant fought, and each pair, among the voted ones. */
  async counts(
    spaceId: string,
    pool: Pool = 'space',
    kind: Kind = 'model',
  ): Promise<{ models: Map<string, number>; pairs: Map<string, number> }> {
    const key = `${scopeOf(spaceId, pool)}:${kind}`;
    const hit = this.#counts.get(key);
    if (hit) return hit;
    const { pairKey } = await import('./rating.ts');
    const models = new Map<string, number>();
    const pairs = new Map<string, number>();
    for (const b of await this.#voted(spaceId, pool, kind)) {
      models.set(b.model_a, (models.get(b.model_a) ?? 0) + 1);
      models.set(b.model_b, (models.get(b.model_b) ?? 0) + 1);
      pairs.set(pairKey(b.model_a, b.model_b), (pairs.get(pairKey(b.model_a, b.model_b)) ?? 0) + 1);
    }
    return this.#counts.set(key, { models, pairs });
  }

  async leaderboard(
    spaceId: string,
    category?: string,
    pool: Pool = 'space',
    kind: Kind = 'model',
  ): Promise<{ rows: LeaderboardRow[]; votes: number }> {
    const key = `${scopeOf(spaceId, pool)}:${kind}:${category ?? ''}`;
    const hit = this.#boards.get(key);
    if (hit) return hit;
    const names = new Map((await this.contestants(spaceId, pool, kind)).map((c) => [c.id, c.name]));
    const battles = await this.#voted(spaceId, pool, kind, category);
    const outcomes: Outcome[] = battles.map((b) => ({ a: b.model_a, b: b.model_b, score: SCORE[b.vote] ?? 0.5 }));
    // Contestants that fought keep their row after being removed (named by their id).
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

  async create(
    spaceId: string,
    userId: string,
    question: string,
    category: string,
    pool: Pool = 'space',
    kind: Kind = 'model',
  ): Promise<BattleRow> {
    if (pool === 'public' && kind === 'bot') throw texts.error(400, 'publicBots');
    const ids = (await this.contestants(spaceId, pool, kind)).map((c) => c.id);
    const board = await this.leaderboard(spaceId, undefined, pool, kind);
    const ratings = new Map(board.rows.map((r) => [r.model_id, r.rating]));
    const { drawPair } = await import('./rating.ts');
    const pair = drawPair(ids, ratings, (await this.counts(spaceId, pool, kind)).pairs);
    if (!pair) throw texts.error(400, kind === 'bot' ? 'twoBots' : pool === 'public' ? 'twoPublic' : 'twoModels');
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
      pool,
      turns: '[]',
      conv_a: '',
      conv_b: '',
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
    const kind = b.model_a.startsWith('bot:') ? 'bot' : 'model';
    const names = voted
      ? new Map((await this.contestants(b.space_id, b.pool, kind)).map((c) => [c.id, c.name]))
      : undefined;
    return {
      pk_id: b.id,
      pool: b.pool,
      kind,
      question: b.question,
      category: b.category,
      answer_a: b.answer_a,
      answer_b: b.answer_b,
      turns: turnsOf(b).map((t) => ({ question: t.question, answer_a: t.answer_a, answer_b: t.answer_b })),
      status: b.status,
      vote: b.vote,
      tags: list(b.tags),
      feedback_text: b.feedback_text,
      model_a: names ? { id: b.model_a, name: names.get(b.model_a) ?? b.model_a } : null,
      model_b: names ? { id: b.model_b, name: names.get(b.model_b) ?? b.model_b } : null,
      created_at: secs(b.created_at),
    };
  }

  /**
   * Both sides answer the battle's question (or, once answered, a follow-up `query`: each side given the earlier
   * questions and its own answers), streamed as `delta` { side, text }, `done` { side, latency_ms } or `error`; then
   * `end`.
   */
  /** Why the battle cannot be answered now (its question, or the follow-up `query`), before its stream opens. */
  checkTurn(b: BattleRow, query?: string): void {
    if (b.status === 'created') return;
    if (!query) throw texts.error(409, 'answered');
    if (b.status !== 'answered') throw texts.error(409, b.status === 'voted' ? 'voted' : 'notYet');
    if (turnsOf(b).length >= MAX_TURNS) throw texts.error(400, 'turns', { max: String(MAX_TURNS) });
  }

  async answer(b: BattleRow, sse: SseStream, signal: AbortSignal, language: unknown, query?: string): Promise<void> {
    const follow = b.status !== 'created';
    const taken = await this.db
      .updateTable('arena_battle')
      .set({ status: 'answering' })
      .where('id', '=', b.id)
      .where('status', '=', follow ? 'answered' : 'created')
      .executeTakeFirst();
    if (!Number(taken.numUpdatedRows)) throw texts.error(409, 'answered');
    const controller = new AbortController();
    const stop = () => controller.abort();
    signal.addEventListener('abort', stop);
    this.#running.set(b.id, controller);
    const { speak } = await import('./contestants.ts');
    const earlier = follow ? turnsOf(b) : [];
    const question = follow ? query! : b.question;
    const side = async (s: 'a' | 'b', id: string) => {
      const started = Date.now();
      let text = '';
      try {
        const { conversationId } = await speak(this.#ctx, id, {
          spaceId: b.space_id,
          userId: b.user_id,
          battleId: b.id,
          side: s,
          conversationId: s === 'a' ? b.conv_a : b.conv_b,
          earlier: earlier.map((t): Said => ({ question: t.question, answer: s === 'a' ? t.answer_a : t.answer_b })),
          question,
          signal: controller.signal,
          onDelta: (piece) => {
            text += piece;
            sse.send('delta', { side: s, text: piece });
          },
        });
        sse.send('done', { side: s, latency_ms: Date.now() - started });
        return { text, ms: Date.now() - started, ok: !!text, conversationId };
      } catch (e) {
        const detail = messageOf(e);
        sse.send('error', { side: s, msg: texts.text('modelFailed', { side: s.toUpperCase(), detail }, language) });
        return { text, ms: Date.now() - started, ok: false, conversationId: '' };
      }
    };
    try {
      const [a, bb] = await Promise.all([side('a', b.model_a), side('b', b.model_b)]);
      const status = a.ok && bb.ok ? 'answered' : 'failed';
      const conv = { conv_a: a.conversationId || b.conv_a, conv_b: bb.conversationId || b.conv_b };
      const turn = { question, answer_a: a.text, answer_b: bb.text, ms_a: a.ms, ms_b: bb.ms };
      await this.db
        .updateTable('arena_battle')
        .set(
          follow
            ? { ...conv, status, turns: JSON.stringify([...parsed<Turn>(b.turns), turn]) }
            : { ...conv, status, answer_a: a.text, answer_b: bb.text, ms_a: a.ms, ms_b: bb.ms },
        )
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
    const scope = scopeOf(b.space_id, b.pool);
    this.#boards.clear((key) => key.startsWith(`${scope}:`));
    this.#counts.clear((key) => key.startsWith(`${scope}:`));
    return { ...b, ...set };
  }

  async feedback(b: BattleRow, text: string): Promise<BattleRow> {
    if (b.status !== 'voted') throw texts.error(400, 'notVoted');
    await this.db.updateTable('arena_battle').set({ feedback_text: text }).where('id', '=', b.id).execute();
    return { ...b, feedback_text: text };
  }
}
