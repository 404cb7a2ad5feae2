import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, getJson, startStudio, type RunningStudio } from '../helpers.ts';
import { signUp } from '../agent.ts';
import { link, node, ref } from '../workflow-kit.ts';

// What an operator drops into extensionsDir cannot take the place of a built-in, and every folder found
// is listed with its state and reason.
const nodeType = (id: string, key: string, code: number, requires = '["workflow"]') => ({
  pkg: `{ "name": "drop-${id}", "version": "1.0.0", "type": "module", "tessera": { "id": "${id}", "requires": ${requires}, "server": "./server.ts" } }`,
  server: `import { defineExtension } from '@tessera/sdk/server';
import { NodeTypes } from '@tessera/ext-workflow/shared';
export default defineExtension({
  id: '${id}',
  register(ctx) {
    ctx.register(NodeTypes, { key: '${key}', code: ${code}, category: 'custom', label: { 'en-US': 'Drop ${key}', 'zh-CN': '${key}' }, execute: () => ({ outputs: { output: 'from the drop-in' } }) });
  },
});
`,
});

let dir: string;
let studio: RunningStudio;
let listed: { id: string; state: string; reason?: string; folder: string | null; source: string }[];
beforeAll(async () => {
  // Inside the checkout, so that the drop-ins resolve the SDK as an installed package would.
  mkdirSync(path.join(ROOT, 'test-results'), { recursive: true });
  dir = mkdtempSync(path.join(ROOT, 'test-results', 'drop-ins-'));
  const put = (folder: string, files: Record<string, string>) => {
    mkdirSync(path.join(dir, folder));
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, folder, name), text);
  };
  const t = nodeType('workflow', 'impostor', 20001);
  put('a-workflow-impostor', { 'package.json': t.pkg, 'server.ts': t.server });
  const dupKey = nodeType('drop-text', 'text', 20002);
  put('b-same-key', { 'package.json': dupKey.pkg, 'server.ts': dupKey.server });
  const dupCode = nodeType('drop-code', 'my_text', 15);
  put('c-same-code', { 'package.json': dupCode.pkg, 'server.ts': dupCode.server });
  // It needs only workflow, so it is ready before the built-in LLM node (which also needs models).
  const early = nodeType('drop-llm', 'llm', 20003);
  put('d-early-llm', { 'package.json': early.pkg, 'server.ts': early.server });
  put('e-bad-manifest', { 'package.json': '{ "name": "bad", "version": "1.0.0", "tessera": { "id": 42 } }' });
  const future = nodeType('drop-future', 'future', 20004, '["workflow@^9.0.0"]');
  put('f-needs-newer-workflow', { 'package.json': future.pkg, 'server.ts': future.server });
  put('g-needs-newer-tessera', {
    'package.json':
      '{ "name": "g", "version": "1.0.0", "engines": { "tessera": ">=2.0.0" }, "tessera": { "id": "drop-engine" } }',
  });
  const fine = nodeType('drop-fine', 'fine', 20005, '["workflow@^0.1.0"]');
  put('h-fine', { 'package.json': fine.pkg, 'server.ts': fine.server });
  studio = await startStudio({ extensionsDir: dir });
  listed = (await getJson(`${studio.url}/api/extensions`)).body.data.extensions;
});
afterAll(async () => {
  await studio.close();
  rmSync(dir, { recursive: true, force: true });
});

const entry = (folder: string) => listed.find((e) => e.folder === path.join(dir, folder));

