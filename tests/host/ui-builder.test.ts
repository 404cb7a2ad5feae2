import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, signUp } from '../agent.ts';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { link, node, ref, unique } from '../workflow-kit.ts';

// The UI builder with the whole studio: an app whose form runs a published workflow, saved over its version, kept
// as snapshots and restored, published with an access rule; hostile DSLs refused; the open API's DSL.
let studio: RunningStudio;
let owner: Agent;
let space: string;
let workflow: string;
const U = '/api/ui_builder/v1';

beforeAll(async () => {
  studio = await startStudio();
  owner = (await signUp(studio.url, 'ui-owner')).agent;
  space = (await owner.post('/api/space/create', { name: 'Apps' })).space_id;
  const wf = (path: string, body: Record<string, unknown>) =>
    owner.post(`/api/workflow_api/${path}`, { space_id: space, ...body });
  workflow = (await wf('create', { name: unique('weather') })).workflow_id;
  await wf('save', {
    workflow_id: workflow,
    schema: {
      nodes: [
        node('start', '1', { outputs: [{ name: 'city', type: 'string', required: true }] }),
        node('text', '15', {
          inputs: [ref('city', 'start', ['city'])],
          settings: { mode: 'concat', template: 'Sunny in {{city}}' },
        }),
        node('end', '2', { inputs: [ref('answer', 'text', ['output'])] }),
      ],
      links: [link('start', 'text'), link('text', 'end')],
    },
  });
  await wf('publish', { workflow_id: workflow, workflow_version: 'v1.0.0', force: true });
});
afterAll(() => studio?.close());

const formApp = () => ({
  variables: [{ name: 'answer', default: '' }],
  pages: [
    {
      page_id: 'home',
      name: 'Home',
      root: {
        id: 'root',
        type: 'column',
        props: {},
        children: [
          { id: 'title', type: 'text', props: { content: 'Weather' } },
          {
            id: 'ask',
            type: 'form',
            props: { submit_label: 'Ask' },
            children: [{ id: 'city', type: 'input', props: { label: 'City' } }],
          },
          { id: 'result', type: 'text', props: { content: '{{answer}}' } },
        ],
      },
    },
  ],
  events: [
    {
      event_id: 'ask_submit',
      component_id: 'ask',
      on: 'submit',
      action: {
        type: 'workflow',
        workflow_id: workflow,
        inputs: { city: { from: 'component', component_id: 'city' } },
        outputs: { answer: 'answer' },
      },
    },
  ],
});

