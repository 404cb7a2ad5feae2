import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defineEvent } from '@tessera/sdk';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { StudioEventSources, type ServerContext } from '@tessera/sdk/server';
import { SpacesService, type Spaces } from '@tessera/ext-spaces/shared';
import apiApps from '../src/server/index.ts';

// API apps alone, with a stand-in extension that emits an event, and a real HTTP receiver on 127.0.0.1 that answers
// the address check, keeps what it is sent and fails when told to.
const ThingDone = defineEvent<{ space_id: string; thing_id: string; secret: string }>('test.thing.done');
let emitter: ServerContext;
interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}
const received: Received[] = [];
/** Calls a receiver path fails before it answers 200. */
const failures = new Map<string, number>();
let receiver: Server;
let base = '';
const spaces: Spaces = {
  roleOf: async (s, u) => (s === 's1' && u === 'ann' ? 'owner' : undefined) as never,
  personalSpaceOf: async () => 's1',
  spacesOf: async (u) => (u === 'ann' ? ['s1'] : ['s2']),
  isPublishMember: async () => true,
  ensureMember: async () => undefined,
  removeMember: async () => undefined,
};

const tester = (allowPrivateNetwork: boolean) =>
  createExtensionTester(apiApps, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    config: { retryBaseMs: 20, maxAttempts: 3 },
    allowPrivateNetwork,
    stubs: [
      { id: 'identity' },
      { id: 'spaces', services: [[SpacesService, spaces]] },
      {
        id: 'things',
        register(ctx) {
          emitter = ctx;
          ctx.register(StudioEventSources, {
            key: 'thing.done',
            label: { 'en-US': 'A thing was done', 'zh-CN': '完成了一件事' },
            event: ThingDone,
            spaceOf: (p) => p.space_id,
            // What may leave the studio: not the secret.
            data: (p) => ({ thing_id: p.thing_id }),
          });
        },
      },
    ],
    users: { ann: { userId: 'ann' }, bob: { userId: 'bob' } },
    spaces: { s1: { ann: 'owner' }, s2: { bob: 'owner' } },
  });

let t: ExtensionTester;
beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const parsed = JSON.parse(body || '{}') as { type?: string; challenge?: string };
      if (parsed.type === 'url_verification') {
        res.setHeader('content-type', 'application/json');
        return res.end(req.url === '/silent' ? '{}' : JSON.stringify({ challenge: parsed.challenge }));
      }
      received.push({ path: req.url ?? '', headers: req.headers, body });
      const left = failures.get(req.url ?? '') ?? 0;
      if (left > 0) {
        failures.set(req.url ?? '', left - 1);
        res.statusCode = 503;
        return res.end('busy, try later');
      }
      res.end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  t = await tester(true);
});
afterAll(async () => {
  await t.close();
  receiver.close();
});
beforeEach(() => {
  received.length = 0;
  failures.clear();
});

const call = (url: string, body: Record<string, unknown>, as = 'ann') =>
  t.call('POST', `/api/open/api_apps/${url}`, { space_id: 's1', ...body }, as);
const deliveries = async (appId: string) => (await call('deliveries', { api_app_id: appId })).deliveries;

async function appWithCallback(name: string) {
  const { api_app } = await call('create', { name });
  await call('update', { api_app_id: api_app.id, callback_url: `${base}/hooks/${name}` });
  await call('subscribe', { api_app_id: api_app.id, event_types: ['thing.done'] });
  return api_app as { id: string; verify_token: string };
}

