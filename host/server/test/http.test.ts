import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError, ErrorCode, conflict } from '@tessera/sdk';
import { ErrorSinks, ServerRequestInterceptors, defineExtension } from '@tessera/sdk/server';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';

const notes = defineExtension({
  id: 'notes',
  register(ctx) {
    ctx.migrations([
      {
        name: '0001_notes',
        up: (db) =>
          db.schema
            .createTable('notes_note')
            .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
            .addColumn('space_id', 'varchar(32)')
            .addColumn('title', 'text')
            .execute(),
      },
    ]);
    ctx.route({
      method: 'POST',
      path: '/api/notes/create',
      auth: { space: { from: 'body', field: 'space_id' } },
      body: z.object({ space_id: z.string(), title: z.string().min(1).max(100) }),
      handler: async ({ body }) => {
        if (body.title === 'dup') throw conflict('A note with this title exists.');
        const id = ctx.host.newId();
        await ctx.db.insertInto('notes_note').values({ id, space_id: body.space_id, title: body.title }).execute();
        return { id, big: 2n ** 63n - 1n };
      },
    });
    ctx.route({
      method: 'GET',
      path: '/api/notes/boom',
      auth: 'anonymous',
      handler: () => {
        throw new Error('secret internals');
      },
    });
    ctx.route({ method: 'GET', path: '/api/notes/admin', auth: 'platformAdmin', handler: () => 'ok' });
    ctx.route({ method: 'GET', path: '/v1/notes', auth: 'user', permission: 'notes.read', handler: () => ['n'] });
  },
});

let t: ExtensionTester;
beforeAll(async () => {
  t = await createExtensionTester(notes, {
    spaces: { s1: { ann: 'member' } },
    users: { root: { isPlatformAdmin: true } },
  });
});
afterAll(() => t.close());

describe('server host HTTP conventions', () => {
  it('wraps results in the envelope, with a log id and 64-bit ids as strings', async () => {
    const r = await t.request({
      method: 'POST',
      url: '/api/notes/create',
      body: { space_id: 's1', title: 'hello' },
      as: 'ann',
    });
    expect(r.status).toBe(200);
    expect(r.body.code).toBe(0);
    expect(r.body.data.id).toMatch(/^\d{15,20}$/);
    expect(r.body.data.big).toBe('9223372036854775807');
    expect(r.logId).toMatch(/^\d{14}[0-9A-F]{16}$/);
  });

  it('answers 401 to anonymous callers and 403 outside the space', async () => {
    const anon = await t.request({ method: 'POST', url: '/api/notes/create', body: { space_id: 's1', title: 'x' } });
    expect(anon.status).toBe(401);
    expect(anon.body.code).toBe(ErrorCode.UNAUTHORIZED);
    const other = await t.request({
      method: 'POST',
      url: '/api/notes/create',
      body: { space_id: 's1', title: 'x' },
      as: 'bob',
    });
    expect(other.status).toBe(403);
    expect(other.body.msg).toMatch(/not a member/);
    const admin = await t.request({ url: '/api/notes/admin', as: 'ann' });
    expect(admin.status).toBe(403);
    expect((await t.request({ url: '/api/notes/admin', as: 'root' })).body.data).toBe('ok');
  });

  it('names the invalid field in a 400 envelope', async () => {
    const r = await t.request({
      method: 'POST',
      url: '/api/notes/create',
      body: { space_id: 's1', title: '' },
      as: 'ann',
    });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(ErrorCode.INVALID_PARAMS);
    expect(r.body.msg).toMatch(/^Invalid request: title: /); // the field's name; its path is in data.fields
    expect(r.body.data.fields[0].field).toBe('body.title');
  });

  it('turns malformed JSON, unknown routes, business errors and crashes into envelopes', async () => {
    const bad = await t.request({ method: 'POST', url: '/api/notes/create', body: '{"space_id": ', as: 'ann' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(ErrorCode.MALFORMED_BODY);
    // In the caller's language, the whole message (not Fastify's English inside a Chinese sentence).
    const zh = await t.request({
      method: 'POST',
      url: '/api/notes/create',
      body: '{bad',
      headers: { 'content-type': 'application/json', 'accept-language': 'zh-CN,zh;q=0.9' },
      as: 'ann',
    });
    expect(zh.body.msg).toBe('请求体不是有效的 JSON（其 Content-Type 为 application/json）。');
    const missing = await t.request({ url: '/api/nope' });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: ErrorCode.ROUTE_NOT_FOUND });
    expect(missing.logId).not.toBe('');
    const dup = await t.request({
      method: 'POST',
      url: '/api/notes/create',
      body: { space_id: 's1', title: 'dup' },
      as: 'ann',
    });
    expect(dup.status).toBe(409);
    const boom = await t.request({ url: '/api/notes/boom' });
    expect(boom.status).toBe(500);
    expect(boom.text).not.toContain('secret internals');
    expect(boom.body.msg).toMatch(/log id/);
  });

  it('formats an ApiError as status, code, message and log id on one line', () => {
    expect(String(new ApiError(403, 403001, 'No access', 'L1'))).toBe('403 403001 No access L1');
  });

  it('publishes an OpenAPI document and a health check', async () => {
    const doc = await t.request({ url: '/openapi.json' });
    expect(
      doc.body.paths['/api/notes/create'].post.requestBody.content['application/json'].schema.properties.title.type,
    ).toBe('string');
    expect((await t.request({ url: '/healthz' })).body.status).toBe('ok');
  });
});

