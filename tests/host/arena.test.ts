import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type Agent } from '../agent.ts';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { startStudio, type RunningStudio } from '../helpers.ts';

// The model arena with real models (the fake model server behind them): a blind battle streamed, voted, revealed;
// the leaderboard follows the votes, per category; battles are their asker's.
let studio: RunningStudio;
let llm: FakeLlm;
let owner: Agent;
let space: string;
const models: Record<string, string> = {};

/** Both answers of a battle, as the page reads them (server-sent events). */
async function answer(a: Agent, pk: string, headers: Record<string, string> = {}, query?: string) {
  const res = await fetch(`${studio.url}/api/models/chat`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      cookie: [...a.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'x-csrf-token': decodeURIComponent(a.cookies.get('tessera_csrf') ?? ''),
      ...headers,
    },
    body: JSON.stringify({ pk_id: pk, ...(query ? { query } : {}) }),
  });
  const text = await res.text();
  const events = text
    .split('\n\n')
    .filter(Boolean)
    .map((block) => ({
      event: /^event: (.*)$/m.exec(block)?.[1] ?? '',
      data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? '{}'),
    }));
  return { status: res.status, events, text };
}

/** A voted battle in which `winner` (a model's name) wins when it fights; a tie otherwise. */
async function battle(question: string, winner: string, category = 'general') {
  const { pk_id } = await owner.post('/api/models/create_pk', { space_id: space, question, category });
  await answer(owner, pk_id);
  const row = await studio.server.database.db
    .selectFrom('arena_battle')
    .select(['model_a', 'model_b'])
    .where('id', '=', pk_id)
    .executeTakeFirstOrThrow();
  const vote = row.model_a === models[winner] ? 'a' : row.model_b === models[winner] ? 'b' : 'tie';
  return (await owner.post('/api/models/vote', { pk_id, vote })).battle;
}

beforeAll(async () => {
  llm = await startFakeLlm();
  studio = await startStudio();
  owner = (await signUp(studio.url, 'arena-owner')).agent;
  space = (await owner.post('/api/space/create', { name: 'Arena' })).space_id;
});
afterAll(async () => {
  await studio?.close();
  await llm?.close();
});

