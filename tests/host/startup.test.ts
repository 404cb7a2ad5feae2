import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, startStudio, type RunningStudio } from '../helpers.ts';

let studio: RunningStudio;
beforeAll(async () => {
  studio = await startStudio();
});
afterAll(() => studio.close());

describe('full start with every built-in extension', () => {
  it('is healthy and every built-in extension runs', async () => {
    const health = await getJson(`${studio.url}/healthz`);
    expect(health.body.status).toBe('ok');
    const ext = await getJson(`${studio.url}/api/extensions`);
    expect(ext.body.code).toBe(0);
    const states = ext.body.data.extensions.map((e: { id: string; state: string }) => `${e.id}:${e.state}`);
    expect(states).toContain('home:started');
    expect(states.every((s: string) => s.endsWith(':started'))).toBe(true);
  });

  it('serves the web studio for page paths and envelopes for unknown API paths', async () => {
    const page = await fetch(`${studio.url}/some/deep/page`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const icon = await fetch(`${studio.url}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toMatch(/image\//);
    expect(await page.text()).toContain('<div id="root">');
    const api = await getJson(`${studio.url}/api/does/not/exist`, { method: 'POST' });
    expect(api.status).toBe(404);
    expect(api.body.code).toBe(404002);
    expect(api.headers.get('x-tt-logid')).toMatch(/^\d{14}[0-9A-F]{16}$/);
  });

  it('answers malformed JSON with a 400 envelope, never a stack trace', async () => {
    const r = await getJson(`${studio.url}/api/host/client_errors`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"message":',
    });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(400002);
    expect(JSON.stringify(r.body)).not.toMatch(/at .*\.ts:\d+/);
    // In the caller's language.
    const zh = await getJson(`${studio.url}/api/space/list`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-language': 'zh-CN,zh;q=0.9' },
      body: '{"name":',
    });
    expect([zh.status, zh.body.msg]).toEqual([400, '请求体不是有效的 JSON（其 Content-Type 为 application/json）。']);
  });

  it('publishes the OpenAPI document of the mounted routes', async () => {
    const doc = await getJson(`${studio.url}/openapi.json`);
    expect(doc.body.openapi).toBe('3.1.0');
  });
});

describe('a data folder that cannot be used', () => {
  it('stops the start with a message naming the folder and the cause (exit 2)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tessera-baddata-'));
    try {
      writeFileSync(path.join(dir, 'file'), 'x');
      const bad = path.join(dir, 'file', 'data');
      const r = spawnSync(
        process.execPath,
        [
          '--no-node-snapshot',
          '--disable-warning=ExperimentalWarning',
          path.join(import.meta.dirname, '../../tools/cli.ts'),
          'start',
          '--port',
          '0',
          '--data',
          bad,
        ],
        { encoding: 'utf8', timeout: 30_000, env: { ...process.env, TESSERA_LOG_LEVEL: 'silent' } },
      );
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(
        `tessera: The data folder ${bad} cannot be used: a part of the path is a file, not a folder.`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