describe('server-side request interceptors and error sinks', () => {
  const seen: { route: string; caller?: string; extensionId: string }[] = [];
  const sunk: { source: string; extensionId?: string; status?: number }[] = [];
  const policy = defineExtension({
    id: 'policy',
    register(ctx) {
      ctx.tap(ServerRequestInterceptors, 'maintenance', (r) => {
        seen.push({ route: r.route, caller: r.caller?.userId, extensionId: r.extensionId });
        if (r.headers['x-maintenance'] === 'on' && r.route.startsWith('/api/notes/'))
          return new ApiError(503, ErrorCode.UNAVAILABLE, 'Notes are in maintenance; try again in ten minutes.');
        // An extension's mistake: a refusal that is not an ApiError.
        if (r.headers['x-sloppy'] === 'on') return 'no' as unknown as ApiError;
        return undefined;
      });
      ctx.tap(
        ErrorSinks,
        'collect',
        (e) => void sunk.push({ source: e.source, extensionId: e.extensionId, status: e.api?.status }),
      );
      ctx.route({
        method: 'GET',
        path: '/api/notes/boom',
        auth: 'anonymous',
        handler: () => {
          throw new Error('secret internals');
        },
      });
      ctx.route({ method: 'GET', path: '/api/notes/admin', auth: 'platformAdmin', handler: () => 'ok' });
    },
  });
  let p: ExtensionTester;
  beforeAll(async () => {
    p = await createExtensionTester(policy, { users: { ann: {} } });
  });
  afterAll(() => p?.close());

  it('sees each request after auth with its route and caller, and refuses it by returning an ApiError', async () => {
    const ok = await p.request({ url: '/api/notes/admin', as: 'ann' });
    expect(ok.status).toBe(403);
    const refused = await p.request({ url: '/api/notes/boom', headers: { 'x-maintenance': 'on' } });
    expect([refused.status, refused.body.msg]).toEqual([503, 'Notes are in maintenance; try again in ten minutes.']);
    expect(seen).toContainEqual({ route: '/api/notes/boom', caller: undefined, extensionId: 'policy' });
    const sloppy = await p.request({ url: '/api/notes/boom', headers: { 'x-sloppy': 'on' } });
    expect([sloppy.status, sloppy.body.msg]).toEqual([
      403,
      'This request was refused by a request policy of the studio.',
    ]);
  });

  it('reports a failed route to the error sinks with its extension and status', async () => {
    expect((await p.request({ url: '/api/notes/boom' })).status).toBe(500);
    expect(sunk).toContainEqual({ source: 'request', extensionId: 'policy', status: 500 });
  });
});
