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
});
