import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { Agent, signUp } from '../agent.ts';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { YLiveDocument } from '../../extensions/collab/src/client/live-doc.ts';
import { CANVAS_SHAPE } from '../../extensions/workflow/src/client/editor/shape.ts';
import { JsonBinding } from '../../extensions/collab/src/shared/binding.ts';
import * as Y from 'yjs';

// Editing a workflow together in the whole studio (workflow, collaborators and collab; SQLite, and PostgreSQL in
// CI's second pass): members converge, the collaborators policy makes others read-only, a token reaches only its
// spaces, and the document outlives a restart of the studio.
interface Canvas {
  nodes: { node_id: string; type: string; node_param: { title: string }; layout: { x: number; y: number } }[];
  links: { from_node_id: string; to_node_id: string }[];
}
const dir = mkdtempSync(path.join(tmpdir(), 'tessera-collab-'));
let studio: RunningStudio;
let ann: Agent;
let bob: Agent;
let cat: Agent;
let space: string;
let workflowId: string;
let initial: Canvas;
const open: YLiveDocument<Canvas>[] = [];

beforeAll(async () => {
  studio = await startStudio({ keepData: dir, keepDatabase: true });
  ann = (await signUp(studio.url, 'collab-ann')).agent;
  const b = await signUp(studio.url, 'collab-bob');
  const c = await signUp(studio.url, 'collab-cat');
  bob = b.agent;
  cat = c.agent;
  space = (await ann.post('/api/space/create', { name: 'Together' })).space_id;
  await ann.post('/api/space/member/add', { space_id: space, user_ids: [b.user.user_id, c.user.user_id] });
  workflowId = (await ann.post('/api/workflow_api/create', { space_id: space, name: 'Shared' })).workflow_id;
  initial = JSON.parse(
    (await ann.post('/api/workflow_api/canvas', { space_id: space, workflow_id: workflowId })).workflow.schema_json,
  );
});
afterAll(async () => {
  for (const d of open) d.close();
  await studio?.close();
});

function signedIn(agent: Agent) {
  const cookie = [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  return class extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers: { cookie } });
    }
  };
}
function live(agent: Agent, start: Canvas = initial, base = studio.url) {
  const d = new YLiveDocument<Canvas>(
    { kind: 'workflow', id: workflowId, initial: start, shape: CANVAS_SHAPE },
    { url: `${base.replace(/^http/, 'ws')}/api/collab`, WebSocket: signedIn(agent) },
    (u) => u,
  );
  open.push(d);
  return d;
}
const titled = (c: Canvas, id: string) => c.nodes.find((n) => n.node_id === id)?.node_param.title;
const withNode = (c: Canvas, id: string, title: string): Canvas => ({
  ...c,
  nodes: [
    ...c.nodes.filter((n) => n.node_id !== id),
    { node_id: id, type: '15', node_param: { title }, layout: { x: 300, y: 0 } },
  ],
});

describe('a workflow edited together in the studio', () => {
  it('two members converge; the one the collaborators policy leaves out looks on read-only', async () => {
    const a = live(ann);
    await a.until(() => a.status === 'live', 'ann live');
    const b = live(bob);
    await b.until(() => b.status === 'live', 'bob live');
    a.set(withNode(a.state(), 'text', 'From Ann'));
    await b.until(() => titled(b.state(), 'text') === 'From Ann', 'Ann’s node at Bob’s');
    b.set(withNode(b.state(), 'text_bob', 'From Bob'));
    await a.until(() => titled(a.state(), 'text_bob') === 'From Bob', 'Bob’s node at Ann’s');
    expect(a.peers.map((p) => p.name)).toEqual(['collab-bob']);

    // Ann names Bob the workflow's collaborator: Cat, a member but not named, joins read-only.
    const bobId = (await bob.get('/api/passport/account/info/v2')).user_id;
    await ann.post('/api/permission/authz/add_collaborator', {
      space_id: space,
      resource_type: 'workflow',
      resource_id: workflowId,
      user_id: bobId,
      collaborator_type: 1,
    });
    const c = live(cat);
    await c.until(() => c.status === 'live' && !!titled(c.state(), 'text_bob'), 'cat sees the canvas');
    await a.until(() => a.peers.some((p) => p.name === 'collab-cat' && p.readOnly), 'cat shown read-only');
    c.set(withNode(c.state(), 'text_cat', 'Not allowed'));
    a.set(withNode(a.state(), 'text_after', 'After'));
    await c.until(() => !!titled(c.state(), 'text_after'), 'Ann’s later edit at Cat’s');
    expect(titled(a.state(), 'text_cat')).toBeUndefined();
    expect(titled(b.state(), 'text_cat')).toBeUndefined();
  });

  it('a token reaches the documents of its own spaces only, refused before the upgrade', async () => {
    const outsider = (await signUp(studio.url, 'collab-outsider')).agent;
    const own = (await outsider.post('/api/space/list', {})).spaces[0].space_id;
    const pat = await outsider.post('/api/permission_api/pat/create', {
      name: 'collab',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: own, permissions: ['workflow.run'] }],
    });
    const status = await new Promise<number>((resolve) => {
      const ws = new WebSocket(
        `${studio.url.replace(/^http/, 'ws')}/api/collab/sync?doc=workflow:${workflowId}&authorization=${encodeURIComponent(`Bearer ${pat.token}`)}`,
      );
      ws.on('unexpected-response', (_q, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => resolve(101));
    });
    expect(status).toBe(403);
  });

  it('keeps the document across a restart of the studio', async () => {
    for (const d of open.splice(0)) d.close();
    const a = live(ann);
    await a.until(() => a.status === 'live', 'ann live');
    a.set(withNode(a.state(), 'kept', 'Kept across a restart'));
    // Bob, still there, has it: the studio has taken it.
    const b = live(bob);
    await b.until(() => titled(b.state(), 'kept') === 'Kept across a restart', 'bob has it');
    // Kept a moment after it was made (updates are gathered for 150 ms): closing lets the last ones in first.
    for (const d of open.splice(0)) d.close();
    const databaseUrl = studio.databaseUrl;
    await studio.close();
    studio = await startStudio({
      keepData: dir,
      keepDatabase: true,
      ...(databaseUrl ? { env: { DATABASE_URL: databaseUrl } } : {}),
    });
    // What the studio kept, read back after the restart.
    const rows = await studio.server.database.db
      .selectFrom('collab_update')
      .select('data')
      .where('doc', '=', `workflow:${workflowId}`)
      .execute();
    const kept = new Y.Doc();
    for (const r of rows) Y.applyUpdate(kept, r.data as Uint8Array);
    expect(titled(new JsonBinding<Canvas>(kept, CANVAS_SHAPE).read(), 'kept')).toBe('Kept across a restart');
    // Opened by one person alone, the document becomes their loaded draft (the saved draft is the truth when alone:
    // the node above was never saved to it).
    const again = live(bob, initial, studio.url);
    await again.until(() => again.status === 'live', 'bob live again');
    expect(titled(again.state(), 'kept')).toBeUndefined();
  });
});
