import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, startStudio } from '../helpers.ts';
import { signUp } from '../agent.ts';
import { link, node, ref } from '../workflow-kit.ts';
import { packPackages } from '../../tools/pack.ts';

// The author's shell: the same Node as the studio's, npm from the registry; a command must succeed.
const env = {
  ...process.env,
  PATH: `${path.dirname(process.execPath)}:${process.env.PATH}`,
  npm_config_loglevel: 'error',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
};
function run(cmd: string, args: string[], cwd: string): string {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout: 300_000 });
  expect(r.status, `${cmd} ${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(0);
  return r.stdout;
}

// An outside author's path, end to end: the packed author packages, a node type scaffolded outside this
// checkout, its own npm install / npm test / npm run build, dropped into a studio and run by the open API.
describe('a node type made outside the checkout from the packed packages', () => {
  it('installs, tests and builds on its own, then runs in the studio', async () => {
    const tarballs = packPackages();
    expect(Object.keys(tarballs).sort()).toEqual([
      '@tessera/core',
      '@tessera/sdk',
      '@tessera/server',
      '@tessera/workflow-sdk',
    ]);
    const work = mkdtempSync(path.join(tmpdir(), 'tessera-author-'));
    try {
      run(
        process.execPath,
        [
          '--no-node-snapshot',
          '--disable-warning=ExperimentalWarning',
          path.join(ROOT, 'tools/cli.ts'),
          'create-extension',
          'word-case',
          '--out',
          work,
          '--template',
          'node-type',
        ],
        ROOT,
      );
      const dir = path.join(work, 'word-case');
      run('npm', ['install'], dir);
      // On a Node older than the studio's, npm test says so instead of crashing in the test runner.
      const old = spawnSync('/usr/bin/node', ['-p', 'process.versions.node'], { encoding: 'utf8' });
      if (old.status === 0 && Number(old.stdout.split('.')[0]) < 22) {
        const r = spawnSync('npm', ['test'], {
          cwd: dir,
          env: { ...env, PATH: `/usr/bin:${process.env.PATH}` },
          encoding: 'utf8',
          timeout: 120_000,
        });
        expect([r.status, `${r.stdout}${r.stderr}`]).toEqual([
          1,
          expect.stringContaining('This extension needs Node.js 22.12 or newer'),
        ]);
      }
      expect(run('npm', ['test'], dir)).toMatch(/2 passed/);
      run('npm', ['run', 'build'], dir);
      // As the README says: npm pack, and the tarball is what the studio takes (dist included).
      const tarball = run('npm', ['pack', '--silent'], dir).trim().split('\n').at(-1)!;
      const extensionsDir = path.join(work, 'extensions.d');
      mkdirSync(extensionsDir, { recursive: true });
      run('tar', ['-xzf', path.join(dir, tarball), '-C', extensionsDir], dir);
      renameSync(path.join(extensionsDir, 'package'), path.join(extensionsDir, 'word-case'));
      expect(existsSync(path.join(extensionsDir, 'word-case/dist/server/index.js'))).toBe(true);
      const studio = await startStudio({ extensionsDir });
      try {
        const { agent } = await signUp(studio.url);
        const space = (await agent.post('/api/space/create', { name: 'Authors' })).space_id;
        const api = (p: string, body: Record<string, unknown>) =>
          agent.post(`/api/workflow_api/${p}`, { space_id: space, ...body });
        const type = (await agent.get('/api/workflow_api/node_types')).node_types.find(
          (t: { key: string }) => t.key === 'word_case',
        );
        expect(type).toMatchObject({ category: 'custom' });
        const { workflow_id } = await api('create', { name: 'shout' });
        await api('save', {
          workflow_id,
          schema: {
            nodes: [
              node('start', '1', { outputs: [{ name: 'text', type: 'string' }] }),
              node('wc', type.type, { inputs: [ref('text', 'start', ['text'])], settings: { mode: 'upper' } }),
              node('end', '2', { inputs: [ref('out', 'wc', ['output'])] }),
            ],
            links: [link('start', 'wc'), link('wc', 'end')],
          },
        });
        await api('publish', { workflow_id, workflow_version: 'v1.0.0', force: true });
        const pat = await agent.post('/api/permission_api/pat/create', {
          name: 'author',
          duration_day: '1',
          workspace_permission_list: [{ workspace_id: space, permissions: ['workflow.run'] }],
        });
        const r = await (
          await fetch(`${studio.url}/v1/workflow/run`, {
            method: 'POST',
            headers: { authorization: `Bearer ${pat.token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ workflow_id, parameters: { text: 'quiet words' } }),
          })
        ).json();
        expect(JSON.parse(r.data)).toEqual({ out: 'QUIET WORDS' });
      } finally {
        await studio.close();
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 600_000);

  it("tests a server half outside the checkout with the SDK's tester, from the packed packages", async () => {
    packPackages();
    const work = mkdtempSync(path.join(tmpdir(), 'tessera-author-srv-'));
    try {
      run(
        process.execPath,
        [
          '--no-node-snapshot',
          '--disable-warning=ExperimentalWarning',
          path.join(ROOT, 'tools/cli.ts'),
          'create-extension',
          'greet-srv',
          '--out',
          work,
          '--template',
          'server',
        ],
        ROOT,
      );
      const dir = path.join(work, 'greet-srv');
      run('npm', ['install'], dir);
      expect(run('npm', ['test'], dir)).toMatch(/2 passed/);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 600_000);
});
