import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, startStudio } from '../helpers.ts';
import { signUp } from '../agent.ts';
import { link, node, ref } from '../workflow-kit.ts';

// examples/text-stats is written as an outside author would, built with the SDK preset (./tessera build
// builds the examples), and dropped into an extensions folder far from this checkout.
describe('a node type built outside the studio and dropped in', () => {
  it('is a small bundle that imports what the studio provides, and runs through the open API', async () => {
    const bundle = path.join(ROOT, 'examples/text-stats/dist/server/index.js');
    const code = readFileSync(bundle, 'utf8');
    expect(statSync(bundle).size).toBeLessThan(30 * 1024);
    expect(code).toMatch(/from "@tessera\/sdk\/server"/);
    expect(code).toMatch(/from "@tessera\/ext-workflow\/shared"/);
    expect(code).not.toContain(ROOT);

    const dir = mkdtempSync(path.join(tmpdir(), 'tessera-outside-'));
    mkdirSync(path.join(dir, 'text-stats'));
    cpSync(path.join(ROOT, 'examples/text-stats/package.json'), path.join(dir, 'text-stats/package.json'));
    cpSync(path.join(ROOT, 'examples/text-stats/dist'), path.join(dir, 'text-stats/dist'), { recursive: true });
    const studio = await startStudio({ extensionsDir: dir });
    try {
      const { agent } = await signUp(studio.url);
      const space = (await agent.post('/api/space/create', { name: 'Outside' })).space_id;
      const api = (p: string, body: Record<string, unknown>) =>
        agent.post(`/api/workflow_api/${p}`, { space_id: space, ...body });
      const { node_types } = await agent.get('/api/workflow_api/node_types');
      expect(node_types.find((t: { key: string }) => t.key === 'text_stats')).toMatchObject({
        code: 10100,
        category: 'utility',
      });
      const { workflow_id } = await api('create', { name: 'stats' });
      await api('save', {
        workflow_id,
        schema: {
          nodes: [
            node('start', '1', { outputs: [{ name: 'text', type: 'string' }] }),
            node('stats', '10100', { inputs: [ref('text', 'start', ['text'])] }),
            node('end', '2', {
              inputs: [ref('words', 'stats', ['words'], 'integer'), ref('lines', 'stats', ['lines'], 'integer')],
            }),
          ],
          links: [link('start', 'stats'), link('stats', 'end')],
        },
      });
      expect((await api('validate_tree', { workflow_id })).errors).toEqual([]);
      await api('publish', { workflow_id, workflow_version: 'v1.0.0', force: true });
      const pat = await agent.post('/api/permission_api/pat/create', {
        name: 'stats',
        duration_day: '1',
        workspace_permission_list: [{ workspace_id: space, permissions: ['workflow.run'] }],
      });
      const run = await (
        await fetch(`${studio.url}/v1/workflow/run`, {
          method: 'POST',
          headers: { authorization: `Bearer ${pat.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ workflow_id, parameters: { text: 'one two\nthree' } }),
        })
      ).json();
      expect(JSON.parse(run.data)).toEqual({ words: 3, lines: 2 });
    } finally {
      await studio.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("builds a client half that takes React, the SDK and the studio's published modules from the page, and of Arco only the components it uses", () => {
    const dir = path.join(ROOT, 'examples/hello-extension/dist/client');
    // What the studio's page may load: the remote entry and its chunks (not the standalone index page). The
    // Arco components it uses are there as copies the page downloads only when the studio has none (the
    // browser test checks which it takes); the whole kit would be about a megabyte.
    const sizes = (readdirSync(dir, { recursive: true }) as string[])
      .filter((f) => f === 'remoteEntry.js' || /^static\/js\/async\/.*\.js$/.test(f))
      .map((f) => statSync(path.join(dir, f)).size);
    const total = sizes.reduce((a, b) => a + b, 0);
    expect(total).toBeLessThan(400 * 1024);
  });
});