describe('drop-ins beside built-ins', () => {
  it('keeps the built-in when a drop-in claims its id, and names the drop-in folder', () => {
    expect(listed.find((e) => e.id === 'workflow' && e.source === 'builtin')).toMatchObject({ state: 'started' });
    expect(entry('a-workflow-impostor')).toMatchObject({
      id: 'workflow',
      state: 'failed',
      source: 'runtime',
      reason: "its id 'workflow' is a built-in extension's; a drop-in cannot replace a built-in (rename it)",
    });
  });

  it('refuses a drop-in node type whose key or numeric code a built-in has, naming the folder', () => {
    expect(entry('b-same-key')).toMatchObject({
      state: 'failed',
      reason: expect.stringMatching(
        /duplicate key 'text' from 'drop-text': already registered by 'nodes-core'.*\(folder .*b-same-key\)/,
      ),
    });
    expect(entry('c-same-code')).toMatchObject({
      state: 'failed',
      reason: expect.stringMatching(/'my_text' from 'drop-code' has code 15, which 'text' of 'nodes-core' already has/),
    });
  });

  it('starts built-ins first, so a drop-in cannot take a key before the built-in that owns it', () => {
    expect(listed.find((e) => e.id === 'node-llm')).toMatchObject({ state: 'started' });
    expect(entry('d-early-llm')).toMatchObject({
      state: 'failed',
      reason: expect.stringMatching(/duplicate key 'llm' from 'drop-llm': already registered by 'node-llm'/),
    });
  });

  it('lists an invalid manifest, a version range not met and a newer platform needed', () => {
    expect(entry('e-bad-manifest')).toMatchObject({
      state: 'failed',
      reason: expect.stringMatching(/^package.json "tessera" field: id: /),
    });
    expect(entry('f-needs-newer-workflow')).toMatchObject({
      id: 'drop-future',
      state: 'disabled',
      reason: "requires 'workflow' ^9.0.0, but 0.1.0 is installed",
    });
    expect(entry('g-needs-newer-tessera')).toMatchObject({
      id: 'drop-engine',
      state: 'failed',
      reason: 'it needs Tessera >=2.0.0 (engines.tessera); this studio is 0.1.0',
    });
    expect(entry('h-fine')).toMatchObject({ id: 'drop-fine', state: 'started' });
  });

  it('runs the built-in node types as before', async () => {
    const { agent } = await signUp(studio.url);
    const space = (await agent.post('/api/space/create', { name: 'Drop-ins' })).space_id;
    const api = (p: string, body: Record<string, unknown>) =>
      agent.post(`/api/workflow_api/${p}`, { space_id: space, ...body });
    const { workflow_id } = await api('create', { name: 'text' });
    await api('save', {
      workflow_id,
      schema: {
        nodes: [
          node('start', '1', { outputs: [{ name: 'w', type: 'string' }] }),
          node('t', '15', { inputs: [ref('w', 'start', ['w'])], settings: { mode: 'concat', template: '<{{w}}>' } }),
          node('end', '2', { inputs: [ref('o', 't', ['output'])] }),
        ],
        links: [link('start', 't'), link('t', 'end')],
      },
    });
    const r = await api('test_run', { workflow_id, input: { w: 'x' }, run_mode: 0 });
    expect(JSON.parse(r.output)).toEqual({ o: '<x>' });
    const { node_types } = await agent.get('/api/workflow_api/node_types');
    expect(node_types.find((t: { key: string }) => t.key === 'fine')).toMatchObject({ code: 20005 });
  });
});

