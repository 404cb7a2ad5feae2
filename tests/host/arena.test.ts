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
async function answer(a: Agent, pk: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${studio.url}/api/models/chat`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      cookie: [...a.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'x-csrf-token': decodeURIComponent(a.cookies.get('tessera_csrf') ?? ''),
      ...headers,
    },
    body: JSON.stringify({ pk_id: pk }),
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
    for (let i = 0; i < 12; i++) await battle(`Question ${i}`, 'alpha');
    for (let i = 0; i < 4; i++) await battle(`Code ${i}`, 'gamma', 'coding');
    const board = await owner.post('/api/models/leaderboard/get', { space_id: space });
    expect(board.votes).toBe(17);
    expect(board.rows[0]).toMatchObject({ name: 'alpha', rank: 1 });
    for (const r of board.rows) expect(r.ci_low).toBeLessThanOrEqual(r.rating);
    const coding = await owner.post('/api/models/leaderboard/get', { space_id: space, category: 'coding' });
    expect(coding.votes).toBe(4);
    expect(coding.rows[0].name).toBe('gamma');
    expect(coding.rows.every((r: { provisional: boolean }) => r.provisional)).toBe(true);
    const all = await owner.post('/api/models/leaderboard/get_v2', { space_id: space });
    expect(all.categories.find((c: { category: string }) => c.category === 'coding').votes).toBe(4);
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
});
