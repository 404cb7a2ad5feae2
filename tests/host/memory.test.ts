import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signUp, type Agent } from '../agent.ts';
import { answerOf, completed, debugChat } from '../bots-kit.ts';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { unique } from '../workflow-kit.ts';

// Long-term memory with the model fixture: facts extracted after a chat, recalled in the next; events
// noted and found by words and time; one user's memory invisible to another.
let studio: RunningStudio;
let llm: FakeLlm;
let owner: Agent;
let space: string;
let model: string;
beforeAll(async () => {
  llm = await startFakeLlm();
  studio = await startStudio();
  owner = (await signUp(studio.url)).agent;
  space = (await owner.post('/api/space/create', { name: 'Memory' })).space_id;
  model = await addFakeModel(owner, llm.url, { capabilities: { function_call: true } });
});
afterAll(async () => {
  await studio.close();
  await llm.close();
});
beforeEach(() => llm.reset());

async function memoryBot(extra: Record<string, unknown> = {}, name = unique('remembers')) {
  const { bot_id } = await owner.post('/api/draftbot/create', { space_id: space, name });
  const info = await owner.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: space, bot_id });
  await owner.post('/api/playground_api/draftbot/update_draft_bot_info', {
    space_id: space,
    bot_id,
    base_revision: info.bot_info.revision,
    config: {
      ...info.bot_info.config,
      settings: { prompt: 'You help.', model: { model_id: model } },
      skills: { memory: { profile: true, events: true, model_id: model, ...extra } },
    },
  });
  return bot_id as string;
}
const mem = (who: Agent, p: string, body: Record<string, unknown>) =>
  who.post(`/api/memory/long_term/${p}`, { space_id: space, ...body });
async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  let v = await fn();
  for (let i = 0; i < 100 && !ok(v); i++) {
    await new Promise((r) => setTimeout(r, 30));
    v = await fn();
  }
  return v;
}