describe('the model arena', () => {
  it('needs two models, then fights them blind, streams both answers and names them once voted', async () => {
    models.alpha = await addFakeModel(owner, llm.url, { model: 'alpha' });
    const alone = await owner.request('POST', '/api/models/create_pk', { space_id: space, question: 'Hi' });
    expect(alone.status).toBe(400);
    expect(alone.body.msg).toMatch(/needs two chat models/);
    models.beta = await addFakeModel(owner, llm.url, { model: 'beta' });
    models.gamma = await addFakeModel(owner, llm.url, { model: 'gamma' });

    const { pk_id } = await owner.post('/api/models/create_pk', { space_id: space, question: 'Why is the sky blue?' });
    const before = (await owner.post('/api/models/get_pk', { pk_id })).battle;
    expect(before).toMatchObject({ status: 'created', model_a: null, model_b: null });
    expect((await owner.request('POST', '/api/models/vote', { pk_id, vote: 'a' })).status).toBe(400);

    const streamed = await answer(owner, pk_id);
    expect(streamed.status).toBe(200);
    const text = (side: string) =>
      streamed.events
        .filter((e) => e.event === 'delta' && e.data.side === side)
        .map((e) => e.data.text)
        .join('');
    expect(text('a')).toBe('echo: Why is the sky blue?');
    expect(text('b')).toBe('echo: Why is the sky blue?');
    expect(
      streamed.events
        .filter((e) => e.event === 'done')
        .map((e) => e.data.side as string)
        .sort((x, y) => x.localeCompare(y)),
    ).toEqual(['a', 'b']);
    expect(streamed.events.at(-1)).toEqual({ event: 'end', data: { status: 'answered' } });
    // A battle is answered once.
    expect((await answer(owner, pk_id)).status).toBe(409);

    const unknownTag = await owner.request('POST', '/api/models/vote', { pk_id, vote: 'a', tags: ['shiny'] });
    expect(unknownTag.status).toBe(400);
    const { battle: voted } = await owner.post('/api/models/vote', {
      pk_id,
      vote: 'a',
      tags: ['clear'],
      text: 'crisp',
    });
    expect(voted).toMatchObject({ status: 'voted', vote: 'a', tags: ['clear'], feedback_text: 'crisp' });
    expect(voted.model_a.id).not.toBe(voted.model_b.id);
    expect(Object.values(models)).toContain(voted.model_a.id);
    expect((await owner.request('POST', '/api/models/vote', { pk_id, vote: 'b' })).status).toBe(409);
    await owner.post('/api/models/feedback_text', { pk_id, text: 'crisp and right' });
    expect((await owner.post('/api/models/get_pk', { pk_id })).battle.feedback_text).toBe('crisp and right');
  });

  it('ranks by the votes, per category, with intervals', async () => {
    // Pairs are drawn at random (a battle without alpha is a tie): battles go on until alpha has won eight, so the
    // board's order does not hang on the draw (at most 16: a caller starts 30 battles a minute).
    let general = 0;
    for (let alphaWins = 0; alphaWins < 8 && general < 16; general++)
      if ((await battle(`Question ${general}`, 'alpha')).vote !== 'tie') alphaWins++;
    // The same for gamma in coding: four draws once left gamma out of every pair (at most 8, within the minute's 30).
    let coding = 0;
    for (let gammaWins = 0; gammaWins < 3 && coding < 8; coding++)
      if ((await battle(`Code ${coding}`, 'gamma', 'coding')).vote !== 'tie') gammaWins++;
    const board = await owner.post('/api/models/leaderboard/get', { space_id: space });
    expect(board.votes).toBe(1 + general + coding);
    expect(board.rows[0]).toMatchObject({ name: 'alpha', rank: 1 });
    for (const r of board.rows) expect(r.ci_low).toBeLessThanOrEqual(r.rating);
    const codingBoard = await owner.post('/api/models/leaderboard/get', { space_id: space, category: 'coding' });
    expect(codingBoard.votes).toBe(coding);
    expect(codingBoard.rows[0].name).toBe('gamma');
    expect(codingBoard.rows.every((r: { provisional: boolean }) => r.provisional)).toBe(true);
    const all = await owner.post('/api/models/leaderboard/get_v2', { space_id: space });
    expect(all.categories.find((c: { category: string }) => c.category === 'coding').votes).toBe(coding);
    const listed = await owner.post('/api/models/get_model_list', { space_id: space });
    expect(
      listed.models.map((m: { name: string }) => m.name).sort((x: string, y: string) => x.localeCompare(y)),
    ).toEqual(['alpha', 'beta', 'gamma']);
  });

  it("keeps battles to their asker, the arena to the space's members, and asks in the caller's language", async () => {
    const member = await signUp(studio.url, 'arena-member');
    await owner.post('/api/space/member/add', { space_id: space, user_ids: [member.user.user_id] });
    const { pk_id } = await owner.post('/api/models/create_pk', { space_id: space, question: 'Mine' });
    expect((await member.agent.request('POST', '/api/models/get_pk', { pk_id })).status).toBe(404);
    expect((await answer(member.agent, pk_id)).status).toBe(404);
    const stranger = await signUp(studio.url, 'arena-stranger');
    expect(
      (await stranger.agent.request('POST', '/api/models/create_pk', { space_id: space, question: 'x' })).status,
    ).toBe(403);
    // Members add questions only as administrators; everyone draws from the bank.
    expect((await member.agent.request('POST', '/api/models/bank/add', { space_id: space, text: 'Q?' })).status).toBe(
      403,
    );
    await owner.post('/api/models/bank/add', { space_id: space, text: 'What is a monad?', category: 'coding' });
    const coding = await member.agent.post('/api/models/list_bank', { space_id: space, category: 'coding' });
    expect(coding.questions.map((q: { text: string }) => q.text)).toContain('What is a monad?');
    const zh = await member.agent.request(
      'POST',
      '/api/models/rand_question',
      { space_id: space, category: 'knowledge' },
      { 'accept-language': 'zh-CN' },
    );
    expect(zh.body.data.question.text).toMatch(/[\u4e00-\u9fff]/);
  });

  it('tells which side failed when a model cannot answer', async () => {
    llm.script(
      { error: { status: 500, message: 'upstream down' } },
      { error: { status: 500, message: 'upstream down' } },
    );
    const { pk_id } = await owner.post('/api/models/create_pk', { space_id: space, question: 'Fail?' });
    const streamed = await answer(owner, pk_id);
    expect(streamed.events.filter((e) => e.event === 'error').length).toBeGreaterThan(0);
    expect(streamed.events.at(-1)).toEqual({ event: 'end', data: { status: 'failed' } });
    expect((await owner.request('POST', '/api/models/vote', { pk_id, vote: 'a' })).status).toBe(400);
    llm.reset();
  });

  it('goes on with follow-up questions before the vote, each side given its own earlier answers', async () => {
    const { pk_id } = await owner.post('/api/models/create_pk', { space_id: space, question: 'Name a colour.' });
    await answer(owner, pk_id);
    llm.reset();
    const next = await answer(owner, pk_id, {}, 'And another?');
    expect(next.events.at(-1)).toEqual({ event: 'end', data: { status: 'answered' } });
    // Each side read the first question and its own answer before the follow-up.
    expect(llm.requests).toHaveLength(2);
    for (const r of llm.requests)
      expect(r.body.messages.map((m: { content: string }) => m.content)).toEqual([
        'Name a colour.',
        'echo: Name a colour.',
        'And another?',
      ]);
    const battle = (await owner.post('/api/models/get_pk', { pk_id })).battle;
    expect(battle.turns.map((t: { question: string }) => t.question)).toEqual(['Name a colour.', 'And another?']);
    expect(battle.turns[1].answer_a).toBe('echo: And another?');
    await owner.post('/api/models/vote', { pk_id, vote: 'tie' });
    expect((await answer(owner, pk_id, {}, 'One more?')).status).toBe(409);
  });

  it('lets the space’s published bots fight in their own arena, in conversations of the battle', async () => {
    const bots: string[] = [];
    const refused = await owner.request('POST', '/api/models/create_pk', {
      space_id: space,
      question: 'x',
      kind: 'bot',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toMatch(/two bots/);
    for (const name of ['Poet', 'Critic']) {
      const { bot_id } = await owner.post('/api/draftbot/create', { space_id: space, name });
      const info = (await owner.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: space, bot_id }))
        .bot_info;
      await owner.post('/api/playground_api/draftbot/update_draft_bot_info', {
        space_id: space,
        bot_id,
        base_revision: info.revision,
        config: { ...info.config, settings: { prompt: `You are ${name}.`, model: { model_id: models.alpha } } },
      });
      await owner.post('/api/draftbot/publish', { space_id: space, bot_id, connectors: ['1024'] });
      bots.push(bot_id);
    }
    const listed = await owner.post('/api/models/list_arena_bot', { space_id: space });
    expect(listed.bots.filter((c: { kind: string }) => c.kind === 'bot').map((c: { name: string }) => c.name)).toEqual(
      expect.arrayContaining(['Poet', 'Critic']),
    );
    const { pk_id, kind } = await owner.post('/api/models/create_pk', {
      space_id: space,
      question: 'A line about rain',
      kind: 'bot',
    });
    expect(kind).toBe('bot');
    const first = await answer(owner, pk_id);
    expect(first.events.at(-1)).toEqual({ event: 'end', data: { status: 'answered' } });
    llm.reset();
    await answer(owner, pk_id, {}, 'Shorter?');
    // Each bot answered with its persona, in its conversation of the battle (the first question in its history).
    for (const r of llm.requests) {
      const contents = r.body.messages.map((m: { content: unknown }) => JSON.stringify(m.content));
      expect(contents.some((c: string) => c.includes('A line about rain'))).toBe(true);
      expect(contents[0]).toMatch(/You are (Poet|Critic)\./);
    }
    const { battle } = await owner.post('/api/models/vote', { pk_id, vote: 'a' });
    expect([battle.model_a.name, battle.model_b.name]).toEqual(expect.arrayContaining(['Critic', 'Poet']));
    const board = await owner.post('/api/models/leaderboard/get', { space_id: space, kind: 'bot' });
    expect(board.votes).toBe(1);
    expect(board.rows.map((r: { name: string }) => r.name).sort()).toEqual(['Critic', 'Poet']);
    // The models' board is its own.
    const ofModels = await owner.post('/api/models/leaderboard/get', { space_id: space });
    expect(ofModels.rows.some((r: { name: string }) => r.name === 'Poet')).toBe(false);
  });

  it('pools the votes of every space in the public arena, on the platform’s models', async () => {
    const before = (await owner.post('/api/models/leaderboard/get', { space_id: space })).votes;
    const other = await signUp(studio.url, 'arena-public');
    const theirs = (await other.agent.post('/api/space/create', { name: 'Elsewhere' })).space_id;
    const { pk_id, pool } = await other.agent.post('/api/models/create_pk', {
      space_id: theirs,
      question: 'Public question',
      pool: 'public',
    });
    expect(pool).toBe('public');
    await answer(other.agent, pk_id);
    await other.agent.post('/api/models/vote', { pk_id, vote: 'b' });
    // Seen from the owner's space: the public board has the vote, the space's board does not.
    const pub = await owner.post('/api/models/leaderboard/get', { space_id: space, pool: 'public' });
    expect(pub.votes).toBe(1);
    expect((await owner.post('/api/models/leaderboard/get', { space_id: space })).votes).toBe(before);
    const bots = await owner.request('POST', '/api/models/create_pk', {
      space_id: space,
      question: 'x',
      pool: 'public',
      kind: 'bot',
    });
    expect(bots.status).toBe(400);
    expect(bots.body.msg).toMatch(/platform’s models only/);
  });
});
