import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CozeAPI } from '@coze/api';
import { Agent, signUp } from '../agent.ts';
import { answerOf, completed, debugChat, draftBot, postRaw, readSse } from '../bots-kit.ts';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { API_KEY, petStoreOpenApi3, startPluginServer, type PluginServer } from '../fixtures/plugin-server.ts';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { greetingCanvas, unique } from '../workflow-kit.ts';

// Cards: the DSL checked when saved and bounded when shown, versions, templates, generation by a model, and a card
// bound to a plugin API shown in a bot's answer (its text where cards cannot show).
let studio: RunningStudio;
let llm: FakeLlm;
let pets: PluginServer;
let owner: Agent;
let space: string;
beforeAll(async () => {
  [llm, pets] = await Promise.all([startFakeLlm(), startPluginServer()]);
  studio = await startStudio({ env: { TESSERA_ALLOW_PRIVATE_NETWORK: 'true' } });
  owner = (await signUp(studio.url)).agent;
  space = (await owner.post('/api/space/create', { name: 'Cards' })).space_id;
});
afterAll(async () => {
  await studio.close();
  await Promise.all([llm.close(), pets.close()]);
});
beforeEach(() => llm.reset());

const post = (p: string, body: Record<string, unknown> = {}) => owner.post(p, { space_id: space, ...body });
const raw = (p: string, body: Record<string, unknown>) => owner.request('POST', p, { space_id: space, ...body });

/** The pet store as a plugin of the space (published), and its getPet API. */
async function petPlugin() {
  const { plugin_id } = await post('/api/plugin_api/register', {
    openapi: petStoreOpenApi3(pets.url),
    name: unique('Pets'),
    service_token: API_KEY,
  });
  const info = await post('/api/plugin_api/get_plugin_info', { plugin_id });
  await post('/api/plugin_api/publish_plugin', { plugin_id, version_name: 'v1', version_desc: '' });
  return { plugin_id: plugin_id as string, getPet: info.api_info.find((a: any) => a.name === 'getPet') };
}

/** A bot of the space on the fake model with these skills. */
const botWith = (name: string, model: string, skills: Record<string, unknown>) =>
  draftBot(owner, space, { name: unique(name), model, skills });

const PET_CARD = {
  version: 1,
  title: '{{name}}',
  body: [
    { type: 'text', text: 'Pet #{{id}}', style: 'caption' },
    { type: 'list', items: '{{tags}}', children: [{ type: 'text', text: '{{index}}. {{item}}' }] },
    { type: 'button', label: 'Adopt {{name}}', action: { type: 'message', text: 'I want to adopt {{name}}' } },
    { type: 'button', label: 'Profile', action: { type: 'link', url: '{{profile}}' } },
  ],
  sample: { id: 7, name: 'Sample', tags: ['a'], profile: 'https://pets.example/7' },
};