describe('node-type versions', () => {
  // Version 1 says hello with settings.greeting; version 2 renamed it to settings.salutation.
  const evolving = (version: 1 | 2) => ({
    pkg: `{ "name": "node-evolving", "version": "${version}.0.0", "type": "module", "tessera": { "id": "node-evolving", "requires": ["workflow"], "server": "./server.ts" } }`,
    server: `import { defineExtension } from '@tessera/sdk/server';
import { NodeTypes } from '@tessera/ext-workflow/shared';
export default defineExtension({
  id: 'node-evolving',
  register(ctx) {
    ctx.register(NodeTypes, {
      key: 'evolving', code: 20100, category: 'custom', label: { 'en-US': 'Evolving', 'zh-CN': '演进' },
      ${
        version === 2
          ? `version: 2,
      migrate: (param, from) => (from < 2 ? { ...param, settings: { salutation: param.settings.greeting } } : param),
      execute: (run) => ({ outputs: { output: run.settings.salutation + ', ' + run.inputs.name } }),`
          : `execute: (run) => ({ outputs: { output: run.settings.greeting + ', ' + run.inputs.name } }),`
      }
    });
  },
});
`,
  });

  it('keeps a published workflow running after its node type moves to a new version, and shows the migrated node', async () => {
    const root = mkdtempSync(path.join(ROOT, 'test-results', 'versions-'));
    const install = (version: 1 | 2) => {
      const d = path.join(root, `v${version}`, 'node-evolving');
      mkdirSync(d, { recursive: true });
      const e = evolving(version);
      writeFileSync(path.join(d, 'package.json'), e.pkg);
      writeFileSync(path.join(d, 'server.ts'), e.server);
      return path.dirname(d);
    };
    const first = await startStudio({ extensionsDir: install(1), keepDatabase: true });
    const { agent } = await signUp(first.url);
    const space = (await agent.post('/api/space/create', { name: 'Versions' })).space_id;
    const api = (p: string, body: Record<string, unknown>) =>
      agent.post(`/api/workflow_api/${p}`, { space_id: space, ...body });
    const { workflow_id } = await api('create', { name: 'evolving' });
    await api('save', {
      workflow_id,
      schema: {
        nodes: [
          node('start', '1', { outputs: [{ name: 'name', type: 'string' }] }),
          node('ev', '20100', { inputs: [ref('name', 'start', ['name'])], settings: { greeting: 'Hi' } }),
          node('end', '2', { inputs: [ref('o', 'ev', ['output'])] }),
        ],
        links: [link('start', 'ev'), link('ev', 'end')],
      },
    });
    const saved = JSON.parse((await api('canvas', { workflow_id })).workflow.schema_json);
    expect(saved.nodes.find((n: { node_id: string }) => n.node_id === 'ev').version).toBe(1);
    await api('publish', { workflow_id, workflow_version: 'v1.0.0', force: true });
    const pat = await agent.post('/api/permission_api/pat/create', {
      name: 'v',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['workflow.run'] }],
    });
    const cookies = new Map(agent.cookies);
    await first.server.close();

    const second = await startStudio({
      extensionsDir: install(2),
      keepData: first.dataDir,
      ...(first.databaseUrl ? { env: { DATABASE_URL: first.databaseUrl } } : {}),
    });
    try {
      agent.base = second.url;
      agent.cookies = cookies;
      const run = await (
        await fetch(`${second.url}/v1/workflow/run`, {
          method: 'POST',
          headers: { authorization: `Bearer ${pat.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ workflow_id, parameters: { name: 'Ada' } }),
        })
      ).json();
      expect(run.code).toBe(0);
      expect(JSON.parse(run.data)).toEqual({ o: 'Hi, Ada' });
      const opened = JSON.parse((await api('canvas', { workflow_id })).workflow.schema_json);
      expect(opened.nodes.find((n: { node_id: string }) => n.node_id === 'ev')).toMatchObject({
        version: 2,
        node_param: { settings: { salutation: 'Hi' } },
      });
      expect((await api('validate_tree', { workflow_id })).errors).toEqual([]);
      // A test run of the saved draft migrates it as a published run does.
      const test = await api('test_run', { workflow_id, input: { name: 'Grace' }, run_mode: 0 });
      expect([test.execute_status, JSON.parse(test.output)], test.reason).toEqual([2, { o: 'Hi, Grace' }]);
      // The canvas the editor sends: a node saved with version 1 is migrated before it is checked, and one
      // newer than the installed type is reported.
      const v1 = {
        nodes: [
          node('start', '1', { outputs: [{ name: 'name', type: 'string' }] }),
          {
            ...node('ev', '20100', { inputs: [ref('name', 'start', ['name'])], settings: { greeting: 'Hi' } }),
            version: 1,
          },
          node('end', '2', { inputs: [ref('o', 'ev', ['output'])] }),
        ],
        links: [link('start', 'ev'), link('ev', 'end')],
      };
      expect((await api('validate_tree', { workflow_id, schema: v1 })).errors).toEqual([]);
      const v3 = { ...v1, nodes: v1.nodes.map((n) => (n.node_id === 'ev' ? { ...n, version: 3 } : n)) };
      expect((await api('validate_tree', { workflow_id, schema: v3 })).errors).toEqual([
        expect.objectContaining({
          node_id: 'ev',
          field: 'version',
          message: expect.stringContaining("version 3 of 'evolving', newer than the 2 installed"),
        }),
      ]);
      await api('save', { workflow_id, schema: v3 });
      const refused = await agent.request('POST', '/api/workflow_api/test_run', {
        space_id: space,
        workflow_id,
        input: { name: 'x' },
        run_mode: 0,
      });
      expect([refused.status, refused.body.msg]).toEqual([400, expect.stringContaining('newer than the 2 installed')]);
    } finally {
      await second.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
