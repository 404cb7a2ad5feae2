import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type Agent } from '../agent.ts';
import { ROOT, startStudio, type RunningStudio } from '../helpers.ts';
import { greetingCanvas, link, node, ref } from '../workflow-kit.ts';

// The library across kinds: the built-in kinds and a kind from a fixture extension that no studio code
// names, in one list with filters, paging, folders and the recycle bin.
const KINDS = path.join(ROOT, 'tests/fixtures/kinds');
let studio: RunningStudio;
let agent: Agent;
let space: string;

const list = (body: Record<string, unknown> = {}) =>
  agent.post('/api/resource/library_resource_list', { space_id: space, ...body });
const names = (r: { resource_list: { name: string }[] }) => r.resource_list.map((x) => x.name);

beforeAll(async () => {
  studio = await startStudio({ extensionsDir: KINDS });
  agent = (await signUp(studio.url)).agent;
  space = (await agent.post('/api/space/create', { name: 'Library' })).space_id;
});
afterAll(() => studio?.close());

describe('the library', () => {
  it('lists every kind newest first, filters by kind, name and creator, and pages by cursor', async () => {
    const wf = await agent.post('/api/workflow_api/create', { space_id: space, name: 'alpha flow' });
    await agent.post('/api/workflow_api/save', {
      space_id: space,
      workflow_id: wf.workflow_id,
      schema: greetingCanvas(),
    });
    await agent.post('/api/draftbot/create', { space_id: space, name: 'beta bot' });
    await agent.post('/api/knowledge/create', { space_id: space, name: 'gamma docs', format_type: 0 });
    await agent.post('/api/memory/database/add', {
      space_id: space,
      table_name: 'delta_rows',
      field_list: [{ name: 'x', type: 1 }],
    });
    await agent.post('/api/fixture-notes/create', { space_id: space, name: 'epsilon note' });
    const all = await list();
    expect(names(all)).toEqual(['epsilon note', 'delta_rows', 'gamma docs', 'beta bot', 'alpha flow']);
    expect(all.resource_list.map((x: { res_type: string }) => x.res_type)).toEqual([
      'note',
      'table',
      'knowledge',
      'bot',
      'workflow',
    ]);
    expect(all.resource_list[4]).toMatchObject({ creator_name: expect.any(String), published: false, folder_id: '' });
    expect(names(await list({ res_type_filter: ['note', 'bot'] }))).toEqual(['epsilon note', 'beta bot']);
    expect(names(await list({ name: 'GAMMA' }))).toEqual(['gamma docs']);
    // Another member's note: in everyone's list, not in mine.
    const other = await signUp(studio.url);
    await agent.post('/api/space/member/add', { space_id: space, emails: [other.email] });
    await other.agent.post('/api/fixture-notes/create', {
      space_id: space,
      name: 'zeta note',
      at: '2020-01-01T00:00:00.000Z',
    });
    expect(names(await list()).at(-1)).toBe('zeta note');
    expect(names(await list({ creator: 'me' }))).not.toContain('zeta note');
    expect(names(await list({ creator: other.user.user_id }))).toEqual(['zeta note']);
    const everyone = await list();
    // Paging across kinds: 2 at a time, nothing twice, nothing missed.
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const p = await list({ size: 2, cursor });
      seen.push(...names(p));
      cursor = p.has_more ? p.cursor : undefined;
    } while (cursor);
    expect(seen).toEqual(names(everyone));
    expect(
      (await agent.request('POST', '/api/resource/library_resource_list', { space_id: space, cursor: 'not-ours' }))
        .status,
    ).toBe(400);
  });

  it('sorts resources into folders (create, rename, nest, move, delete with contents moving up)', async () => {
    const { folder_id: projects } = await agent.post('/api/library/folder/create', {
      space_id: space,
      name: 'Projects',
    });
    const { folder_id: inner } = await agent.post('/api/library/folder/create', {
      space_id: space,
      name: 'Inner',
      parent_id: projects,
    });
    expect(
      (await agent.request('POST', '/api/library/folder/create', { space_id: space, name: 'projects' })).status,
    ).toBe(409);
    const items = (await list()).resource_list;
    const note = items.find((x: { res_type: string }) => x.res_type === 'note');
    const bot = items.find((x: { res_type: string }) => x.res_type === 'bot');
    await agent.post('/api/library/resource/move', {
      space_id: space,
      resources: [
        { res_type: 'note', res_id: note.res_id },
        { res_type: 'bot', res_id: bot.res_id },
      ],
      folder_id: inner,
    });
    expect(names(await list({ folder_id: inner }))).toEqual(['epsilon note', 'beta bot']);
    expect((await list()).resource_list.find((x: { res_id: string }) => x.res_id === note.res_id).folder_id).toBe(
      inner,
    );
    // Not into itself; renamed; deleting Inner moves its resources up to Projects.
    expect(
      (
        await agent.request('POST', '/api/library/folder/update', {
          space_id: space,
          folder_id: projects,
          parent_id: inner,
        })
      ).status,
    ).toBe(400);
    await agent.post('/api/library/folder/update', { space_id: space, folder_id: projects, name: 'Work' });
    await agent.post('/api/library/folder/delete', { space_id: space, folder_id: inner });
    expect(names(await list({ folder_id: projects }))).toEqual(['epsilon note', 'beta bot']);
    const tree = (await agent.post('/api/library/folder/tree', { space_id: space })).folders;
    expect(tree).toEqual([expect.objectContaining({ id: projects, name: 'Work', parent_id: '', resource_count: 2 })]);
    // Another space's resource cannot be placed here.
    const elsewhere = (await agent.post('/api/space/create', { name: 'Elsewhere' })).space_id;
    const foreign = await agent.post('/api/fixture-notes/create', { space_id: elsewhere, name: 'foreign' });
    expect(
      (
        await agent.request('POST', '/api/library/resource/move', {
          space_id: space,
          resources: [{ res_type: 'note', res_id: foreign.id }],
          folder_id: projects,
        })
      ).status,
    ).toBe(404);
  });

  it('keeps deleted resources of recyclable kinds in the recycle bin to restore or purge; other kinds go for good', async () => {
    const kinds = (await agent.post('/api/library/kinds')).kinds;
    expect(kinds.find((k: { kind: string }) => k.kind === 'note')).toEqual({
      kind: 'note',
      can_delete: true,
      recyclable: true,
      can_purge: true,
      can_export: true,
      can_import: true,
    });
    expect(kinds.find((k: { kind: string }) => k.kind === 'workflow')).toMatchObject({
      can_export: true,
      can_import: true,
    });
    expect(kinds.find((k: { kind: string }) => k.kind === 'table')).toMatchObject({ recyclable: false });
    const items = (await list()).resource_list;
    const byType = (t: string) => items.find((x: { res_type: string }) => x.res_type === t);
    for (const t of ['note', 'workflow', 'table'])
      expect(
        (await agent.post('/api/library/resource/delete', { space_id: space, res_type: t, res_id: byType(t).res_id }))
          .recycled,
      ).toBe(t !== 'table');
    expect(names(await list())).toEqual(['gamma docs', 'beta bot', 'zeta note']);
    const bin = await agent.post('/api/resource/library_resource_recycle_info', { space_id: space });
    expect(names(bin).sort()).toEqual(['alpha flow', 'epsilon note']);
    expect(bin.resource_list[0].delete_time).toBeGreaterThan(0);
    await agent.post('/api/library/resource/restore', {
      space_id: space,
      res_type: 'workflow',
      res_id: byType('workflow').res_id,
    });
    expect(names(await list({ res_type_filter: ['workflow'] }))).toEqual(['alpha flow']);
    // The restored workflow opens and runs as before.
    expect(
      (await agent.post('/api/workflow_api/canvas', { space_id: space, workflow_id: byType('workflow').res_id }))
        .workflow.name,
    ).toBe('alpha flow');
    // Restored notes go back to their folder.
    await agent.post('/api/library/resource/restore', {
      space_id: space,
      res_type: 'note',
      res_id: byType('note').res_id,
    });
    expect(byType('note').folder_id).not.toBe('');
    expect(
      (await list({ folder_id: byType('note').folder_id })).resource_list.map((x: { res_id: string }) => x.res_id),
    ).toContain(byType('note').res_id);
    // Purge: space admins only; gone for good.
    await agent.post('/api/library/resource/delete', {
      space_id: space,
      res_type: 'note',
      res_id: byType('note').res_id,
    });
    await agent.post('/api/library/resource/purge', {
      space_id: space,
      res_type: 'note',
      res_id: byType('note').res_id,
    });
    expect(names(await agent.post('/api/resource/library_resource_recycle_info', { space_id: space }))).toEqual([]);
    expect(
      (await list({ res_type_filter: ['note'] })).resource_list.map((x: { res_id: string }) => x.res_id),
    ).not.toContain(byType('note').res_id);
  });

  it('exports a workflow with its sub-workflow, imports and copies it as an independent copy, and refuses what the studio lacks', async () => {
    const wf = (p: string, body: Record<string, unknown>, s = space) =>
      agent.post(`/api/workflow_api/${p}`, { space_id: s, ...body });
    const { workflow_id: child } = await wf('create', { name: 'greeter child' });
    await wf('save', { workflow_id: child, schema: greetingCanvas() });
    const { workflow_id: parent } = await wf('create', { name: 'greeter parent' });
    await wf('save', {
      workflow_id: parent,
      schema: {
        nodes: [
          node('start', '1', { outputs: [{ name: 'who', type: 'string' }] }),
          node('call', '9', {
            inputs: [ref('name', 'start', ['who'])],
            settings: { workflow_id: child, version: 'draft' },
          }),
          node('end', '2', { inputs: [ref('message', 'call', ['message'])] }),
        ],
        links: [link('start', 'call'), link('call', 'end')],
      },
    });
    const exported = await agent.post('/api/library/resource/export', {
      space_id: space,
      res_type: 'workflow',
      res_id: parent,
    });
    expect(exported.file_name).toBe('greeter parent.workflow.json');
    const bundle = exported.bundle;
    expect(bundle).toMatchObject({
      format: 'tessera.resources',
      version: 1,
      extensions: [expect.objectContaining({ id: 'workflow' })],
    });
    expect(bundle.resources.map((r: { name: string }) => r.name)).toEqual(['greeter parent', 'greeter child']);
    expect(bundle.resources[0].requires.node_types).toEqual(['1', '2', '9']);

    // Into another space: both created, the parent calling the new child, and it runs.
    const target = (await agent.post('/api/space/create', { name: 'Import target' })).space_id;
    const imported = await agent.post('/api/library/resource/import', { space_id: target, bundle });
    expect(imported.res_type).toBe('workflow');
    const copies = (await agent.post('/api/resource/library_resource_list', { space_id: target })).resource_list;
    expect(copies.map((x: { name: string }) => x.name).sort()).toEqual(['greeter child', 'greeter parent']);
    const newChild = copies.find((x: { name: string }) => x.name === 'greeter child').res_id;
    const canvas = JSON.parse((await wf('canvas', { workflow_id: imported.res_id }, target)).workflow.schema_json);
    expect(canvas.nodes.find((n: { node_id: string }) => n.node_id === 'call').node_param.settings).toEqual({
      workflow_id: newChild,
      version: 'draft',
    });
    const run = await wf('test_run', { workflow_id: imported.res_id, input: { who: 'Ada' }, run_mode: 0 }, target);
    expect(run.execute_status, run.reason).toBe(2);
    expect(JSON.parse(run.output)).toEqual({ message: 'Hello, Ada!' });
    // Independent: changing the copy leaves the source.
    await wf(
      'save',
      {
        workflow_id: newChild,
        schema: {
          ...greetingCanvas(),
          nodes: greetingCanvas().nodes.map((n) =>
            n.node_id === 'greet'
              ? { ...n, node_param: { ...n.node_param, settings: { mode: 'concat', template: 'Hi {{name}}' } } }
              : n,
          ),
        },
      },
      target,
    );
    expect(
      JSON.parse((await wf('test_run', { workflow_id: parent, input: { who: 'Ada' }, run_mode: 0 })).output),
    ).toEqual({ message: 'Hello, Ada!' });

    // Copy in the same space: a new name; to a space that is not yours: refused.
    const copy = await agent.post('/api/library/resource/copy', {
      space_id: space,
      res_type: 'bot',
      res_id: (await agent.post('/api/draftbot/create', { space_id: space, name: 'copied bot' })).bot_id,
    });
    expect(copy.space_id).toBe(space);
    const stranger = (await signUp(studio.url)).agent;
    const theirs = (await stranger.post('/api/space/create', { name: 'Theirs' })).space_id;
    expect(
      (
        await agent.request('POST', '/api/library/resource/copy', {
          space_id: space,
          res_type: 'workflow',
          res_id: parent,
          to_space_id: theirs,
        })
      ).status,
    ).toBe(403);
    // A file needing what this studio lacks: refused with the list, nothing created.
    const broken = {
      ...bundle,
      resources: [
        { ...bundle.resources[0], requires: { node_types: ['1', '2', '424242'] } },
        { kind: 'gizmo', id: '1', name: 'g', description: '', data: {} },
      ],
    };
    const refused = await agent.request('POST', '/api/library/resource/import', { space_id: target, bundle: broken });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toContain('node type 424242 (in "greeter parent")');
    expect(refused.body.msg).toContain('resources of kind gizmo');
    expect((await agent.post('/api/resource/library_resource_list', { space_id: target })).resource_list).toHaveLength(
      2,
    );
    expect(
      (await agent.request('POST', '/api/library/resource/import', { space_id: target, bundle: { hello: 1 } })).body
        .msg,
    ).toContain('not a resource file exported by a Tessera studio');
  });

  it('exports a plugin with its APIs but never its key, and imports it as a plugin that needs its own', async () => {
    const p = (path: string, body: Record<string, unknown>) =>
      agent.post(`/api/plugin_api/${path}`, { space_id: space, ...body });
    const { plugin_id } = await p('register_plugin_meta', {
      name: 'Weather service',
      desc: 'forecasts',
      url: 'https://203.0.113.10/v1',
      auth_type: [1],
      location: 1,
      key: 'X-Api-Key',
      service_token: 'sk-very-secret-1234',
    });
    await p('create_api', {
      plugin_id,
      name: 'forecast',
      desc: 'the forecast',
      path: '/forecast',
      method: 1,
      request_params: [{ name: 'city', type: 1, location: 2, is_required: true, desc: 'city' }],
    });
    const { bundle } = await agent.post('/api/library/resource/export', {
      space_id: space,
      res_type: 'plugin',
      res_id: plugin_id,
    });
    expect(JSON.stringify(bundle)).not.toContain('sk-very-secret');
    expect(bundle.resources[0].data.apis.map((a: { name: string }) => a.name)).toEqual(['forecast']);
    const { res_id } = await agent.post('/api/library/resource/import', { space_id: space, bundle });
    const info = await p('get_plugin_info', { plugin_id: res_id });
    // No key came along (not even its masked end): the imported plugin needs its own.
    expect(info.meta_info.service_token).toBe('');
    expect(JSON.stringify(info)).not.toContain('sk-very-secret');
    expect(info).toMatchObject({ meta_info: expect.objectContaining({ name: 'Weather service (2)' }) });
    expect((await p('get_plugin_apis', { plugin_id: res_id })).api_info.map((a: { name: string }) => a.name)).toEqual([
      'forecast',
    ]);
  });

  it('copies a table as its structure (fields and row mode), not its rows, under a free name', async () => {
    const { database_info: t } = await agent.post('/api/memory/database/add', {
      space_id: space,
      table_name: 'orders',
      table_desc: 'what people ordered',
      field_list: [
        { name: 'item', type: 1, must_required: true },
        { name: 'qty', type: 2 },
      ],
      rw_mode: 3,
    });
    await agent.post('/api/memory/database/update_records', {
      space_id: space,
      database_id: t.id,
      record_data_add: [{ item: 'tea', qty: '2' }],
    });
    const copy = await agent.post('/api/library/resource/copy', { space_id: space, res_type: 'table', res_id: t.id });
    const info = (await agent.post('/api/memory/database/get_by_id', { space_id: space, id: copy.res_id }))
      .database_info;
    expect(info).toMatchObject({ table_name: 'orders_2', table_desc: 'what people ordered', rw_mode: 3 });
    expect(
      info.field_list.map((f: { name: string; type: number; must_required: boolean }) => [
        f.name,
        f.type,
        f.must_required,
      ]),
    ).toEqual([
      ['item', 1, true],
      ['qty', 2, false],
    ]);
    expect(
      (await agent.post('/api/memory/database/list_records', { space_id: space, database_id: copy.res_id })).TotalNum,
    ).toBe(0);
  });

  it('shows nothing of a kind whose extension is disabled', async () => {
    const without = await startStudio({ extensionsDir: KINDS, env: { TESSERA_DISABLE: 'fixture-notes' } });
    try {
      const a = (await signUp(without.url)).agent;
      const s = (await a.post('/api/space/create', { name: 'No notes' })).space_id;
      await a.post('/api/draftbot/create', { space_id: s, name: 'only bot' });
      expect((await a.post('/api/library/kinds')).kinds.map((k: { kind: string }) => k.kind)).not.toContain('note');
      expect(
        (await a.post('/api/resource/library_resource_list', { space_id: s })).resource_list.map(
          (x: { name: string }) => x.name,
        ),
      ).toEqual(['only bot']);
      expect(
        (await a.request('POST', '/api/library/resource/delete', { space_id: s, res_type: 'note', res_id: '1' }))
          .status,
      ).toBe(404);
    } finally {
      await without.close();
    }
  });
});