describe('the card DSL', () => {
  it('refuses hostile or oversized cards with the first problem named, and saves nothing', async () => {
    const { card } = await post('/api/card/create_card', { name: 'Safe' });
    const bad = [
      [{ body: [{ type: 'image', url: 'javascript:alert(1)' }] }, /http\(s\)/],
      [{ body: [{ type: 'button', label: 'x', action: { type: 'link', url: 'data:text/html,hi' } }] }, /http\(s\)/],
      [{ body: [{ type: 'html', html: '<script>' }] }, /body\.0/],
      [{ body: Array.from({ length: 201 }, () => ({ type: 'divider' })) }, /200/],
      [
        {
          body: [
            {
              type: 'row',
              children: [
                {
                  type: 'row',
                  children: [
                    {
                      type: 'row',
                      children: [
                        {
                          type: 'row',
                          children: [{ type: 'row', children: [{ type: 'row', children: [{ type: 'divider' }] }] }],
                        },
                      ],
                    },
                  ],
                },
              ],
            },
          ],
        },
        /nest 6 deep/,
      ],
      [{ body: [{ type: 'text', text: 'x'.repeat(2001) }] }, /2000/],
      [{ body: [{ type: 'list', items: 'not a variable', children: [{ type: 'divider' }] }] }, /one variable/],
    ] as const;
    for (const [dsl, problem] of bad) {
      const r = await raw('/api/card_builder/update', { card_id: card.card_id, dsl });
      expect(r.status).toBe(400);
      expect(r.body.msg).toMatch(problem);
      expect(r.body.code).toBeGreaterThan(0);
    }
    const kept = await post('/api/card/query_card_detail', { card_id: card.card_id });
    expect(kept.dsl.body).toEqual([{ type: 'text', text: 'Hello {{name}}' }]);
    const big = await post('/api/card_builder/check_card_length', {
      dsl: { body: [{ type: 'text', text: 'y'.repeat(1500) }], sample: { blob: 'z'.repeat(70_000) } },
    });
    expect(big).toMatchObject({ ok: false, limit: 64_000, problem: expect.stringMatching(/64 KB/) });
  });

  it('fills a card: lists bounded by the rows shown, script links from the data dropped, text for other channels', async () => {
    const r = await post('/api/card_builder/preview', {
      dsl: PET_CARD,
      data: {
        id: 3,
        name: 'Tom <b>',
        tags: Array.from({ length: 100_000 }, (_, i) => `tag${i}`),
        profile: 'javascript:alert(1)',
      },
      max_display_rows: 3,
    });
    expect(r.card.title).toBe('Tom <b>');
    const list = r.card.body[1];
    expect(list.items).toHaveLength(3);
    expect(list.items[2]).toEqual([{ type: 'text', text: '3. tag2' }]);
    expect(list.more).toBe(99_997);
    expect(r.card.body[2]).toEqual({
      type: 'button',
      label: 'Adopt Tom <b>',
      action: { type: 'message', text: 'I want to adopt Tom <b>' },
    });
    // The link's address was not http(s): the button shows, without its action.
    expect(r.card.body[3]).toEqual({ type: 'button', label: 'Profile' });
    expect(r.card.text).toBe(
      'Tom <b>\nPet #3\n- 1. tag0\n- 2. tag1\n- 3. tag2\n  … +99997\n[Adopt Tom <b>]\n[Profile]',
    );
    // The thumbnail is SVG with every text escaped.
    const svg = Buffer.from(r.thumbnail.replace('data:image/svg+xml;base64,', ''), 'base64').toString();
    expect(svg).toMatch(/^<svg /);
    expect(svg).toContain('Tom &lt;b&gt;');
    expect(svg).not.toContain('<b>');
  });
});

