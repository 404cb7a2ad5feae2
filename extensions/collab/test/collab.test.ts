import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import * as Y from 'yjs';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { ResourceKinds, ServerRequestInterceptors, type ServerContext } from '@tessera/sdk/server';
import { MemberRemoved } from '@tessera/ext-spaces/shared';
import { ApiError, ErrorCode } from '@tessera/sdk';
import type { LiveShape } from '@tessera/sdk/client';
import collab from '../src/server/index.ts';
import { YLiveDocument } from '../src/client/live-doc.ts';
import { UpdateStore } from '../src/server/store.ts';
import { JsonBinding } from '../src/shared/binding.ts';

// The collab extension alone, with a stand-in 'workflow' kind (w1 in space s1, w2 in s2) and a change policy that
// refuses dan: real WebSockets on loopback, the y-websocket provider as the studio's pages use it.
interface Canvas {
  nodes: { node_id: string; title: string; x: number }[];
}
const shape: LiveShape = { collections: { nodes: (n: { node_id: string }) => n.node_id }, depth: 2 };
let t: ExtensionTester;
let stub: ServerContext;
let base: string;
const open: YLiveDocument<Canvas>[] = [];

beforeAll(async () => {
  t = await createExtensionTester(collab, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    spaces: { s1: { ann: 'member', bob: 'member', dan: 'member', cat2: 'member' }, s2: { cat: 'member' } },
    stubs: [
      {
        id: 'workflow',
        register(ctx) {
          stub = ctx;
          ctx.register(ResourceKinds, {
            kind: 'workflow',
            list: async () => [],
            spaceOf: async (id) => ({ w1: 's1', w2: 's2', w3: 's1', w4: 's1', w5: 's1', w6: 's1' })[id],
          });
          ctx.tap(ServerRequestInterceptors, 'only-ann-bob', (req) =>
            req.resource?.write && req.caller?.userId === 'dan'
              ? new ApiError(403, ErrorCode.FORBIDDEN, 'Only the collaborators change it.')
              : undefined,
          );
        },
      },
    ],
  });
  base = (await t.server.listen()).replace(/^http/, 'ws');
});
afterAll(async () => {
  for (const d of open) d.close();
  await t?.close();
});

/** A WebSocket class that signs in as a test user (the tester's header). */
function as(user: string) {
  return class extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers: { 'x-test-user': user } });
    }
  };
}
function live(user: string, id: string, initial: Canvas = { nodes: [] }) {
  const d = new YLiveDocument<Canvas>(
    { kind: 'workflow', id, initial, shape },
    { url: `${base}/api/collab`, WebSocket: as(user) },
    (u) => `c-${u}`,
  );
  open.push(d);
  return d;
}
const titles = (c: Canvas) => Object.fromEntries(c.nodes.map((n) => [n.node_id, `${n.title}@${n.x}`]));
/** The refusal before the upgrade: status and JSON body. */
function refused(url: string, user: string): Promise<{ status: number; body: { code: number; msg: string } }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { 'x-test-user': user } });
    ws.on('open', () => reject(new Error('the connection opened')));
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
  });
}

