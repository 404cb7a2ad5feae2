import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, signUp } from '../agent.ts';
import { postRaw, readSse } from '../bots-kit.ts';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { link, node, ref, unique } from '../workflow-kit.ts';

// Agent apps (the agent app builder) with the whole studio: an app around a bot written by a chat model from a
// description (the fake model's JSON), its texts written by the model, its bot changed; its chat answering a visitor
// of the published app through the bot (published to the Web app channel) and refusing a bot that is not; its
// publications kept; packages and installing one; apps in projects, published with the project's access.
let studio: RunningStudio;
let llm: FakeLlm;
let owner: Agent;
let space: string;
let bot: string;
let workflow: string;
const AB = '/api/agent_app_builder/v1';

async function makeBot(name: string, model: string) {
  const id = (await owner.post('/api/draftbot/create', { space_id: space, name })).bot_id;
  const info = (await owner.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: space, bot_id: id }))
    .bot_info;
  await owner.post('/api/playground_api/draftbot/update_draft_bot_info', {
    space_id: space,
    bot_id: id,
    base_revision: info.revision,
    config: { ...info.config, settings: { prompt: 'You help hikers.', model: { model_id: model } } },
  });
  return id;
}
/** Versions rise with each publish (a clock modulo 100,000 wrapped and went back: 'older than the latest'). */
let published = 0;
const publishBot = (id: string, connectors: string[]) =>
  owner.post('/api/draftbot/publish', {
    space_id: space,
    bot_id: id,
    version: `v1.0.${++published}`,
    connectors,
    changelog: '',
  });

beforeAll(async () => {
  llm = await startFakeLlm();
  studio = await startStudio();
  owner = (await signUp(studio.url, 'agent-apps')).agent;
  space = (await owner.post('/api/space/create', { name: 'Agent apps' })).space_id;
  const model = await addFakeModel(owner, llm.url);
  bot = await makeBot('Trail guide', model);
  workflow = (await owner.post('/api/workflow_api/create', { space_id: space, name: unique('plan') })).workflow_id;
  await owner.post('/api/workflow_api/save', {
    space_id: space,
    workflow_id: workflow,
    schema: {
      nodes: [
        node('start', '1', { outputs: [{ name: 'trail', type: 'string', required: true }] }),
        node('text', '15', {
          inputs: [ref('trail', 'start', ['trail'])],
          settings: { mode: 'concat', template: 'Plan for {{trail}}' },
        }),
        node('end', '2', { inputs: [ref('plan', 'text', ['output'])] }),
      ],
      links: [link('start', 'text'), link('text', 'end')],
    },
  });
  await owner.post('/api/workflow_api/publish', {
    space_id: space,
    workflow_id: workflow,
    workflow_version: 'v1.0.0',
    force: true,
  });
});
afterAll(async () => {
  await studio?.close();
  await llm?.close();
});