describe('an app of the UI builder', () => {
  it('runs its form’s workflow for whoever its access lets in, and only its own events', async () => {
    const { ui } = await owner.post(`${U}/create`, { space_id: space, ui_name: 'Weather app' });
    expect(ui).toMatchObject({ access: 'members', version_code: 1, dsl: { pages: [{ page_id: 'home' }] } });
    const saved = (await owner.post(`${U}/update`, { ui_id: ui.ui_id, base_version: 1, dsl: formApp() })).ui;
    expect(saved.version_code).toBe(2);
    const stale = await owner.request('POST', `${U}/update`, { ui_id: ui.ui_id, base_version: 1, ui_name: 'x' });
    expect([stale.status, stale.body.msg]).toEqual([409, expect.stringMatching(/saved by someone else/)]);
    const anon = new Agent(studio.url);
    expect((await anon.request('POST', `${U}/app/get`, { ui_id: ui.ui_id })).status).toBe(404);
    const { path } = await owner.post(`${U}/publish/snapshot`, { ui_id: ui.ui_id });
    expect(path).toBe(`/apps/${ui.ui_id}`);
    // Members only: a stranger signed in is refused, a signed-out visitor asked to sign in.
    expect((await anon.request('POST', `${U}/app/get`, { ui_id: ui.ui_id })).status).toBe(401);
    const stranger = (await signUp(studio.url, 'ui-stranger')).agent;
    const refused = await stranger.request('POST', `${U}/app/get`, { ui_id: ui.ui_id });
    expect([refused.status, refused.body.msg]).toEqual([403, 'This app is for the members of its space.']);
    const mine = await owner.post(`${U}/app/get`, { ui_id: ui.ui_id });
    expect(mine.app.dsl.events[0].event_id).toBe('ask_submit');
    // Public: anyone runs the form's workflow and gets the variables it sets.
    await owner.post(`${U}/update`, { ui_id: ui.ui_id, base_version: 2, access: 'public' });
    const r = await anon.post(`${U}/app/run`, { ui_id: ui.ui_id, event_id: 'ask_submit', values: { city: 'Rome' } });
    expect(r.variables).toEqual({ answer: 'Sunny in Rome' });
    const other = await anon.request('POST', `${U}/app/run`, { ui_id: ui.ui_id, event_id: 'nope' });
    expect(other.status).toBe(404);
    // The builder's preview runs the draft's events as the member.
    const preview = await owner.post(`${U}/preview/run`, {
      ui_id: ui.ui_id,
      event_id: 'ask_submit',
      values: { city: 'Oslo' },
    });
    expect(preview.variables).toEqual({ answer: 'Sunny in Oslo' });
    expect(
      (await stranger.request('POST', `${U}/preview/run`, { ui_id: ui.ui_id, event_id: 'ask_submit' })).status,
    ).toBe(403);
  });

  it('keeps snapshots and restores one', async () => {
    const { ui } = await owner.post(`${U}/create`, { space_id: space, ui_name: 'Snapshots' });
    await owner.post(`${U}/update`, { ui_id: ui.ui_id, base_version: 1, dsl: formApp() });
    const { snapshot } = await owner.post(`${U}/snapshot`, { ui_id: ui.ui_id, note: 'the form' });
    const changed = formApp();
    changed.pages[0].root.children = [{ id: 'title', type: 'text', props: { content: 'Changed' } }] as never;
    changed.events = [];
    await owner.post(`${U}/update`, { ui_id: ui.ui_id, base_version: 2, dsl: changed });
    const restored = (await owner.post(`${U}/snapshot/restore`, { ui_id: ui.ui_id, snapshot_id: snapshot.snapshot_id }))
      .ui;
    expect(restored.dsl.pages[0].root.children.map((c: { id: string }) => c.id)).toEqual(['title', 'ask', 'result']);
    const list = await owner.post(`${U}/snapshot/get`, { ui_id: ui.ui_id, snapshot_id: snapshot.snapshot_id });
    expect(list.snapshots.map((s: { note: string }) => s.note)).toEqual(['before restoring the form', 'the form']);
    expect(list.dsl.events).toHaveLength(1);
  });

  it('refuses hostile or broken DSLs with what is wrong, and keeps the draft', async () => {
    const { ui } = await owner.post(`${U}/create`, { space_id: space, ui_name: 'Hostile' });
    const save = (dsl: unknown) => owner.request('POST', `${U}/update`, { ui_id: ui.ui_id, base_version: 1, dsl });
    const script = formApp();
    (script.pages[0].root.children as unknown[]).push({
      id: 'pic',
      type: 'image',
      props: { src: 'javascript:alert(1)' },
    });
    expect((await save(script)).body.msg).toMatch(/pic: src must be an http\(s\) address/);
    const nest = (levels: number) => {
      let deep: Record<string, unknown> = { id: 'leaf', type: 'text', props: {} };
      for (let i = 0; i < levels; i++) deep = { id: `n${i}`, type: 'column', props: {}, children: [deep] };
      return save({ pages: [{ page_id: 'home', name: 'Home', root: deep }] });
    };
    const nested = await nest(25);
    expect([nested.status, nested.body.msg]).toEqual([400, expect.stringMatching(/nested more than 16 deep/)]);
    // Deeper still: the studio refuses the body itself before anything walks it.
    const deeper = await nest(1000);
    expect([deeper.status, deeper.body.msg]).toEqual([400, expect.stringMatching(/nests more than 100 levels/)]);
    const huge = await save({
      pages: [
        { page_id: 'home', name: 'Home', root: { id: 'r', type: 'text', props: { content: 'x'.repeat(600_000) } } },
      ],
    });
    expect([huge.status, huge.body.msg]).toEqual([400, expect.stringMatching(/at most 512 KB/)]);
    const unknown = await save({
      pages: [{ page_id: 'home', name: 'Home', root: { id: 'r', type: 'marquee', props: {} } }],
    });
    expect(unknown.body.msg).toMatch(/no component "marquee"/);
    const events = formApp();
    events.events[0].action.outputs = { missing: 'answer' } as never;
    expect((await save(events)).body.msg).toMatch(/sets the variable missing, which is not declared/);
    // The draft is as it was.
    expect((await owner.post(`${U}/get`, { ui_id: ui.ui_id })).ui.version_code).toBe(1);
    // A workflow that is not published keeps the app from being published.
    const { workflow_id } = await owner.post('/api/workflow_api/create', { space_id: space, name: unique('draft') });
    const unpublished = formApp();
    unpublished.events[0].action.workflow_id = workflow_id;
    await save(unpublished);
    const pub = await owner.request('POST', `${U}/publish/snapshot`, { ui_id: ui.ui_id });
    expect([pub.status, pub.body.msg]).toEqual([
      400,
      expect.stringMatching(/is not published: publish it before the app/),
    ]);
  });

  it('answers its published DSL on the open API to a token with app.ui', async () => {
    const { ui } = await owner.post(`${U}/create`, { space_id: space, ui_name: 'Open' });
    await owner.post(`${U}/update`, { ui_id: ui.ui_id, base_version: 1, dsl: formApp() });
    await owner.post(`${U}/publish/snapshot`, { ui_id: ui.ui_id });
    const token = async (permissions: string[]) =>
      new Agent(studio.url, {
        bearer: (
          await owner.post('/api/permission_api/pat/create', {
            name: 'ui',
            duration_day: '1',
            workspace_permission_list: [{ workspace_id: space, permissions }],
          })
        ).token,
      });
    const reader = await token(['app.ui']);
    const r = await reader.request('GET', `/v1/apps/${ui.ui_id}/ui_builder_dsl`);
    expect(r.body.data.dsl.events[0].event_id).toBe('ask_submit');
    const snap = await reader.request('POST', `/v1/apps/${ui.ui_id}/ui_builder_snapshots`, { note: 'from CI' });
    expect(snap.body.data.snapshot.note).toBe('from CI');
    const other = await token(['bot.read']);
    expect((await other.request('GET', `/v1/apps/${ui.ui_id}/ui_builder_dsl`)).status).toBe(403);
  });
});