describe('the builder', () => {
  it('makes a card from a template, publishes versions, keeps templates and restores a version', async () => {
    const { templates } = await post('/api/card_builder/mget_template');
    expect(templates.map((t: any) => t.template_id)).toEqual([
      'builtin-list',
      'builtin-table',
      'builtin-article',
      'builtin-weather',
    ]);
    const { card } = await post('/api/card/create_card', { name: 'Weather', template_id: 'builtin-weather' });
    expect(card).toMatchObject({ card_status: 0, version_num: 0, modified: true });
    expect(card.thumbnail).toMatch(/^data:image\/svg\+xml;base64,/);
    const first = await post('/api/card_builder/publish', { card_id: card.card_id, description: 'first' });
    expect(first.card).toMatchObject({ card_status: 1, version_num: 1, modified: false });
    const detail = await post('/api/card/query_card_detail', { card_id: card.card_id });
    await post('/api/card_builder/update', {
      card_id: card.card_id,
      dsl: { ...detail.dsl, title: 'Weather in {{city}}' },
    });
    expect((await post('/api/card/query_card_detail', { card_id: card.card_id })).card.modified).toBe(true);
    await post('/api/card_builder/publish', { card_id: card.card_id });
    const { versions } = await post('/api/card_builder/query_history', { card_id: card.card_id });
    expect(versions.map((v: any) => [v.version_num, v.dsl.title])).toEqual([
      [2, 'Weather in {{city}}'],
      [1, '{{city}}'],
    ]);
    // A template of the space, listed after the built-in ones; built-in ones cannot be deleted.
    const { template } = await post('/api/card_builder/save_template', { name: 'Mine', dsl: versions[1].dsl });
    expect((await post('/api/card_builder/mget_template')).templates.at(-1)).toMatchObject({
      name: 'Mine',
      builtin: false,
    });
    expect((await raw('/api/card_builder/delete_template', { template_id: 'builtin-list' })).status).toBe(400);
    await post('/api/card_builder/delete_template', { template_id: template.template_id });
    const list = await post('/api/card/query_card_list', { name: 'Weath' });
    expect(list.cards.map((c: any) => c.card_id)).toEqual([card.card_id]);
  });

  it('has a model write a card from a description, streamed, and refuses one it gets wrong', async () => {
    const model = await addFakeModel(owner, llm.url);
    await post('/api/space/models/default', { model_id: model, kind: 'chat' }).catch(() => undefined);
    const dsl = { version: 1, title: 'Hotels', body: [{ type: 'text', text: '{{name}}' }], sample: { name: 'Ritz' } };
    llm.script({ text: `Here it is:\n\`\`\`json\n${JSON.stringify(dsl)}\n\`\`\``, chunkSize: 10 });
    const res = await postRaw(owner, '/api/card_builder/generate_card_stream', {
      space_id: space,
      description: 'Hotels by name',
    });
    const events = await readSse(res);
    expect(events.filter((e) => e.event === 'delta').length).toBeGreaterThan(3);
    expect(events.at(-1)).toEqual({ event: 'done', data: { dsl } });
    expect(llm.requests[0].body.messages[0].content).toContain('"type":"table"');
    llm.script({ text: '{"body":[{"type":"image","url":"javascript:x"}]}' });
    const wrong = await raw('/api/card_builder/generate_card', { description: 'A broken card' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toMatch(/did not write a card.*http\(s\)/);
  });

  it('keeps cards to the members of their space', async () => {
    const { card } = await post('/api/card/create_card', { name: 'Private' });
    const stranger = (await signUp(studio.url)).agent;
    const r = await stranger.request('POST', '/api/card/query_card_detail', { card_id: card.card_id });
    expect(r.status).toBe(403);
    const list = await stranger.request('POST', '/api/card/query_card_list', { space_id: space });
    expect(list.status).toBe(403);
  });
});

describe('a card in a bot’s answer', () => {
  it('shows the card bound to a plugin API when the bot used it, in the debug chat and the open API', async () => {
    const model = await addFakeModel(owner, llm.url, { capabilities: { function_call: true } });
    const { plugin_id, getPet } = await petPlugin();
    const { card } = await post('/api/card/create_card', { name: 'Pet', dsl: PET_CARD });
    // What it can be bound to: the published APIs with their output's fields.
    const { targets } = await post('/api/card/bind_targets');
    expect(targets.find((t: any) => t.biz_id === getPet.api_id)).toMatchObject({
      biz_type: 1,
      plugin_id,
      fields: expect.arrayContaining(['name', 'tags']),
    });
    expect(
      (await raw('/api/card/bind_card', { card_id: card.card_id, biz_type: 1, biz_id: 'nope', plugin_id })).status,
    ).toBe(400);
    await post('/api/card/bind_card', {
      card_id: card.card_id,
      biz_type: 1,
      biz_id: getPet.api_id,
      plugin_id,
      mapping_rule: { profile: 'missing.field' },
      max_display_rows: 5,
    });
    expect(
      (await post('/api/card/get_bind_card_status', { biz_type: 1, biz_ids: [getPet.api_id, 'other'] })).status,
    ).toEqual({ [getPet.api_id]: card.card_id });

    const bot_id = await botWith('pet bot', model, { plugins: { apis: [{ plugin_id, api_id: getPet.api_id }] } });
    // Not published yet: no card.
    llm.script({ toolCalls: [{ name: 'getPet', arguments: { petId: 1 } }] }, { text: 'Pet 1 is Rex.' });
    let events = await debugChat(owner, space, bot_id, 'Who is pet 1?');
    expect(completed(events, 'answer').map((m) => m.content_type)).toEqual(['text']);

    await post('/api/card_builder/publish', { card_id: card.card_id });
    llm.script({ toolCalls: [{ name: 'getPet', arguments: { petId: 1 } }] }, { text: 'Pet 1 is Rex.' });
    events = await debugChat(owner, space, bot_id, 'Who is pet 1?');
    expect(answerOf(events)).toBe('Pet 1 is Rex.');
    const answers = completed(events, 'answer');
    expect(answers.map((m) => m.content_type)).toEqual(['card', 'text']);
    expect(answers[0].meta_data).toMatchObject({ tool_output: 'getPet', card_id: card.card_id });
    const shown = JSON.parse(answers[0].content);
    expect(shown).toMatchObject({
      card_id: card.card_id,
      version_num: 1,
      name: 'Pet',
      title: 'Rex',
      body: [
        { type: 'text', text: 'Pet #1' },
        { type: 'list', items: [[{ type: 'text', text: '1. dog' }]], more: 0 },
        { type: 'button', label: 'Adopt Rex', action: { type: 'message', text: 'I want to adopt Rex' } },
        { type: 'button', label: 'Profile' },
      ],
    });
    expect(shown.text).toContain('Adopt Rex');
    // The card is kept in the conversation, and the next turn's model does not read it as its own answer.
    llm.script({ text: 'Yes.' });
    await debugChat(owner, space, bot_id, 'Really?');
    expect(
      llm.requests
        .at(-1)!
        .body.messages.filter((m: any) => m.role === 'assistant')
        .map((m: any) => m.content),
    ).toEqual(['Pet 1 is Rex.', 'Pet 1 is Rex.']);

    // Through the open API, as the @coze/api SDK reads it.
    await post('/api/draftbot/publish', { bot_id, connectors: ['1024'] });
    const pat = await owner.post('/api/permission_api/pat/create', {
      name: 'app',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['bot.chat'] }],
    });
    const coze = new CozeAPI({ token: pat.token, baseURL: studio.url });
    llm.script({ toolCalls: [{ name: 'getPet', arguments: { petId: 1 } }] }, { text: 'Rex.' });
    const polled = await coze.chat.createAndPoll({
      bot_id,
      user_id: 'u1',
      additional_messages: [{ role: 'user' as never, content: 'Pet 1?', content_type: 'text' }],
    });
    const card3 = polled.messages?.find((m) => m.type === 'answer' && m.content_type === 'card');
    expect(JSON.parse(card3!.content).title).toBe('Rex');
  });

  it('shows the card bound to a workflow when the bot ran it as a tool', async () => {
    const model = await addFakeModel(owner, llm.url, { capabilities: { function_call: true } });
    const { workflow_id } = await post('/api/workflow_api/create', { name: 'greeter', desc: 'Greets a person' });
    await post('/api/workflow_api/save', { workflow_id, schema: greetingCanvas() });
    await post('/api/workflow_api/publish', { workflow_id, workflow_version: 'v1.0.0', force: true });
    const { targets } = await post('/api/card/bind_targets');
    expect(targets.find((t: any) => t.biz_id === workflow_id)).toEqual({
      biz_type: 2,
      biz_id: workflow_id,
      plugin_id: '',
      name: 'greeter',
      fields: ['message'],
    });
    const { card } = await post('/api/card/create_card', {
      name: 'Greeting',
      dsl: { version: 1, body: [{ type: 'text', text: '{{greeting}}', style: 'title' }] },
    });
    await post('/api/card_builder/publish', { card_id: card.card_id });
    await post('/api/card/bind_card', {
      card_id: card.card_id,
      biz_type: 2,
      biz_id: workflow_id,
      mapping_rule: { greeting: 'message' },
    });
    const bot_id = await botWith('greeter bot', model, { workflows: { workflows: [{ workflow_id }] } });
    llm.script({ toolCalls: [{ name: 'greeter', arguments: { name: 'Ada' } }] }, { text: 'Done.' });
    const events = await debugChat(owner, space, bot_id, 'Greet Ada');
    const [shown] = completed(events, 'answer').filter((m) => m.content_type === 'card');
    expect(JSON.parse(shown.content).body).toEqual([{ type: 'text', text: 'Hello, Ada!', style: 'title' }]);
    // Ideas for cards of its output, from the model.
    llm.script({ text: '- A greeting in big letters\n- A greeting with a wave button' });
    const { suggestions } = await post('/api/card_builder/generate_card_suggestion', {
      biz_type: 2,
      biz_id: workflow_id,
    });
    expect(suggestions).toEqual(['A greeting in big letters', 'A greeting with a wave button']);
    expect(llm.requests.at(-1)!.body.messages.at(-1).content).toContain('fields are: message');
  });

  it('marks a card that stands for the answer (the model’s text is not shown beside it)', async () => {
    const { card } = await post('/api/card/create_card', {
      name: 'Echo',
      dsl: { version: 1, title: 'Echo', body: [{ type: 'text', text: 'got {{name}}' }] },
    });
    await post('/api/card_builder/publish', { card_id: card.card_id });
    const model = await addFakeModel(owner, llm.url, { capabilities: { function_call: true } });
    const { plugin_id, getPet } = await petPlugin();
    await post('/api/card/bind_card', {
      card_id: card.card_id,
      biz_type: 1,
      biz_id: getPet.api_id,
      plugin_id,
      llm_text_card: false,
    });
    const bot_id = await botWith('echo bot', model, { plugins: { apis: [{ plugin_id, api_id: getPet.api_id }] } });
    llm.script({ toolCalls: [{ name: 'getPet', arguments: { petId: 1 } }] }, { text: 'Rex.' });
    const events = await debugChat(owner, space, bot_id, 'Pet 1?');
    const answers = completed(events, 'answer');
    expect(answers.map((m) => m.content_type)).toEqual(['card', 'text']);
    expect(answers[0]).toMatchObject({ meta_data: { llm_text: 'hide', tool_output: 'getPet' } });
    expect(JSON.parse(answers[0].content).body).toEqual([{ type: 'text', text: 'got Rex' }]);
  });
});
