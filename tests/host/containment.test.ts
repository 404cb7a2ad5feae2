import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.ts';
import { signUp } from '../agent.ts';
import { link, node } from '../workflow-kit.ts';

// The studio as `./tessera start` runs it (its own process, so that what escapes reaches the process's
// handlers), with an extension that throws everywhere it can. The process stays up and says who threw.
let child: ChildProcess;
let url = '';
let output = '';
let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'tessera-unruly-'));
  child = spawn(
    process.execPath,
    [
      '--no-node-snapshot',
      '--disable-warning=ExperimentalWarning',
      path.join(ROOT, 'tools/cli.ts'),
      'start',
      '--port',
      '0',
      '--data',
      dataDir,
    ],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        TESSERA_EXTENSIONS_DIR: path.join(ROOT, 'tests/fixtures/unruly'),
        TESSERA_LOG_LEVEL: 'error',
        TESSERA_EXT_IDENTITY: '{"registerPerMinute":10000}',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const began = Date.now();
  while (!(url = /running on (http:\/\/\S+?) /.exec(output)?.[1] ?? '')) {
    if (child.exitCode !== null || Date.now() - began > 60_000) throw new Error(`the studio did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  url = url.replace('localhost', '127.0.0.1');
}, 90_000);
afterAll(() => {
  child?.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
});

const alive = async () => (await fetch(`${url}/healthz`)).status === 200;
const logged = async (text: string) => {
  const began = Date.now();
  while (!output.includes(text) && Date.now() - began < 5000) await new Promise((r) => setTimeout(r, 50));
  return output;
};

describe('an extension that throws cannot stop the studio', () => {
  it('a throwing route answers an error envelope, logged with the extension id', async () => {
    const r = await fetch(`${url}/api/unruly/throw`);
    expect(r.status).toBe(500);
    expect((await r.json()).msg).toMatch(/log id/);
    expect(await logged('route exploded')).toMatch(
      /"extensionId":"unruly".*route exploded|route exploded.*"extensionId":"unruly"/,
    );
    expect(await alive()).toBe(true);
  });

  it('what escapes after the answer (a timer, an unawaited promise) is logged with the extension, and the process goes on', async () => {
    expect((await (await fetch(`${url}/api/unruly/late`)).json()).data).toBe('answered');
    expect(await logged("uncaught exception in extension 'unruly': timer exploded")).toContain(
      "uncaught exception in extension 'unruly': timer exploded",
    );
    expect(await logged("unhandled rejection in extension 'unruly': promise exploded")).toContain(
      "unhandled rejection in extension 'unruly': promise exploded",
    );
    expect(await alive()).toBe(true);
  });

  it('a failing background job is reported with its extension', async () => {
    await fetch(`${url}/api/unruly/enqueue`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(await logged("background job 'unruly.job' failed: job exploded")).toContain(
      "background job 'unruly.job' failed: job exploded",
    );
    expect(await alive()).toBe(true);
  });

  it("a node that throws fails its run; a node type's throwing check is a problem, not a 500", async () => {
    const { agent } = await signUp(url);
    const space = (await agent.post('/api/space/create', { name: 'Unruly' })).space_id;
    const api = (p: string, body: Record<string, unknown>) =>
      agent.post(`/api/workflow_api/${p}`, { space_id: space, ...body });
    const { workflow_id } = await api('create', { name: 'throws' });
    await api('save', {
      workflow_id,
      schema: {
        nodes: [node('start', '1'), node('boom', '10901'), node('end', '2')],
        links: [link('start', 'boom'), link('boom', 'end')],
      },
    });
    const problems = await api('validate_tree', { workflow_id });
    expect(problems.errors).toContainEqual(
      expect.objectContaining({
        node_id: 'boom',
        message: "The node type 'unruly_throw' could not check this node: check exploded",
      }),
    );
    const { workflow_id: late } = await api('create', { name: 'throws later' });
    await api('save', {
      workflow_id: late,
      schema: {
        nodes: [node('start', '1'), node('late', '10902'), node('end', '2')],
        links: [link('start', 'late'), link('late', 'end')],
      },
    });
    const r = await api('test_run', { workflow_id: late, input: {}, run_mode: 0 });
    expect(r.execute_status).toBe(2);
    expect(await logged("uncaught exception in extension 'unruly': node timer exploded")).toContain(
      'node timer exploded',
    );
    expect(await alive()).toBe(true);
  });
});

describe('an extension whose load or start lets an error escape', () => {
  it('is disabled with the reason and the studio starts, then and at every later start', async () => {
    const data = mkdtempSync(path.join(tmpdir(), 'tessera-escapes-'));
    const start = () =>
      spawnStudio(data, {
        TESSERA_EXTENSIONS_DIR: path.join(ROOT, 'tests/fixtures/start-escapes'),
        TESSERA_LOG_LEVEL: 'error',
      });
    try {
      const first = await start();
      expect(first.output()).toMatch(
        /extension 'escapes' was disabled: (unhandled rejection|uncaught exception) while it loaded or started: (register escaped|start timer escaped)/,
      );
      expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${first.url}/api/escapes/ping`)).status).toBe(404);
      const admin = (await signUp(first.url)).agent;
      const listed = (await admin.get('/api/admin/extensions/list')).extensions.find(
        (e: { id: string }) => e.id === 'escapes',
      );
      expect(listed).toMatchObject({
        state: 'disabled',
        reason: expect.stringMatching(/^disabled by the studio: .*escaped/),
      });
      await first.stop();
      const second = await start();
      expect((await fetch(`${second.url}/healthz`)).status).toBe(200);
      await second.stop();
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });
});

/** `./tessera start` in a process of its own on a data folder; resolves once it listens. */
async function spawnStudio(data: string, env: Record<string, string>) {
  let out = '';
  const p = spawn(
    process.execPath,
    [
      '--no-node-snapshot',
      '--disable-warning=ExperimentalWarning',
      path.join(ROOT, 'tools/cli.ts'),
      'start',
      '--port',
      '0',
      '--data',
      data,
    ],
    { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const running = await new Promise<string>((resolve, reject) => {
    const seen = (d: Buffer) => {
      out += d;
      const m = /running on (http:\/\/\S+?) /.exec(out);
      if (m) resolve(m[1].replace('localhost', '127.0.0.1'));
    };
    p.stdout.on('data', seen);
    p.stderr.on('data', seen);
    p.once('exit', (code) => reject(new Error(`the studio exited (${code}):\n${out}`)));
  });
  return { url: running, output: () => out, stop: () => new Promise((r) => (p.once('exit', r), p.kill('SIGTERM'))) };
}

describe('the configuration names an extension that is not installed', () => {
  it('says so at start, naming where and the installed ones', async () => {
    const data = mkdtempSync(path.join(tmpdir(), 'tessera-unknown-ext-'));
    try {
      const s = await spawnStudio(data, {
        TESSERA_DISABLE: 'billing',
        TESSERA_EXT_NOPE: '{}',
        TESSERA_LOG_LEVEL: 'warn',
        TESSERA_LOG_FORMAT: 'json',
      });
      await s.stop();
      expect(s.output()).toContain(
        "TESSERA_DISABLE names the extension 'billing', which is not installed; it is ignored. The installed ones are: ",
      );
      expect(s.output()).toContain("TESSERA_EXT_NOPE names the extension 'nope'");
      expect(s.output()).toMatch(/The installed ones are: [^.]*\bworkflow\b/);
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });
});