describe('long-term memory', () => {
  it('extracts facts after a chat in the background and gives them to the model in the next chat; the user edits and clears them', async () => {
    const bot = await memoryBot();
    llm.script({ text: 'Nice to meet you, Ada.' }, { text: '{"name": "Ada", "city": "Lyon"}' });
    expect(answerOf(await debugChat(owner, space, bot, 'Hi, I am Ada from Lyon'))).toBe('Nice to meet you, Ada.');
    const listed = await until(
      () => mem(owner, 'profile/list', { bot_id: bot }),
      (r) => r.facts.length === 2,
    );
    expect(listed.facts.map((f: { key: string; value: string }) => [f.key, f.value])).toEqual([
      ['city', 'Lyon'],
      ['name', 'Ada'],
    ]);
    // The extraction saw the exchange.
    expect(llm.requests[1].body.messages.at(-1).content).toMatch(
      /User: Hi, I am Ada from Lyon\nAssistant: Nice to meet you, Ada\./,
    );
    llm.script({ text: 'You live in Lyon.' }, { text: '{}' });
    await debugChat(owner, space, bot, 'Where do I live?');
    const asked = llm.requests.find((r) => r.body.messages.at(-1)?.content === 'Where do I live?')!;
    expect(asked.body.messages[0].content).toMatch(/What you remember about the user:\n- city: Lyon\n- name: Ada/);
    await mem(owner, 'profile/update', { bot_id: bot, key: 'city', value: 'Paris' });
    await mem(owner, 'profile/delete', { bot_id: bot, keys: ['name'] });
    expect(
      (await mem(owner, 'profile/list', { bot_id: bot })).facts.map((f: { key: string; value: string }) => [
        f.key,
        f.value,
      ]),
    ).toEqual([['city', 'Paris']]);
    // Another user of the space sees nothing of it.
    const { agent: other, user } = await signUp(studio.url);
    await owner.post('/api/space/member/add', { space_id: space, user_ids: [user.user_id] });
    expect((await mem(other, 'profile/list', { bot_id: bot })).facts).toEqual([]);
    await mem(owner, 'profile/delete', { bot_id: bot });
    expect((await mem(owner, 'profile/list', { bot_id: bot })).facts).toEqual([]);
  });

  it('notes events with their time and recalls them by words and time range, with the events cited in the steps', async () => {
    const bot = await memoryBot();
    llm.script(
      {
        toolCalls: [
          { name: 'remember_event', arguments: { content: 'Dentist appointment', time: '2026-12-01T09:00:00Z' } },
        ],
      },
      { text: 'Noted.' },
      { text: '{}' },
    );
    await debugChat(owner, space, bot, 'I have the dentist on 1 December at 9');
    await mem(owner, 'events/create', { bot_id: bot, content: 'Flight to Oslo', time: '2026-12-20T07:00:00Z' });
    llm.script(
      { toolCalls: [{ name: 'recall_events', arguments: { query: 'dentist' } }] },
      { text: 'On 1 December at 9.' },
      { text: '{}' },
    );
    const events = await debugChat(owner, space, bot, 'When is my dentist?');
    expect(
      completed(events, 'tool_response').map((m) =>
        JSON.parse(m.content).events.map((e: { content: string; time: string }) => [e.content, e.time]),
      ),
    ).toEqual([[['Dentist appointment', '2026-12-01T09:00:00.000Z']]]);
    const december = await mem(owner, 'events/list', {
      bot_id: bot,
      from: Date.parse('2026-12-10T00:00:00Z'),
      to: Date.parse('2026-12-31T00:00:00Z'),
    });
    expect(december.events.map((e: { content: string }) => e.content)).toEqual(['Flight to Oslo']);
    expect(
      (
        await owner.request('POST', '/api/memory/long_term/events/create', {
          space_id: space,
          bot_id: bot,
          content: 'x',
          time: 'someday',
        })
      ).status,
    ).toBe(400);
    await mem(owner, 'events/delete', { bot_id: bot });
    expect((await mem(owner, 'events/list', { bot_id: bot })).events).toEqual([]);
  });

  it('shares a memory base between bots, keeps only its keys, and is refused deletion while in use', async () => {
    const lt = (p: string, body: Record<string, unknown>) =>
      owner.post(`/api/long_term_memory/${p}`, { space_id: space, ...body });
    const { memorybase_id } = await lt('memorybase/create', {
      name: 'Customers',
      metas: [{ key: 'city', description: 'where they live' }],
    });
    expect(
      (await owner.request('POST', '/api/long_term_memory/memorybase/create', { space_id: space, name: 'customers' }))
        .status,
    ).toBe(409);
    const badKey = await owner.request('POST', '/api/long_term_memory/memorybase/create', {
      space_id: space,
      name: 'Other',
      metas: [{ key: 'Home Town' }],
    });
    expect([badKey.status, badKey.body.msg]).toEqual([
      400,
      'Invalid request: metas.0.key: A key uses lower-case letters, digits and _ (starting with a letter), at most 64.',
    ]);
    const first = await memoryBot({ memory_base_id: memorybase_id }, 'Front desk');
    const second = await memoryBot({ memory_base_id: memorybase_id }, 'Concierge');
    // The first bot's chat: the extraction is told the base's keys and only they are kept.
    llm.script({ text: 'Welcome, Ada.' }, { text: '{"city": "Lyon", "name": "Ada"}' });
    await debugChat(owner, space, first, 'I am Ada, I live in Lyon');
    const kept = await until(
      () => mem(owner, 'profile/list', { memorybase_id }),
      (r) => r.facts.length > 0,
    );
    expect(kept.facts.map((f: { key: string; value: string }) => [f.key, f.value])).toEqual([['city', 'Lyon']]);
    expect(llm.requests[1].body.messages[0].content).toMatch(/Keep only these keys: city \(where they live\)\./);
    // The second bot remembers it too (through the bot as well as the base).
    expect((await mem(owner, 'profile/list', { bot_id: second })).facts.map((f: { key: string }) => f.key)).toEqual([
      'city',
    ]);
    llm.script({ text: 'In Lyon.' }, { text: '{}' });
    await debugChat(owner, space, second, 'Where do I live?');
    expect(
      llm.requests.find((r) => r.body.messages.at(-1)?.content === 'Where do I live?')!.body.messages[0].content,
    ).toMatch(/- city: Lyon/);
    // Counts, never values; another member sees nothing of Ada's memory.
    expect(await lt('get_memory_meta_user_list', { memorybase_id })).toEqual({
      user_count: 1,
      keys: [{ key: 'city', user_count: 1 }],
    });
    const { agent: other, user } = await signUp(studio.url);
    await owner.post('/api/space/member/add', { space_id: space, user_ids: [user.user_id] });
    expect((await mem(other, 'profile/list', { memorybase_id })).facts).toEqual([]);
    // Keys are added and removed by key.
    expect(
      (
        await lt('update_memory_meta', {
          memorybase_id,
          metas: [
            { key: 'diet', description: 'what they eat' },
            { key: 'city', description: 'home city' },
          ],
        })
      ).metas,
    ).toEqual([
      { key: 'city', description: 'home city' },
      { key: 'diet', description: 'what they eat' },
    ]);
    expect(
      (await lt('delete_memory_meta', { memorybase_id, keys: ['diet'] })).metas.map((m: { key: string }) => m.key),
    ).toEqual(['city']);
    // Events are corrected in place; someone else's event is not found.
    const ev = await mem(owner, 'events/create', {
      memorybase_id,
      content: 'Dinner booking',
      time: '2026-12-24T19:00:00Z',
    });
    await mem(owner, 'events/update', { memorybase_id, id: ev.id, time: '2026-12-24T20:00:00Z' });
    expect((await mem(owner, 'events/list', { memorybase_id })).events).toEqual([
      { id: ev.id, content: 'Dinner booking', time: '2026-12-24T20:00:00.000Z' },
    ]);
    expect(
      (
        await other.request('POST', '/api/memory/long_term/events/update', {
          space_id: space,
          memorybase_id,
          id: ev.id,
          content: 'mine now',
        })
      ).status,
    ).toBe(404);
    // In use: deletion names the bots. The library lists it as a kind of its own; a copy takes its keys, not what it remembers.
    const refused = await owner.request('POST', '/api/long_term_memory/memorybase/delete', {
      space_id: space,
      memorybase_id,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toMatch(
      /Front desk, Concierge use this memory base|Concierge, Front desk use this memory base/,
    );
    expect(
      (
        await owner.post('/api/resource/library_resource_list', { space_id: space, res_type_filter: ['memory'] })
      ).resource_list.map((r: { name: string }) => r.name),
    ).toEqual(['Customers']);
    const copy = await owner.post('/api/library/resource/copy', {
      space_id: space,
      res_type: 'memory',
      res_id: memorybase_id,
      name: 'Customers copy',
    });
    expect((await lt('memorybase/get', { memorybase_id: copy.res_id })).memorybase).toMatchObject({
      name: 'Customers copy',
      metas: [{ key: 'city', description: 'home city' }],
    });
    expect((await mem(owner, 'profile/list', { memorybase_id: copy.res_id })).facts).toEqual([]);
    await lt('memorybase/delete', { memorybase_id: copy.res_id });
    expect((await lt('memorybase/list', {})).memorybases.map((b: { name: string }) => b.name)).toEqual(['Customers']);
  });
});
