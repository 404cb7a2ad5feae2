import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEndpoint, defineService } from '@tessera/sdk';
import { defineExtension } from '@tessera/sdk/server';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';

// One contract for both halves (defineEndpoint), checked as it goes out in tests; the tester's stand-in for a
// service the extension provides itself.
const Clock = defineService<{ now(): string }>({ id: 'contracts.clock', owner: 'contracts', description: 'time' });
const Now = defineEndpoint({
  method: 'GET',
  path: '/api/contracts/now',
  response: z.object({ now: z.string() }),
});
const Drifted = defineEndpoint({
  method: 'POST',
  path: '/api/contracts/drifted',
  body: z.object({ name: z.string().min(1) }),
  response: z.object({ count: z.number().int() }),
});

const extension = defineExtension({
  id: 'contracts',
  register(ctx) {
    ctx.provide(Clock, { now: () => 'the real time' });
    ctx.route({ ...Now, auth: 'user', handler: () => ({ now: ctx.service(Clock).now() }) });
    // A handler that no longer answers what its contract says (as a refactor that renamed a field would).
    ctx.route({ ...Drifted, auth: 'user', handler: () => ({ count: 'three' }) as unknown as { count: number } });
    // Routes that answer bytes or a redirect, as they declare; and one that declares a file but answers JSON.
    ctx.route({
      method: 'GET',
      path: '/api/contracts/export',
      auth: 'user',
      produces: 'text/csv',
      handler: (_req, reply) => reply.send('a,b\n1,2\n', 'text/csv; charset=utf-8'),
    });
    ctx.route({
      method: 'GET',
      path: '/api/contracts/away',
      auth: 'user',
      produces: 'redirect',
      handler: (_req, reply) => {
        reply.status(302);
        reply.header('location', '/elsewhere');
        reply.send('', 'text/plain');
      },
    });
    ctx.route({
      method: 'GET',
      path: '/api/contracts/not_a_file',
      auth: 'user',
      produces: 'text/csv',
      handler: () => ({}),
    });
  },
});

describe('endpoint contracts and the tester', () => {
  let t: ExtensionTester;
  beforeAll(async () => {
    t = await createExtensionTester(extension, { services: [[Clock, { now: () => 'a fixed time' }]] });
  });
  afterAll(() => t.close());

  it("answers with the tester's stand-in for a service the extension provides itself", async () => {
    expect(await t.call('GET', Now.path, undefined, 'ann')).toEqual({ now: 'a fixed time' });
  });

  it('validates what comes in by the contract', async () => {
    const r = await t.request({ method: 'POST', url: Drifted.path, body: { name: '' }, as: 'ann' });
    expect(r.status).toBe(400);
  });

  it('fails a handler whose answer drifted from its contract, naming the field (the suite checks responses)', async () => {
    const r = await t.request({ method: 'POST', url: Drifted.path, body: { name: 'x' }, as: 'ann' });
    if (process.env.TESSERA_CHECK_RESPONSES === '1') {
      expect(r.status).toBe(500);
      expect(r.body.msg).toMatch(
        /^POST \/api\/contracts\/drifted answered what its response schema does not describe: count:/,
      );
    } else expect(r.body.data).toEqual({ count: 'three' });
  });

  it('describes the request and the answer in the OpenAPI document', async () => {
    const doc = (await t.request({ url: '/openapi.json' })).body;
    const op = doc.paths['/api/contracts/drifted'].post;
    expect(JSON.stringify(op.requestBody)).toContain('"name"');
    expect(JSON.stringify(op.responses)).toContain('"count"');
  });

  it('describes a route that answers a file by its media type, and one that redirects by its 302', async () => {
    const doc = (await t.request({ url: '/openapi.json' })).body;
    expect(Object.keys(doc.paths['/api/contracts/export'].get.responses[200].content)).toEqual(['text/csv']);
    const away = doc.paths['/api/contracts/away'].get.responses;
    expect(away[302].headers.location).toBeDefined();
    expect(away[200]).toBeUndefined();
    const csv = await t.request({ url: '/api/contracts/export', as: 'ann' });
    expect(csv.status).toBe(200);
    expect(String(csv.headers['content-type'])).toMatch(/^text\/csv/);
  });

  it('fails a route that declares a file but answers JSON (the suite checks responses)', async () => {
    const r = await t.request({ url: '/api/contracts/not_a_file', as: 'ann' });
    if (process.env.TESSERA_CHECK_RESPONSES === '1') {
      expect(r.status).toBe(500);
      expect(r.body.msg).toBe('GET /api/contracts/not_a_file declares that it answers text/csv, but answered JSON.');
    } else expect(r.body.data).toEqual({});
  });
});
