import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, signUp } from '../agent.ts';
import { ROOT, startStudio, type RunningStudio } from '../helpers.ts';
import { link, node, ref, unique } from '../workflow-kit.ts';

// The UI builder with the whole studio: an app whose form runs a published workflow, saved over its version, kept
// as snapshots and restored, published with an access rule and served as a light page of its own; hostile DSLs
// refused; the open API's DSL; custom components imported into the space (versions, compare, removal) and one from
// an extension (tests/fixtures/ui-components), drawn in sandboxed frames.
let studio: RunningStudio;
let owner: Agent;
let space: string;
let workflow: string;
const U = '/api/ui_builder/v1';

beforeAll(async () => {
  studio = await startStudio({ extensionsDir: path.join(ROOT, 'tests/fixtures/ui-components') });
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

  it('publishes the JSON Schema of its DSL', async () => {
    const r = await new Agent(studio.url).request('GET', `${U}/dsl/schema`);
    expect(r.body.data.dsl_version).toBe(1);
    expect(r.body.data.schema.properties.pages.minItems).toBe(1);
    expect(r.body.data.schema.required).toEqual(['pages']);
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

  it('serves the published app as a page of its own, with its data inline and a strict policy', async () => {
    const { ui } = await owner.post(`${U}/create`, { space_id: space, ui_name: 'Page </script><script>x()</script>' });
    const app = formApp();
    app.pages[0].root.children[0].props.content = '</script><script>alert(1)</script>';
    await owner.post(`${U}/update`, { ui_id: ui.ui_id, base_version: 1, dsl: app });
    const anon = new Agent(studio.url);
    const get = async (who: Agent) => {
      const res = await fetch(`${studio.url}/apps/${ui.ui_id}`, {
        headers: { cookie: [...who.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'accept-language': 'en-US' },
      });
      const html = await res.text();
      const data = JSON.parse(html.match(/<script type="application\/json" id="ui-app-data">(.*?)<\/script>/s)![1]);
      return { res, html, data };
    };
    const unpublished = await get(owner);
    expect([unpublished.res.status, unpublished.data.refused]).toEqual([404, `The app ${ui.ui_id} is not published.`]);
    await owner.post(`${U}/publish/snapshot`, { ui_id: ui.ui_id });
    const signedOut = await get(anon);
    expect([signedOut.res.status, signedOut.data.sign_in, signedOut.data.dsl]).toEqual([401, true, undefined]);
    const stranger = (await signUp(studio.url, 'ui-page-stranger')).agent;
    expect((await get(stranger)).data.refused).toBe('This app is for the members of its space.');
    const mine = await get(owner);
    expect(mine.res.status).toBe(200);
    expect(mine.data.dsl.pages[0].root.children[0].props.content).toBe('</script><script>alert(1)</script>');
    // Nothing the app holds closes the data's element; the page loads its own light bundle, not the studio's.
    expect(mine.html).not.toContain('<script>alert(1)');
    expect(mine.html).not.toContain('<script>x()');
    const scripts = [...mine.html.matchAll(/<script defer src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.every((src) => src.startsWith('/entries/'))).toBe(true);
    for (const src of scripts) expect((await fetch(`${studio.url}${src}`)).status).toBe(200);
    const csp = mine.res.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it('imports custom components with versions, compares and removes them, and draws them in a sandbox', async () => {
    const C = `${U}/component`;
    const v1 = await owner.post(`${C}/import`, {
      space_id: space,
      name: 'badge',
      label: 'Badge',
      props: { text: 'text' },
      html: '<b id="b"></b>\n<script>tessera.onState(function(s){b.textContent=s.props.text})</script>',
    });
    expect(v1.component).toMatchObject({ type: 'x-badge', version: 1, source: 'imported' });
    const v2 = await owner.post(`${C}/import`, {
      space_id: space,
      name: 'badge',
      label: 'Badge',
      props: { text: 'text', colour: 'text' },
      html: '<b id="b" style="color:red"></b>\n<script>tessera.onState(function(s){b.textContent=s.props.text})</script>',
      note: 'red',
    });
    expect(v2.component.version).toBe(2);
    const bad = await owner.request('POST', `${C}/import`, {
      space_id: space,
      name: 'Bad Name',
      label: 'x',
      html: 'x',
    });
    expect([bad.status, bad.body.msg]).toEqual([400, expect.stringMatching(/lower-case letters/)]);
    // The palette: the extension's gauge and the latest badge; every version of the imported one.
    const list = (await owner.post(`${C}/list`, { space_id: space })).components;
    expect(list.map((c: { type: string; version: number }) => `${c.type}@${c.version}`)).toEqual([
      'gauge@0',
      'x-badge@2',
    ]);
    const versions = (await owner.post(`${C}/imported/list`, { space_id: space, type: 'x-badge' })).components;
    expect(versions.map((c: { version: number }) => c.version)).toEqual([2, 1]);
    const diff = await owner.post(`${C}/compare`, { space_id: space, type: 'x-badge', from_version: 1, to_version: 2 });
    expect(diff.props_added).toEqual(['colour']);
    expect(diff.lines.filter((l: { op: string }) => l.op !== ' ').map((l: { op: string }) => l.op)).toEqual(['-', '+']);
    // An app of the space uses both; a type the space does not have is refused.
    const { ui } = await owner.post(`${U}/create`, { space_id: space, ui_name: 'Custom' });
    const dsl = {
      pages: [
        {
          page_id: 'home',
          name: 'Home',
          root: {
            id: 'root',
            type: 'column',
            props: {},
            children: [
              { id: 'badge1', type: 'x-badge', props: { text: 'New' } },
              { id: 'gauge1', type: 'gauge', props: { value: '70' } },
            ],
          },
        },
      ],
    };
    await owner.post(`${U}/update`, { ui_id: ui.ui_id, base_version: 1, dsl });
    const other = (await signUp(studio.url, 'ui-other-space')).agent;
    const otherSpace = (await other.post('/api/space/create', { name: 'Other' })).space_id;
    const { ui: theirs } = await other.post(`${U}/create`, { space_id: otherSpace, ui_name: 'Theirs' });
    const refused = await other.request('POST', `${U}/update`, { ui_id: theirs.ui_id, base_version: 1, dsl });
    expect(refused.body.msg).toMatch(/no component "x-badge"/);
    // The frame: the component's page under a sandbox policy with no network, for the space's members only.
    const frame = (who: Agent, type: string, query = '') =>
      fetch(`${studio.url}${C}/frame/${ui.ui_id}/${type}${query}`, {
        headers: { cookie: [...who.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
    const f = await frame(owner, 'x-badge', '?v=1');
    const page = await f.text();
    expect(f.status).toBe(200);
    expect(page).toContain('<b id="b"></b>');
    expect(page).toContain('window.tessera=');
    const policy = f.headers.get('content-security-policy')!;
    expect(policy).toMatch(/^sandbox allow-scripts; default-src 'none'/);
    expect(policy).not.toContain('connect-src');
    expect(await (await frame(owner, 'gauge')).text()).toContain('Gauge ');
    expect((await frame(other, 'x-badge')).status).toBe(403);
    // The published app's frames: by its access, and only the types it draws.
    await owner.post(`${U}/update`, { ui_id: ui.ui_id, base_version: 2, access: 'public' });
    await owner.post(`${U}/publish/snapshot`, { ui_id: ui.ui_id });
    const anon = new Agent(studio.url);
    expect((await frame(anon, 'x-badge', '?published=1')).status).toBe(200);
    expect((await frame(anon, 'x-badge')).status).toBe(403);
    expect((await frame(anon, 'x-other', '?published=1')).status).toBe(404);
    // Removing: one version goes; the last one is kept while an app draws it.
    await owner.post(`${C}/delete`, { space_id: space, type: 'x-badge', version: 1 });
    const inUse = await owner.request('POST', `${C}/delete`, { space_id: space, type: 'x-badge' });
    expect([inUse.status, inUse.body.msg]).toEqual([409, expect.stringMatching(/used by the apps Custom/)]);
    await owner.post(`${U}/delete`, { ui_id: ui.ui_id });
    await owner.post(`${C}/delete`, { space_id: space, type: 'x-badge' });
    expect((await owner.post(`${C}/imported/list`, { space_id: space })).components).toEqual([]);
  });
});