describe('an API app', () => {
  it('shows its signing secret once, and takes an address only when it answers the check', async () => {
    const { api_app } = await call('create', { name: 'Orders' });
    expect(api_app.verify_token).toMatch(/^[\w-]{32}$/);
    const listed = (await call('list_normal', {})).items.find((a: { id: string }) => a.id === api_app.id);
    expect(listed.verify_token).not.toBe(api_app.verify_token);
    expect(listed.verify_token.endsWith(api_app.verify_token.slice(-4))).toBe(true);
    const silent = await t.request({
      method: 'POST',
      url: '/api/open/api_apps/update',
      body: { space_id: 's1', api_app_id: api_app.id, callback_url: `${base}/silent` },
      as: 'ann',
    });
    expect(silent.status).toBe(400);
    expect(silent.body.msg).toMatch(/^The address did not answer the check/);
    const bad = await t.request({
      method: 'POST',
      url: '/api/open/api_apps/subscribe',
      body: { space_id: 's1', api_app_id: api_app.id, event_types: ['thing.vanished'] },
      as: 'ann',
    });
    expect(bad.body.msg).toBe('There is no event type "thing.vanished" (there are thing.done, ping).');
    const ok = await call('update', { api_app_id: api_app.id, callback_url: `${base}/hooks` });
    expect(ok.api_app.callback_url).toBe(`${base}/hooks`);
  });

  it('receives the events of its space it subscribed to, signed over the timestamp and the body', async () => {
    const app = await appWithCallback('Signed');
    emitter.emit(ThingDone, { space_id: 's2', thing_id: 'elsewhere', secret: 'x' });
    emitter.emit(ThingDone, { space_id: 's1', thing_id: 't1', secret: 'never sent' });
    await expect.poll(() => received.filter((x) => x.path === '/hooks/Signed').length).toBe(1);
    const r = received.find((x) => x.path === '/hooks/Signed')!;
    expect(r.headers['x-tessera-event']).toBe('thing.done');
    const ts = Number(r.headers['x-tessera-timestamp']);
    const expected = `sha256=${createHmac('sha256', app.verify_token).update(`${ts}.${r.body}`).digest('hex')}`;
    expect(r.headers['x-tessera-signature']).toBe(expected);
    const body = JSON.parse(r.body);
    expect(body).toMatchObject({
      header: { event_type: 'thing.done', api_app_id: app.id, attempt: 1 },
      event: { thing_id: 't1' },
    });
    expect(r.body).not.toContain('never sent');
    await expect.poll(async () => (await deliveries(app.id))[0]?.status).toBe('succeeded');
  });

  it('retries a failing receiver with backoff, keeping each answer, and can send again by hand after giving up', async () => {
    const app = await appWithCallback('Flaky');
    failures.set('/hooks/Flaky', 2);
    emitter.emit(ThingDone, { space_id: 's1', thing_id: 't2', secret: '' });
    await expect.poll(async () => (await deliveries(app.id))[0]?.status, { timeout: 5000 }).toBe('succeeded');
    const [d] = await deliveries(app.id);
    expect(d.attempts).toBe(3);
    expect(d.history.map((h: { status_code: number; response: string }) => [h.status_code, h.response])).toEqual([
      [503, 'busy, try later'],
      [503, 'busy, try later'],
      [200, 'ok'],
    ]);
    expect(d.history[0].error).toBe('The receiver answered HTTP 503.');

    failures.set('/hooks/Flaky', 10);
    emitter.emit(ThingDone, { space_id: 's1', thing_id: 't3', secret: '' });
    await expect.poll(async () => (await deliveries(app.id))[0]?.status, { timeout: 5000 }).toBe('failed');
    const gaveUp = (await deliveries(app.id))[0];
    expect(gaveUp.attempts).toBe(3);
    failures.clear();
    const again = await call('redeliver', { delivery_id: gaveUp.delivery_id });
    expect(again.delivery).toMatchObject({ status: 'succeeded', attempts: 4 });
  });

  it('is sent a test event by hand, and stops receiving once deleted', async () => {
    const app = await appWithCallback('Pinged');
    const ping = await call('ping', { api_app_id: app.id });
    expect(ping.delivery).toMatchObject({ event_type: 'ping', status: 'succeeded', history: [{ status_code: 200 }] });
    await call('delete', { api_app_id: app.id });
    received.length = 0;
    emitter.emit(ThingDone, { space_id: 's1', thing_id: 't4', secret: '' });
    await t.server.queue.drain();
    expect(received.filter((x) => x.path === '/hooks/Pinged')).toEqual([]);
  });

  it("is kept to its space's members", async () => {
    const { api_app } = await call('create', { name: 'Private' });
    const other = await t.request({
      method: 'POST',
      url: '/api/open/api_apps/deliveries',
      body: { space_id: 's1', api_app_id: api_app.id },
      as: 'bob',
    });
    expect(other.status).toBe(403);
    const elsewhere = await t.request({
      method: 'POST',
      url: '/api/open/api_apps/update',
      body: { space_id: 's2', api_app_id: api_app.id, name: 'Mine now' },
      as: 'bob',
    });
    expect(elsewhere.status).toBe(404);
  });
});

describe('the open API, in the shapes Coze answers', () => {
  it('makes, lists, subscribes, reads, unsubscribes and deletes an app', async () => {
    const made = await t.call('POST', '/v1/api_apps', { app_type: 'normal', name: 'From a script' }, 'ann');
    expect(Object.keys(made).sort()).toEqual([
      'app_type',
      'callback_url',
      'connector_id',
      'id',
      'name',
      'verify_token',
    ]);
    const listed = await t.call('GET', '/v1/api_apps?page_size=100', undefined, 'ann');
    expect(listed).toMatchObject({ has_more: false, next_page_token: '' });
    expect(listed.items.some((a: { id: string }) => a.id === made.id)).toBe(true);
    expect(await t.call('PUT', `/v1/api_apps/${made.id}`, { callback_url: `${base}/hooks` }, 'ann')).toEqual({});
    await t.call('POST', `/v1/api_apps/${made.id}/events`, { event_types: ['thing.done', 'ping'] }, 'ann');
    const events = await t.call('GET', `/v1/api_apps/${made.id}/events`, undefined, 'ann');
    expect(events.items).toEqual([
      { api_app_id: made.id, event_type: 'ping', name: 'A test event sent by hand', description: '手动发送的测试事件' },
      { api_app_id: made.id, event_type: 'thing.done', name: 'A thing was done', description: '完成了一件事' },
    ]);
    const del = await t.request({
      method: 'DELETE',
      url: `/v1/api_apps/${made.id}/events`,
      body: { event_types: ['ping'] },
      as: 'ann',
    });
    expect(del.body.code).toBe(0);
    expect((await t.call('GET', `/v1/api_apps/${made.id}/events`, undefined, 'ann')).items).toHaveLength(1);
    const notTheirs = await t.request({ method: 'DELETE', url: `/v1/api_apps/${made.id}`, as: 'bob' });
    expect(notTheirs.status).toBe(403);
    expect(await t.call('DELETE', `/v1/api_apps/${made.id}`, undefined, 'ann')).toEqual({});
  });
});

describe('outbound addresses', () => {
  it('refuses a private or loopback callback address unless the studio allows them', async () => {
    const strict = await tester(false);
    try {
      const { api_app } = await strict.call(
        'POST',
        '/api/open/api_apps/create',
        { space_id: 's1', name: 'Inside' },
        'ann',
      );
      const r = await strict.request({
        method: 'POST',
        url: '/api/open/api_apps/update',
        body: { space_id: 's1', api_app_id: api_app.id, callback_url: `${base}/hooks` },
        as: 'ann',
      });
      expect(r.status).toBe(400);
      expect(r.body.msg).toMatch(/did not answer the check .*(private|loopback)/i);
    } finally {
      await strict.close();
    }
  });
});
