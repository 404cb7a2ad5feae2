import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type Agent } from '../agent.ts';
import { debugChat, postRaw, readSse } from '../bots-kit.ts';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { link, node, ref } from '../workflow-kit.ts';

// Prompts: a library per space with drafts, versions and labels; the open API renders by key and label (moving
// a label changes what apps get at once); the playground streams a model's answer and keeps a history.
let studio: RunningStudio;
let llm: FakeLlm;
let agent: Agent;
let space: string;
let model: string;
let token: string;

const base = '/api/prompt/v1/prompts';
const open = (path: string, body: Record<string, unknown>) =>
  fetch(`${studio.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ workspace_id: space, ...body }),
  });
const detail = (system: string, extra: Record<string, unknown> = {}) => ({
  prompt_template: {
    template_type: 'normal',
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: '{{question}}' },
    ],
    variable_defs: [{ key: 'question' }],
  },
  model_config: { model_id: model, temperature: 0 },
  ...extra,
});

beforeAll(async () => {
  llm = await startFakeLlm();
  studio = await startStudio();
  agent = (await signUp(studio.url)).agent;
  space = (await agent.post('/api/space/create', { name: 'Prompts' })).space_id;
  model = await addFakeModel(agent, llm.url);
  token = (
    await agent.post('/api/permission_api/pat/create', {
      name: 'app',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['prompt.read'] }],
    })
  ).token;
});
afterAll(async () => {
  await studio?.close();
  await llm?.close();
});

describe('prompts', () => {
  let id: string;

  it('keeps a draft, commits versions that grow, and labels one: the render API follows the label at once', async () => {
    id = (await agent.post(base, { workspace_id: space, prompt_key: 'support.reply', prompt_name: 'Support reply' }))
      .prompt_id;
    expect(
      (await agent.request('POST', base, { workspace_id: space, prompt_key: 'support.reply', prompt_name: 'Again' }))
        .status,
    ).toBe(409);
    expect(
      (await agent.request('POST', base, { workspace_id: space, prompt_key: '1 bad key', prompt_name: 'Bad' })).status,
    ).toBe(400);
    await agent.post(`${base}/${id}/drafts/save`, {
      prompt_draft: {
        detail: detail('You answer politely in {{lang}}.', {
          prompt_template: {
            template_type: 'normal',
            messages: [
              { role: 'system', content: 'You answer politely in {{lang}}.' },
              { role: 'user', content: '{{question}}' },
            ],
            variable_defs: [{ key: 'lang' }, { key: 'question' }],
          },
        }),
      },
    });
    expect((await agent.post(`${base}/${id}/drafts/commit`, { commit_description: 'first' })).version).toBe('0.0.1');
    await agent.post(`${base}/${id}/drafts/save`, {
      prompt_draft: {
        detail: detail('You answer briefly in {{lang}}.', {
          prompt_template: {
            template_type: 'normal',
            messages: [
              { role: 'system', content: 'You answer briefly in {{lang}}.' },
              { role: 'user', content: '{{question}}' },
            ],
            variable_defs: [{ key: 'lang' }, { key: 'question' }],
          },
        }),
      },
    });
    const small = await agent.request('POST', `${base}/${id}/drafts/commit`, { commit_version: '0.0.1' });
    expect([small.status, small.body.msg]).toEqual([400, 'The version must be greater than 0.0.1, the last one.']);
    expect(
      (await agent.post(`${base}/${id}/drafts/commit`, { commit_version: '1.0.0', commit_description: 'brief' }))
        .version,
    ).toBe('1.0.0');
    await agent.post(`${base}/${id}/labels/set`, { label: 'production', version: '0.0.1' });

    const rendered = async (body: Record<string, unknown>) =>
      (
        await (
          await open('/v1/loop/prompts/render', {
            prompt_key: 'support.reply',
            variables: { lang: 'French', question: 'Where is my parcel?' },
            ...body,
          })
        ).json()
      ).data;
    expect(await rendered({ label: 'production' })).toMatchObject({
      version: '0.0.1',
      messages: [
        { role: 'system', content: 'You answer politely in French.' },
        { role: 'user', content: 'Where is my parcel?' },
      ],
      missing_variables: [],
    });
    expect((await rendered({})).version).toBe('1.0.0');
    await agent.post(`${base}/${id}/labels/set`, { label: 'production', version: '1.0.0' });
    expect((await rendered({ label: 'production' })).messages[0].content).toBe('You answer briefly in French.');
    // mget gives the template for apps that render themselves; an unknown label is a not-found.
    const mget = (
      await (
        await open('/v1/loop/prompts/mget', { queries: [{ prompt_key: 'support.reply', label: 'production' }] })
      ).json()
    ).data;
    expect(mget.items[0].prompt).toMatchObject({
      prompt_key: 'support.reply',
      version: '1.0.0',
      prompt_template: { template_type: 'normal' },
    });
    const none = await open('/v1/loop/prompts/render', { prompt_key: 'support.reply', label: 'staging' });
    expect([none.status, (await none.json()).code]).toEqual([404, 4200]);
    // Versions list with their labels; the draft goes back to a version.
    const commits = (await agent.post(`${base}/${id}/commits/list`, {})).prompt_commit_infos;
    expect(commits.map((c: { version: string; labels: string[] }) => [c.version, c.labels])).toEqual([
      ['1.0.0', ['production']],
      ['0.0.1', []],
    ]);
    await agent.post(`${base}/${id}/drafts/revert_from_commit`, { commit_version_reverting_from: '0.0.1' });
    const got = (await agent.get(`${base}/${id}`)).prompt;
    expect(got.prompt_draft.detail.prompt_template.messages[0].content).toBe('You answer politely in {{lang}}.');
    expect(got.prompt_draft.draft_info).toMatchObject({ base_version: '0.0.1', is_modified: false });
    // Without the permission, or from another space's member: refused.
    const stranger = (await signUp(studio.url)).agent;
    expect((await stranger.request('GET', `${base}/${id}`)).status).toBe(403);
  });

  it('renders Jinja-like loops and placeholder messages, and refuses what cannot render', async () => {
    const pid = (await agent.post(base, { workspace_id: space, prompt_key: 'digest', prompt_name: 'Digest' }))
      .prompt_id;
    await agent.post(`${base}/${pid}/drafts/save`, {
      prompt_draft: {
        detail: {
          prompt_template: {
            template_type: 'jinja2',
            messages: [
              { role: 'system', content: 'Items:{% for i in items %} {{ i | upcase }}{% endfor %}' },
              { role: 'placeholder', content: 'history' },
            ],
            variable_defs: [{ key: 'items' }, { key: 'history', type: 'placeholder' }],
          },
        },
      },
    });
    await agent.post(`${base}/${pid}/drafts/commit`, {});
    const r = await (
      await open('/v1/loop/prompts/render', {
        prompt_key: 'digest',
        variables: {
          items: ['tea', 'milk'],
          history: [
            { role: 'user', content: 'hi' },
            { role: 'assistant', content: 'hello' },
          ],
        },
      })
    ).json();
    expect(r.data.messages).toEqual([
      { role: 'system', content: 'Items: TEA MILK' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
    ]);
    const bad = await open('/v1/loop/prompts/render', {
      prompt_key: 'digest',
      variables: { items: [], history: 'not a list' },
    });
    expect([bad.status, (await bad.json()).msg]).toEqual([
      400,
      'The placeholder history takes a list of messages ({ role, content }).',
    ]);
    // A template may not reach outside its variables.
    await agent.post(`${base}/${pid}/drafts/save`, {
      prompt_draft: {
        detail: {
          prompt_template: {
            template_type: 'jinja2',
            messages: [{ role: 'system', content: '{{ items.constructor.name }}|{{ items.__proto__ }}' }],
          },
        },
      },
    });
    await agent.post(`${base}/${pid}/drafts/commit`, {});
    expect(
      (await (await open('/v1/loop/prompts/render', { prompt_key: 'digest', variables: { items: [] } })).json()).data
        .messages[0].content,
    ).toBe('|');
  });

  it('refuses templates that would read files ({% include %}, {% render %}, {% layout %}), when saved and when created', async () => {
    const pid = (await agent.post(base, { workspace_id: space, prompt_key: 'files.attempt', prompt_name: 'Files' }))
      .prompt_id;
    for (const [tag, content] of [
      ['include', "{% include 'package.json' %}"],
      ['render', "{%- render '../data/secret.key' -%}"],
      ['layout', "{% layout 'README.md' %}x"],
      ['include', "{% liquid\n include 'package.json'\n %}"],
    ]) {
      const r = await agent.request('POST', `${base}/${pid}/drafts/save`, {
        prompt_draft: {
          detail: { prompt_template: { template_type: 'jinja2', messages: [{ role: 'system', content }] } },
        },
      });
      expect(r.status, content).toBe(400);
      expect(r.body.msg).toContain(`{% ${tag} %} is not allowed`);
    }
    const created = await agent.request('POST', base, {
      workspace_id: space,
      prompt_key: 'files.created',
      prompt_name: 'Files',
      draft_detail: {
        prompt_template: {
          template_type: 'jinja2',
          messages: [{ role: 'user', content: "{% include 'package.json' %}" }],
        },
      },
    });
    expect([created.status, created.body.msg]).toEqual([400, expect.stringContaining('{% include %} is not allowed')]);
    // The draft saved before is still there; unfinished syntax may be saved as a draft, but not committed.
    await agent.post(`${base}/${pid}/drafts/save`, {
      prompt_draft: {
        detail: {
          prompt_template: { template_type: 'jinja2', messages: [{ role: 'system', content: '{% if x %}unfinished' }] },
        },
      },
    });
    const commit = await agent.request('POST', `${base}/${pid}/drafts/commit`, {});
    expect([commit.status, commit.body.msg]).toEqual([
      400,
      expect.stringMatching(/^The template of a system message does not parse: .*Correct it before committing\.$/),
    ]);
  });

  it('tries a prompt in the playground, streamed, on its model or another, and keeps the runs', async () => {
    llm.script({ text: 'Bonjour ! Votre colis arrive demain.', chunkSize: 6 });
    const res = await postRaw(agent, `${base}/${id}/debug_streaming`, {
      version: 'draft',
      variable_vals: { lang: 'French', question: 'Where is my parcel?' },
    });
    const events = await readSse(res);
    expect(
      events
        .filter((e) => e.event === 'message')
        .map((e) => e.data.content)
        .join(''),
    ).toBe('Bonjour ! Votre colis arrive demain.');
    const done = events.find((e) => e.event === 'done')!.data;
    expect(done).toMatchObject({ missing_variables: [] });
    expect(llm.requests.at(-1)!.body.messages[0]).toEqual({
      role: 'system',
      content: 'You answer politely in French.',
    });
    const history = (await agent.post(`${base}/${id}/debug_history/list`, {})).debug_history;
    expect(history[0]).toMatchObject({
      debug_id: done.debug_id,
      status: 'success',
      output: 'Bonjour ! Votre colis arrive demain.',
      variable_vals: { lang: 'French', question: 'Where is my parcel?' },
    });
    // No model: a clear refusal before anything streams.
    const pid = (await agent.post(base, { workspace_id: space, prompt_key: 'nomodel', prompt_name: 'No model' }))
      .prompt_id;
    const refused = await agent.request('POST', `${base}/${pid}/debug_streaming`, { variable_vals: {} });
    expect([refused.status, refused.body.msg]).toEqual([400, 'Choose a model to try the prompt on.']);
  });

  it('lets an LLM node use a library prompt by key and label, with its inputs as the variables', async () => {
    const flow = (prompt_ref: Record<string, unknown>) => ({
      nodes: [
        node('start', '1', {
          outputs: [
            { name: 'lang', type: 'string' },
            { name: 'question', type: 'string' },
          ],
        }),
        node('llm', '3', {
          title: 'LLM',
          inputs: [ref('lang', 'start', ['lang']), ref('question', 'start', ['question'])],
          settings: { model_id: model, prompt_ref },
        }),
        node('end', '2', { title: 'End', inputs: [ref('answer', 'llm', ['output'])] }),
      ],
      links: [link('start', 'llm'), link('llm', 'end')],
    });
    const wf = (p: string, body: Record<string, unknown>) =>
      agent.post(`/api/workflow_api/${p}`, { space_id: space, ...body });
    const { workflow_id } = await wf('create', { name: 'uses a library prompt' });
    await wf('save', { workflow_id, schema: flow({ prompt_key: 'support.reply', label: 'production' }) });
    llm.script({ text: 'Demain.' });
    const r = await wf('test_run', { workflow_id, input: { lang: 'French', question: 'When?' }, run_mode: 0 });
    expect(JSON.parse(r.output)).toEqual({ answer: 'Demain.' });
    expect(llm.requests.at(-1)!.body.messages).toEqual([
      { role: 'system', content: 'You answer briefly in French.' },
      { role: 'user', content: 'When?' },
    ]);
    // A label no version has: the node fails, saying which.
    await wf('save', { workflow_id, schema: flow({ prompt_key: 'support.reply', label: 'nowhere' }) });
    const failed = await wf('test_run', { workflow_id, input: { lang: 'French', question: 'When?' }, run_mode: 0 });
    expect(failed.error ?? JSON.stringify(failed)).toMatch(
      /no version labelled nowhere of the library prompt support\.reply/,
    );
  });

  it("gives a bot its persona from the library by key and label, filled with the bot's variables", async () => {
    const { bot_id } = await agent.post('/api/draftbot/create', { space_id: space, name: 'Library persona' });
    const info = (await agent.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: space, bot_id }))
      .bot_info;
    await agent.post('/api/playground_api/draftbot/update_draft_bot_info', {
      space_id: space,
      bot_id,
      base_revision: info.revision,
      config: {
        ...info.config,
        settings: {
          prompt: 'ignored',
          prompt_ref: { prompt_key: 'support.reply', label: 'production' },
          model: { model_id: model },
        },
        skills: { variables: { variables: [{ name: 'lang', default_value: 'Italian' }] } },
      },
    });
    llm.script({ text: 'Ciao.' });
    await debugChat(agent, space, bot_id, 'Hello?');
    expect(llm.requests.at(-1)!.body.messages[0]).toEqual({
      role: 'system',
      content: expect.stringMatching(/^You answer briefly in Italian\./),
    });
  });
});