describe('editing together over the collab socket', () => {
  it('two members see each other and each other’s edits, converging', async () => {
    const a = live('ann', 'w1', { nodes: [{ node_id: 'start', title: 'Start', x: 0 }] });
    await a.until(() => a.status === 'live', 'ann live');
    const b = live('bob', 'w1', { nodes: [] });
    await b.until(() => b.status === 'live' && b.state().nodes.length === 1, 'bob to get ann’s canvas');
    await a.until(() => a.peers.some((p) => p.userId === 'bob'), 'ann to see bob');
    expect(b.peers.map((p) => [p.userId, p.name, p.color])).toEqual([['ann', 'ann', 'c-ann']]);

    b.setPresence({ selection: ['start'], cursor: { x: 10, y: 20 } });
    await a.until(() => a.peers[0]?.cursor?.x === 10, 'bob’s pointer');
    expect(a.peers[0].selection).toEqual(['start']);

    // At the same moment: ann renames the node, bob moves it and adds one.
    a.set({ nodes: [{ node_id: 'start', title: 'Begin', x: 0 }] });
    b.set({
      nodes: [
        { node_id: 'start', title: 'Start', x: 120 },
        { node_id: 'llm', title: 'LLM', x: 300 },
      ],
    });
    const want = { start: 'Begin@120', llm: 'LLM@300' };
    await a.until(() => JSON.stringify(titles(a.state())) === JSON.stringify(want), 'ann converged');
    await b.until(() => JSON.stringify(titles(b.state())) === JSON.stringify(want), 'bob converged');
  });

  it('undo takes back only one’s own change', async () => {
    const a = live('ann', 'w3', { nodes: [{ node_id: 'n', title: 'N', x: 0 }] });
    await a.until(() => a.status === 'live', 'ann live');
    const b = live('bob', 'w3');
    await b.until(() => b.state().nodes.length === 1, 'bob synced');
    a.set({ nodes: [{ node_id: 'n', title: 'Renamed', x: 0 }] });
    await b.until(() => b.state().nodes[0].title === 'Renamed', 'rename reached bob');
    b.set({ nodes: [{ node_id: 'n', title: 'Renamed', x: 50 }] });
    await a.until(() => a.state().nodes[0].x === 50, 'move reached ann');
    expect(a.undo()).toBe(true);
    await b.until(() => b.state().nodes[0].title === 'N', 'undo reached bob');
    expect(b.state().nodes[0].x).toBe(50);
  });

  it('a member offline keeps editing; both sides merge when the connection returns', async () => {
    const a = live('ann', 'w4', { nodes: [{ node_id: 'x', title: 'X', x: 0 }] });
    await a.until(() => a.status === 'live', 'ann live');
    const b = live('bob', 'w4');
    await b.until(() => b.state().nodes.length === 1, 'bob synced');
    b.disconnect();
    await b.until(() => b.status === 'offline', 'bob offline');
    b.set({ nodes: [...b.state().nodes, { node_id: 'offline', title: 'Made offline', x: 5 }] });
    a.set({ nodes: [{ node_id: 'x', title: 'X2', x: 0 }] });
    b.connect();
    const want = { x: 'X2@0', offline: 'Made offline@5' };
    await b.until(() => JSON.stringify(titles(b.state())) === JSON.stringify(want), 'bob merged');
    await a.until(() => JSON.stringify(titles(a.state())) === JSON.stringify(want), 'ann merged');
    expect(b.status).toBe('live');
  });

  it('keeps the document as updates: merged into one row, readable after everyone left', async () => {
    const a = live('ann', 'w5', { nodes: [] });
    await a.until(() => a.status === 'live', 'ann live');
    for (let i = 0; i < 30; i++) a.set({ nodes: [{ node_id: 'n', title: `T${i}`, x: i }] });
    const store = new UpdateStore(
      () => t.server.database.db,
      () => String(Date.now()) + Math.random().toString().slice(2, 8),
    );
    const stored = async () => {
      const saved = await store.load('workflow:w5');
      const d = new Y.Doc();
      if (saved) Y.applyUpdate(d, saved);
      return new JsonBinding<Canvas>(d, shape).read().nodes?.find((n) => n.node_id === 'n')?.title;
    };
    await expect.poll(stored, { timeout: 10_000, interval: 50 }).toBe('T29');
    const before = await store.count('workflow:w5');
    const r = await store.compact('workflow:w5');
    expect(r.rows).toBe(1);
    expect(before).toBeGreaterThanOrEqual(1);
    expect(await stored()).toBe('T29');
  });

  it('when nobody else has it open, the draft as loaded is what the document becomes', async () => {
    for (const d of open.splice(0)) d.close();
    const first = live('ann', 'w5', { nodes: [{ node_id: 'n', title: 'From the saved draft', x: 0 }] });
    await first.until(() => first.status === 'live', 'live');
    expect(first.state().nodes).toEqual([{ node_id: 'n', title: 'From the saved draft', x: 0 }]);
  });

  it('an edit made while the document connects is the person’s own: undo takes it back once it is live', async () => {
    for (const d of open.splice(0)) d.close();
    const saved = { nodes: [{ node_id: 'n', title: 'Saved', x: 0 }] };
    const doc = live('ann', 'w6', saved);
    // Pasted before the first sync (a slow connection, a busy machine).
    doc.set({ nodes: [...saved.nodes, { node_id: 'n_2', title: 'Saved', x: 40 }] });
    await doc.until(() => doc.status === 'live', 'live');
    expect(doc.state().nodes.map((n) => n.node_id)).toEqual(['n', 'n_2']);
    expect(doc.canUndo).toBe(true);
    doc.undo();
    expect(doc.state().nodes).toEqual(saved.nodes);
    expect(doc.canRedo).toBe(true);
  });

  it('a member the change policy refuses sees the edits, but theirs are not applied', async () => {
    const a = live('ann', 'w1', { nodes: [{ node_id: 'r', title: 'R', x: 0 }] });
    await a.until(() => a.status === 'live', 'ann live');
    const d = live('dan', 'w1');
    await d.until(() => d.status === 'live' && d.state().nodes.length > 0, 'dan synced');
    await a.until(() => a.peers.some((p) => p.userId === 'dan' && p.readOnly), 'dan shown read-only');
    d.set({ nodes: [{ node_id: 'dan', title: 'Not allowed', x: 0 }] });
    a.set({ nodes: [...a.state().nodes, { node_id: 'after', title: 'After', x: 1 }] });
    await d.until(() => d.state().nodes.some((n) => n.node_id === 'after'), 'ann’s edit reached dan');
    expect(a.state().nodes.some((n) => n.node_id === 'dan')).toBe(false);
  });

  it('lets go of a member removed from the space at once; the others stay', async () => {
    const a = live('ann', 'w1', { nodes: [{ node_id: 'r', title: 'R', x: 0 }] });
    await a.until(() => a.status === 'live', 'ann live');
    const b = live('bob', 'w1');
    await b.until(() => b.status === 'live', 'bob live');
    await a.until(() => a.peers.some((p) => p.userId === 'bob'), 'ann sees bob');
    stub.emit(MemberRemoved, { space_id: 's1', user_id: 'bob' });
    await b.until(() => b.status === 'closed', 'bob let go');
    await a.until(() => !a.peers.some((p) => p.userId === 'bob'), 'bob gone from ann’s');
    expect(a.status).toBe('live');
  });

  it('refuses before the upgrade, with the error as JSON: not a member, no such resource, a bad name', async () => {
    const other = await refused(`${base}/api/collab/sync?doc=workflow:w1`, 'cat');
    expect(other.status).toBe(403);
    expect(other.body.msg).toBe('You are not a member of this space.');
    const missing = await refused(`${base}/api/collab/sync?doc=workflow:nope`, 'ann');
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toBe('There is no workflow nope.');
    const kind = await refused(`${base}/api/collab/sync?doc=plugin:p1`, 'ann');
    expect(kind.status).toBe(404);
    const bad = await refused(`${base}/api/collab/sync?doc=../../etc`, 'ann');
    expect(bad.status).toBe(400);
    const anonymous = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${base}/api/collab/sync?doc=workflow:w1`);
      ws.on('unexpected-response', (_q, res) => resolve(res.statusCode ?? 0));
    });
    expect(anonymous).toBe(401);
  });

  it('a member cannot show as someone else, nor speak for another’s tab; garbage closes only that connection', async () => {
    const a = live('ann', 'w1');
    await a.until(() => a.status === 'live', 'ann live');
    const { encoding } = await import('./wire.ts');
    const ws = new (as('bob'))(`${base}/api/collab/sync?doc=workflow:w1`);
    await new Promise((r) => ws.once('open', r));
    ws.send(encoding.awareness(4242, 1, { user: { id: 'ann', name: 'Ann (fake)' }, selection: [] }));
    await a.until(() => a.peers.some((p) => p.clientId === 4242), 'the forged presence');
    const forged = a.peers.find((p) => p.clientId === 4242)!;
    expect([forged.userId, forged.name]).toEqual(['bob', 'bob']);
    // What it says of ann's own tab is dropped: others still see ann as ann.
    const c = live('cat2', 'w1');
    await c.until(() => c.peers.some((p) => p.clientId === a.doc.clientID), 'the observer to see ann');
    ws.send(encoding.awareness(a.doc.clientID, 99, { user: { id: 'bob', name: 'Not ann' }, selection: ['x'] }));
    ws.send(encoding.awareness(4243, 1, { selection: [] }));
    await c.until(() => c.peers.some((p) => p.clientId === 4243), 'the later message');
    expect(c.peers.find((p) => p.clientId === a.doc.clientID)).toMatchObject({ userId: 'ann', selection: [] });
    expect(ws.readyState).toBe(WebSocket.OPEN);
    const junk = new (as('bob'))(`${base}/api/collab/sync?doc=workflow:w1`);
    await new Promise((r) => junk.once('open', r));
    const junkClosed = new Promise<number>((r) => junk.once('close', (code) => r(code)));
    junk.send(Buffer.from([0, 7, 1, 2]));
    expect(await junkClosed).toBe(4400);
    // ann's connection is untouched.
    a.set({ nodes: [...a.state().nodes, { node_id: 'still', title: 'Still here', x: 0 }] });
    await c.until(() => c.state().nodes.some((n) => n.node_id === 'still'), 'ann’s edit after the junk');
    expect(a.status).toBe('live');
    ws.close();
  });
});
