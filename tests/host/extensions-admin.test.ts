import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startStudio, textStatsTarball, type RunningStudio } from '../helpers.ts';
import { signUp, type Agent } from '../agent.ts';
import { writeTarball } from '../../host/server/src/tarball.ts';

const extensionsDir = mkdtempSync(path.join(tmpdir(), 'tessera-admin-ext-'));
let dataDir = '';
let studio: RunningStudio;
let admin: Agent;
let cookies: Map<string, string>;
const start = async () => {
  studio = await startStudio({
    extensionsDir,
    ...(dataDir ? { keepData: dataDir } : {}),
    keepDatabase: true,
    ...(studio?.databaseUrl ? { env: { DATABASE_URL: studio.databaseUrl } } : {}),
  });
  dataDir = studio.dataDir;
  if (admin) {
    admin.base = studio.url;
    admin.cookies = new Map(cookies);
  }
};
const restart = async () => {
  cookies = new Map(admin.cookies);
  await studio.server.close();
  await start();
};
const states = async () =>
  Object.fromEntries(
    ((await admin.get('/api/admin/extensions/list')).extensions as { id: string; state: string; source: string }[])
      .filter((e) => e.source !== 'test')
      .map((e) => [e.id, e.state]),
  );
afterAll(async () => {
  await studio.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(extensionsDir, { recursive: true, force: true });
});

describe('the extensions of the studio for its administrators', () => {
  it('shows the cascade of a disable, applies it at the next start, and enables it back', async () => {
    await start();
    admin = (await signUp(studio.url, 'admin')).agent; // the first user is the platform administrator
    const { extensions } = await admin.get('/api/admin/extensions/list');
    const workflow = extensions.find((e: { id: string }) => e.id === 'workflow');
    expect(workflow.contributions.find((c: { point: string }) => c.point === 'server.apiRoutes').keys).toContain(
      'POST /api/workflow_api/create',
    );
    const { changes } = await admin.post('/api/admin/extensions/preview', { changes: { models: false } });
    expect(changes).toEqual(
      expect.arrayContaining([
        { id: 'models', change: 'disable', reason: 'disabled by configuration' },
        { id: 'node-llm', change: 'disable', reason: expect.stringMatching(/^requires 'models'/) },
        { id: 'provider-openai', change: 'disable', reason: expect.stringMatching(/^requires 'models'/) },
      ]),
    );
    expect(changes.find((c: { id: string }) => c.id === 'workflow')).toBeUndefined();
    await admin.post('/api/admin/extensions/set_enabled', { changes: { models: false } });
    expect(
      (await admin.get('/api/admin/extensions/list')).extensions.find((e: { id: string }) => e.id === 'models').pending,
    ).toBe('disable');
    expect((await states()).models).toBe('started'); // nothing changes until the next start
    await restart();
    const after = await states();
    expect(after).toMatchObject({ models: 'disabled', 'node-llm': 'disabled', workflow: 'started' });
    await admin.post('/api/admin/extensions/set_enabled', { changes: { models: true } });
    await restart();
    expect(await states()).toMatchObject({ models: 'started', 'node-llm': 'started' });
  });

  it('installs a runtime extension from a package tarball, loads it at the next start, and removes it', async () => {
    const installed = await admin.post('/api/admin/extensions/install', {
      file_name: 'text-stats-1.0.0.tgz',
      content_base64: textStatsTarball().toString('base64'),
    });
    expect(installed).toEqual({
      id: 'text-stats',
      version: '1.0.0',
      folder: path.join(extensionsDir, 'text-stats'),
      replaced: false,
    });
    expect(existsSync(path.join(extensionsDir, 'text-stats/dist/server/index.js'))).toBe(true);
    await restart();
    expect((await states())['text-stats']).toBe('started');
    expect(
      (await admin.get('/api/workflow_api/node_types')).node_types.some((t: { key: string }) => t.key === 'text_stats'),
    ).toBe(true);
    await admin.post('/api/admin/extensions/remove', { id: 'text-stats' });
    expect(existsSync(path.join(extensionsDir, 'text-stats'))).toBe(false);
    await restart();
    expect((await states())['text-stats']).toBeUndefined();
  });

  it('refuses what it cannot install safely, and is for platform administrators only', async () => {
    const refuse = async (files: Record<string, string>, msg: RegExp) => {
      const r = await admin.request('POST', '/api/admin/extensions/install', {
        content_base64: writeTarball(files).toString('base64'),
      });
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.body.msg).toMatch(msg);
    };
    await refuse({ 'README.md': 'x' }, /has no package.json/);
    await refuse({ 'package.json': '{"name":"x"}' }, /not a Tessera extension/);
    await refuse({ 'package.json': '{"name":"x","tessera":{"id":"workflow"}}' }, /built-in extension's id/);
    await refuse(
      { 'package.json': '{"name":"x","tessera":{"id":"needs-server","server":"./dist/server/index.js"}}' },
      /not in the package \(build it before packing\)/,
    );
    await refuse(
      { 'package.json': '{"name":"x","engines":{"tessera":">=3.0.0"},"tessera":{"id":"future"}}' },
      /needs Tessera >=3\.0\.0/,
    );
    await refuse(
      { '../../escape.js': 'x', 'package.json': '{"name":"x","tessera":{"id":"escape"}}' },
      /a path outside the package/,
    );
    const r = await admin.request('POST', '/api/admin/extensions/install', {
      content_base64: Buffer.from('not a tarball').toString('base64'),
    });
    expect(r.body.msg).toMatch(/not a gzipped tarball/);
    const user = (await signUp(studio.url, 'someone')).agent;
    expect((await user.request('GET', '/api/admin/extensions/list')).status).toBe(403);
    expect(
      (await user.request('POST', '/api/admin/extensions/set_enabled', { changes: { models: false } })).status,
    ).toBe(403);
  });

  it('refuses a change that would turn off this page (itself, or what it needs), so the way back stays', async () => {
    const self = await admin.request('POST', '/api/admin/extensions/set_enabled', {
      changes: { 'extensions-admin': false },
    });
    expect([self.status, self.body.msg]).toEqual([
      409,
      expect.stringContaining('would turn off Extensions (extensions-admin) at the next start'),
    ]);
    const needed = await admin.request('POST', '/api/admin/extensions/set_enabled', { changes: { identity: false } });
    expect([needed.status, needed.body.msg]).toEqual([
      409,
      expect.stringContaining('this page needs what it would turn off'),
    ]);
    expect(
      (await admin.get('/api/admin/extensions/list')).extensions.find(
        (e: { id: string }) => e.id === 'extensions-admin',
      ).pending,
    ).toBeUndefined();
  });
});