describe('agent apps', () => {
  let appId: string;

  it('writes an app around a bot from a description, with a form running a workflow', async () => {
    llm.script({
      text:
        'Here it is:\n```json\n' +
        JSON.stringify({
          name: 'Trail Buddy',
          title: 'Plan your next hike',
          tagline: 'Trails, weather and gear in one place.',
          features: ['Trail advice', 'Gear lists <script>'],
          welcome: 'Hi! Where do you want to walk?',
          suggestions: ['Which trail is good in the rain?'],
          form_title: 'Plan a trail',
        }) +
        '\n```',
    });
    const { app } = await owner.post(`${AB}/app/gen_agent_app`, {
      space_id: space,
      description: 'A helper for the hikers of our outdoor shop',
      bot_id: bot,
      workflow_id: workflow,
    });
    appId = app.ui_id;
    expect(app).toMatchObject({ ui_name: 'Trail Buddy', app_kind: 'agent', bot_id: bot });
    expect(app.dsl.pages.map((p: { name: string }) => p.name)).toEqual(['Home', 'Chat', 'Form']);
    const json = JSON.stringify(app.dsl);
    expect(json).toContain('Plan your next hike');
    expect(json).toContain('Gear lists \\\\<script\\\\>');
    expect(app.dsl.events[0]).toMatchObject({
      on: 'submit',
      action: { workflow_id: workflow, inputs: { trail: { from: 'component', component_id: 'field1' } } },
    });
    const asked = llm.requests
      .at(-1)!
      .body.messages.map((m: { content: string }) => m.content)
      .join('\n');
    expect(asked).toContain('A helper for the hikers of our outdoor shop');
    // An answer that is not the app's content is refused in words; nothing is made.
    llm.script({ text: 'Sorry, I cannot.' });
    const bad = await owner.request('POST', `${AB}/app/gen_agent_app`, {
      space_id: space,
      description: 'Another one',
      bot_id: bot,
    });
    expect([bad.status, bad.body.msg]).toEqual([400, expect.stringMatching(/did not answer with the app’s content/)]);
    // A text written by the model for a component.
    llm.script({ text: 'Walk further, worry less.' });
    const { content } = await owner.post(`${AB}/app/ai_generate_content`, {
      app_id: appId,
      instruction: 'A tagline',
      format: 'title',
    });
    expect(content).toBe('Walk further, worry less.');
  });

  it('answers a visitor in the published app’s chat through its bot, on the Web app channel only', async () => {
    const publish = () => owner.request('POST', `${AB}/app/publish/create`, { app_id: appId, access: 'public' });
    const refused = await publish();
    expect([refused.status, refused.body.msg]).toEqual([
      400,
      expect.stringMatching(/chat chat talks to the bot .* publish it there first/),
    ]);
    await publishBot(bot, ['1024']);
    expect((await publish()).status).toBe(400);
    await publishBot(bot, ['web-app']);
    const first = await publish();
    expect(first.body.data).toMatchObject({ path: `/apps/${appId}`, version: 1 });
    await owner.post(`${AB}/app/publish/create`, { app_id: appId, description: 'second' });
    const list = (await owner.post(`${AB}/app/publish/list`, { app_id: appId })).publications;
    expect(list.map((p: { version: number; description: string }) => [p.version, p.description])).toEqual([
      [2, 'second'],
      [1, ''],
    ]);
    expect((await owner.post(`${AB}/app/publish/get`, { app_id: appId, version: 1 })).dsl.pages).toHaveLength(3);

    llm.script({ text: 'Try the river trail.' });
    const visitor = new Agent(studio.url);
    const res = await postRaw(visitor, '/api/ui_builder/v1/app/chat', {
      ui_id: appId,
      component_id: 'chat',
      query: 'Where should I walk?',
      visitor_id: 'visitor-0001',
    });
    const events = await readSse(res);
    const answer = events
      .filter((e) => e.event === 'conversation.message.delta' && e.data.type === 'answer')
      .map((e) => e.data.content)
      .join('');
    expect(answer).toBe('Try the river trail.');
    expect(events.map((e) => e.event)).toContain('conversation.chat.completed');
    // Only the app's own chats: another component id is refused.
    const other = await postRaw(visitor, '/api/ui_builder/v1/app/chat', {
      ui_id: appId,
      component_id: 'title',
      query: 'x',
      visitor_id: 'visitor-0001',
    });
    expect(other.status).toBe(404);
    // The form runs its workflow for the visitor.
    const run = await visitor.post('/api/ui_builder/v1/app/run', {
      ui_id: appId,
      event_id: 'form1_submit',
      values: { field1: 'Ridge' },
    });
    expect(run.variables).toEqual({ answer: 'Plan for Ridge' });
  });

  it('changes its bot, and keeps packages to install as new apps', async () => {
    const second = (await owner.post('/api/draftbot/create', { space_id: space, name: 'Second' })).bot_id;
    const { app } = await owner.post(`${AB}/app/update_agent_bot`, { app_id: appId, bot_id: second });
    expect(app.bot_id).toBe(second);
    expect(JSON.stringify(app.dsl)).toContain(`"bot_id":"${second}"`);
    const stranger = (await signUp(studio.url, 'agent-apps-stranger')).agent;
    const theirs = (await stranger.post('/api/space/create', { name: 'Theirs' })).space_id;
    const theirBot = (await stranger.post('/api/draftbot/create', { space_id: theirs, name: 'Theirs' })).bot_id;
    const foreign = await owner.request('POST', `${AB}/app/update_agent_bot`, { app_id: appId, bot_id: theirBot });
    expect([foreign.status, foreign.body.msg]).toEqual([404, `There is no bot ${theirBot} in this space.`]);

    const { package: pkg } = await owner.post(`${AB}/package/create`, { app_id: appId, name: 'Trail kit', note: 'v1' });
    expect(pkg.latest_version).toBe(1);
    await owner.post(`${AB}/app/update`, { app_id: appId, name: 'Trail Buddy 2' });
    const next = await owner.post(`${AB}/package/update`, {
      package_id: pkg.package_id,
      new_version: true,
      note: 'v2',
    });
    expect(next.package.latest_version).toBe(2);
    expect(
      (await owner.post(`${AB}/package/version/list`, { package_id: pkg.package_id })).versions.map(
        (v: { version: number; note: string }) => `${v.version}:${v.note}`,
      ),
    ).toEqual(['2:v2', '1:v1']);
    expect((await owner.post(`${AB}/package/list`, { space_id: space })).packages).toHaveLength(1);
    expect((await stranger.post(`${AB}/package/batch_get`, { package_ids: [pkg.package_id] })).packages).toEqual([]);
    expect((await stranger.request('POST', `${AB}/package/get`, { package_id: pkg.package_id })).status).toBe(403);
    const installed = (
      await owner.post(`${AB}/app/create`, {
        space_id: space,
        name: 'Installed',
        package_id: pkg.package_id,
        package_version: 1,
      })
    ).app;
    expect(installed).toMatchObject({ app_kind: 'agent', bot_id: second, published_version: 0 });
    expect(installed.dsl.pages).toHaveLength(3);
    await owner.post(`${AB}/package/delete`, { package_id: pkg.package_id });
    expect((await owner.post(`${AB}/package/list`, { space_id: space })).packages).toEqual([]);
  });

  it('lives in projects: published with the project to the Web app channel, with its access', async () => {
    const { app } = await owner.post(`${AB}/app/create`, { space_id: space, name: 'Plain', bot_id: bot });
    const library = await owner.post('/api/resource/library_resource_list', {
      space_id: space,
      res_type_filter: ['ui'],
    });
    expect(JSON.stringify(library)).toContain(app.ui_id);
    const project = (await owner.post('/api/intelligence_api/draft_project/create', { space_id: space, name: 'Site' }))
      .project_id;
    await owner.post('/api/intelligence_api/project/resource/add', {
      project_id: project,
      resources: [{ res_type: 'ui', res_id: app.ui_id }],
    });
    const connectors = (await owner.post('/api/intelligence_api/publish/connector_list', { project_id: project }))
      .connectors;
    expect(connectors.map((c: { id: string }) => c.id)).toContain('web-app');
    const r = await owner.post('/api/intelligence_api/publish/publish_project', {
      project_id: project,
      version_number: '1.0.0',
      connectors: ['web-app'],
      connector_settings: { 'web-app': { access: 'public' } },
    });
    expect(r.results).toEqual([expect.objectContaining({ res_type: 'ui', status: 'published', version: '1' })]);
    const now = (await owner.post(`${AB}/app/get`, { app_id: app.ui_id })).app;
    expect([now.access, now.published_version]).toEqual(['public', 1]);
    const page = await fetch(`${studio.url}/apps/${app.ui_id}`);
    expect(page.status).toBe(200);
  });
});
