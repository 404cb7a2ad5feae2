import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineExtension } from '@tessera/sdk/server';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { loadConfig } from '../src/config.ts';
import { checkDataDir } from '../src/data-dir.ts';
import { isPrivateAddress } from '../src/outbound.ts';
import { logSafe } from '../src/server.ts';
import { CONTENT_SECURITY_POLICY } from '../src/http/security.ts';

const probe = defineExtension({
  id: 'probe',
  register(ctx) {
    ctx.route({ method: 'POST', path: '/api/probe/echo', auth: 'anonymous', handler: ({ body }) => ({ got: !!body }) });
    ctx.route({
      method: 'GET',
      path: '/api/probe/page',
      auth: 'anonymous',
      handler: (_req, reply) => reply.send('<p>page</p>', 'text/html; charset=utf-8'),
    });
    ctx.route({ method: 'GET', path: '/v1/probe', auth: 'user', permission: 'probe.read', handler: () => ['p'] });
  },
});

let t: ExtensionTester;
beforeAll(async () => {
  t = await createExtensionTester(probe, { spaces: { s1: { ann: 'member' } } });
});
afterAll(() => t.close());

describe('browser security headers', () => {
  it('sends nosniff, a referrer policy and no framing on every response, and the CSP on pages', async () => {
    const json = await t.request({ method: 'POST', url: '/api/probe/echo', body: {} });
    expect(json.headers['x-content-type-options']).toBe('nosniff');
    expect(json.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(json.headers['x-frame-options']).toBe('DENY');
    const page = await t.request({ url: '/api/probe/page' });
    expect(page.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
  });
});

describe('JSON input', () => {
  it('refuses a body nested deeper than 100 levels with a 400, and the server goes on', async () => {
    const deep = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
    const r = await t.request({ method: 'POST', url: '/api/probe/echo', body: deep });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      code: 400002,
      msg: 'The request body nests more than 100 levels deep; flatten it.',
    });
    const fine = '{"a":'.repeat(50) + '1' + '}'.repeat(50);
    expect((await t.request({ method: 'POST', url: '/api/probe/echo', body: fine })).body.data).toEqual({ got: true });
  });
});

describe('the open API speaks Coze codes', () => {
  it("maps the studio's errors to 4100 / 4200 with the log id under detail.logid", async () => {
    const anon = await t.request({ url: '/v1/probe' });
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual({ code: 4100, msg: expect.any(String), detail: { logid: anon.logId } });
    const missing = await t.request({ url: '/v1/nothing-here' });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe(4200);
    expect((await t.request({ url: '/api/nothing-here' })).body.code).toBe(404002);
  });
});

describe('client error reports', () => {
  it('escapes line breaks so one report is one log line, and caps the size', async () => {
    expect(logSafe({ message: 'a\nb\r\tc\u2028', nested: ['x\ny'] })).toEqual({
      message: 'a\\nb\\r\\tc\\u2028',
      nested: ['x\\ny'],
    });
    const big = await t.request({
      method: 'POST',
      url: '/api/host/client_errors',
      body: { message: 'x'.repeat(20_000) },
    });
    expect(big.status).toBe(413);
    expect(
      (await t.request({ method: 'POST', url: '/api/host/client_errors', body: { message: 'line one\nline two' } }))
        .status,
    ).toBe(200);
  });
});

describe('outbound addresses', () => {
  it('judges IPv6 forms that carry an IPv4 address by that address', () => {
    for (const a of [
      '::7f00:1',
      '::127.0.0.1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '64:ff9b::7f00:1',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b::10.0.0.1',
      '2002:7f00:1::',
      '2002:a9fe:a9fe::1',
      '2002:c0a8:101::',
      '::',
      '::1',
      'fe80::1',
      'fd00::1',
    ])
      expect(isPrivateAddress(a), a).toBe(true);
    for (const a of ['2606:4700::1111', '64:ff9b::808:808', '2002:808:808::', '::ffff:8.8.8.8', '8.8.8.8'])
      expect(isPrivateAddress(a), a).toBe(false);
  });
});

describe('the data folder', () => {
  const base = mkdtempSync(path.join(tmpdir(), 'tessera-datadir-'));
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('is made when missing and accepted when writable', () => {
    expect(() => checkDataDir(path.join(base, 'fresh', 'data'))).not.toThrow();
  });

  it('is refused by name when a file stands in the way', () => {
    writeFileSync(path.join(base, 'afile'), 'x');
    expect(() => checkDataDir(path.join(base, 'afile', 'data'))).toThrow(
      `The data folder ${path.join(base, 'afile', 'data')} cannot be used: a part of the path is a file, not a folder.`,
    );
  });

  it('is refused when the disk has too little room', () => {
    expect(() => checkDataDir(path.join(base, 'fresh', 'data'), Number.MAX_SAFE_INTEGER)).toThrow(
      /cannot be used: the disk is full \(\d+ KB free/,
    );
  });

  it('is refused when read-only or full (real mounts, where this machine lets the test mount)', (ctx) => {
    const ro = path.join(base, 'ro');
    const full = path.join(base, 'full');
    mkdirSync(ro);
    mkdirSync(full);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'tmpfs', ro], { stdio: 'ignore' });
    } catch {
      ctx.skip();
    }
    try {
      expect(() => checkDataDir(ro)).toThrow(`The data folder ${ro} cannot be used: it is on a read-only file system.`);
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4k', 'tmpfs', full], { stdio: 'ignore' });
      expect(() => checkDataDir(full)).toThrow(/cannot be used: the disk is full/);
    } finally {
      for (const d of [ro, full]) {
        try {
          execFileSync('umount', [d], { stdio: 'ignore' });
        } catch {
          /* not mounted */
        }
      }
    }
  });
});

describe('configuration', () => {
  it('reads which proxies to trust for the client address', () => {
    expect(loadConfig({ root: '/srv', env: {} }).trustProxy).toBe(false);
    expect(loadConfig({ root: '/srv', env: { TESSERA_TRUST_PROXY: 'true' } }).trustProxy).toBe(true);
    expect(loadConfig({ root: '/srv', env: { TESSERA_TRUST_PROXY: '1' } }).trustProxy).toBe(1);
    expect(loadConfig({ root: '/srv', env: { TESSERA_TRUST_PROXY: '10.0.0.0/8' } }).trustProxy).toBe('10.0.0.0/8');
  });
});

describe('the console', () => {
  it('writes log lines readably for a terminal', async () => {
    const { prettyLine } = await import('../src/pretty-log.ts');
    const line = prettyLine(
      JSON.stringify({
        level: 40,
        time: Date.UTC(2026, 10, 23, 9, 4, 5),
        msg: "extension 'billing' disabled: disabled by configuration",
        extensionId: 'billing',
      }),
      false,
    );
    expect(line).toMatch(
      /^\d\d:\d\d:\d\d warn  extension 'billing' disabled: disabled by configuration  extensionId=billing$/,
    );
  });
});
