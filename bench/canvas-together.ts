// The collaborative case of ./tessera bench canvas: two people in two browsers on one canvas, and a long editing
// session's document.
//  - Remote edit to visible change: one types a node's title; from the moment their own card shows each keystroke to
//    the moment the other's card does (both pages read one clock: performance.timeOrigin + now). Target p95 100 ms.
//  - A document's history after 10,000 edits (moves, renames, settings) made through the real collab socket: what the
//    studio keeps (collab_update rows, merged as it goes) and the memory a document holds. Target under 5 MB.
import Database from 'better-sqlite3';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { WebSocket } from 'ws';
import * as Y from 'yjs';
import { Agent } from '../tests/agent.ts';
import type { launchBrowser } from '../tests/e2e/chromium.ts';
import { YLiveDocument } from '../extensions/collab/src/client/live-doc.ts';
import { JsonBinding } from '../extensions/collab/src/shared/binding.ts';
import { CANVAS_SHAPE } from '../extensions/workflow/src/client/editor/shape.ts';
import type { BenchStudio } from './studio.ts';

type Browser = Awaited<ReturnType<typeof launchBrowser>>;
type BigCanvas = {
  nodes: {
    node_id: string;
    node_param: { title: string; settings: Record<string, unknown> };
    layout: { x: number; y: number };
  }[];
  links: { from_node_id: string; to_node_id: string }[];
};

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)] ?? NaN;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function twoMembers(url: string) {
  const ann = new Agent(url);
  const bob = new Agent(url);
  const stamp = Date.now();
  await ann.post('/api/passport/web/email/register/v2', {
    email: `ann-${stamp}@example.com`,
    password: 'correct horse battery',
    name: 'Ann',
  });
  const b = await bob.post('/api/passport/web/email/register/v2', {
    email: `bob-${stamp}@example.com`,
    password: 'correct horse battery',
    name: 'Bob',
  });
  const space = (await ann.post('/api/space/create', { name: `Together ${stamp}` })).space_id as string;
  await ann.post('/api/space/member/add', { space_id: space, user_ids: [b.user_id] });
  return { ann, bob, space };
}

export async function measureTogether(studio: BenchStudio, browser: Browser, canvas: BigCanvas, keys = 60) {
  const { ann, bob, space } = await twoMembers(studio.url);
  const { workflow_id } = await ann.post('/api/workflow_api/create', {
    space_id: space,
    name: `Shared ${canvas.nodes.length}`,
  });
  await ann.post('/api/workflow_api/save', { space_id: space, workflow_id, schema: canvas });
  const url = `${studio.url}/workflows/${workflow_id}?space_id=${space}`;
  const open = async (agent: Agent) => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addCookies([...agent.cookies].map(([name, value]) => ({ name, value, url: studio.url })));
    const page = await context.newPage();
    await page.goto(url);
    await page.locator('[data-testid="canvas-node"]').first().waitFor();
    return { context, page };
  };
  const a = await open(ann);
  const b = await open(bob);
  await a.page.getByTestId('presence').waitFor();
  await b.page.getByTestId('presence').waitFor();
  // Each page notes when the watched card shows a new text (its own clock, the same in both pages).
  const watch = (page: typeof a.page) =>
    page.evaluate(() => {
      const w = window as unknown as { seen: [string, number][]; watched: string };
      w.seen = [];
      w.watched = '';
      let last = '';
      new MutationObserver(() => {
        const card = document.querySelector(`[data-testid="canvas-node"][data-node-id="${w.watched}"] strong`);
        const text = `${w.watched}:${card?.textContent ?? ''}`;
        if (text !== last) w.seen.push([(last = text), performance.timeOrigin + performance.now()]);
      }).observe(document.querySelector('[data-testid="canvas"]')!, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    });
  for (const p of [a.page, b.page]) await p.locator('.react-flow__controls-fitview').click();
  await watch(a.page);
  await watch(b.page);
  const cardText = (p: typeof a.page, id: string) =>
    p.evaluate(
      (i) => document.querySelector(`[data-testid="canvas-node"][data-node-id="${i}"] strong`)?.textContent ?? '',
      id,
    );
  // Short runs of typing in several cards (a card shows the first 20 or so characters of a title).
  const rounds = Math.ceil(keys / 10);
  for (let r = 0; r < rounds; r++) {
    const target = canvas.nodes[Math.floor(canvas.nodes.length / 2) + r].node_id;
    for (const p of [a.page, b.page])
      await p.evaluate((id) => ((window as unknown as { watched: string }).watched = id), target);
    await a.page.locator(`[data-testid="canvas-node"][data-node-id="${target}"]`).click();
    const title = a.page.getByTestId('node-title');
    await title.click();
    await a.page.keyboard.press('End');
    for (let i = 0; i < 10; i++) await a.page.keyboard.type(String.fromCharCode(97 + i), { delay: 60 });
    const shown = await cardText(a.page, target);
    await b.page.waitForFunction(
      ([id, text]) =>
        document.querySelector(`[data-testid="canvas-node"][data-node-id="${id}"] strong`)?.textContent === text,
      [target, shown] as const,
      { timeout: 15_000 },
    );
  }
  const seenA = new Map(await a.page.evaluate(() => (window as unknown as { seen: [string, number][] }).seen));
  const seenB = await b.page.evaluate(() => (window as unknown as { seen: [string, number][] }).seen);
  const lags = seenB.flatMap(([text, at]) => (seenA.has(text) ? [at - seenA.get(text)!] : []));
  await a.context.close();
  await b.context.close();
  console.log(
    `  together: remote edit to visible change (${lags.length} card changes from ${keys} keystrokes in ${Math.ceil(keys / 10)} cards, two browsers, loopback): median ${median(lags).toFixed(1)} ms, p95 ${p95(lags).toFixed(1)} ms   target p95 100 ms   ratio ${(p95(lags) / 100).toFixed(2)}`,
  );
  await history(studio, ann, space, workflow_id, canvas);
}

/** 10,000 edits through the collab socket; what the studio keeps of them, and what a document holds in memory. */
async function history(
  studio: BenchStudio,
  ann: Agent,
  space: string,
  workflowId: string,
  canvas: BigCanvas,
  edits = 10_000,
) {
  const cookie = [...ann.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  class SignedIn extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers: { cookie } });
    }
  }
  const doc = new YLiveDocument<BigCanvas>(
    { kind: 'workflow', id: workflowId, initial: canvas, shape: CANVAS_SHAPE },
    { url: `${studio.url.replace(/^http/, 'ws')}/api/collab`, WebSocket: SignedIn },
    () => '',
  );
  await doc.until(() => doc.status === 'live', 'the document live');
  let state = doc.state();
  const t0 = performance.now();
  for (let i = 0; i < edits; i++) {
    const k = (i * 7919) % state.nodes.length;
    state = {
      ...state,
      nodes: state.nodes.map((n, j) =>
        j !== k
          ? n
          : i % 3 === 0
            ? { ...n, layout: { x: n.layout.x + 1, y: n.layout.y } }
            : i % 3 === 1
              ? { ...n, node_param: { ...n.node_param, title: `Step ${i}` } }
              : {
                  ...n,
                  node_param: { ...n.node_param, settings: { ...n.node_param.settings, template: `{{q}} v${i}` } },
                },
      ),
    };
    doc.set(state);
  }
  const editMs = performance.now() - t0;
  const size = Y.encodeStateAsUpdate(doc.doc).byteLength;
  doc.close();
  // What the studio kept, once its last writes are in (they are gathered for a moment).
  const db = new Database(path.join(studio.dataDir, 'tessera.db'), { readonly: true });
  const kept = async () =>
    db
      .prepare('select count(*) as rows, coalesce(sum(size), 0) as bytes from collab_update where doc = ?')
      .get(`workflow:${workflowId}`) as {
      rows: number;
      bytes: number;
    };
  let stored = await kept();
  for (let i = 0; i < 40 && stored.bytes < size / 2; i++) {
    await new Promise((r) => setTimeout(r, 250));
    stored = await kept();
  }
  db.close();
  // The memory one document holds: loaded from what was kept, measured on the heap after a collection.
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  gc();
  const rows = readRows(studio, workflowId);
  /** The heap a document takes once built (after a collection before and after). */
  const heapOf = (build: () => Y.Doc): { bytes: number; doc: Y.Doc } => {
    gc();
    const before = process.memoryUsage().heapUsed;
    const d = build();
    gc();
    return { bytes: process.memoryUsage().heapUsed - before, doc: d };
  };
  // As the studio's room holds it: the document from what was kept; and, to tell the history from the content, a
  // document of the same canvas written once.
  const kept10k = heapOf(() => {
    const d = new Y.Doc();
    for (const r of rows) Y.applyUpdate(d, r);
    return d;
  });
  const fresh = heapOf(() => {
    const d = new Y.Doc();
    new JsonBinding<BigCanvas>(d, CANVAS_SHAPE).write(new JsonBinding<BigCanvas>(kept10k.doc, CANVAS_SHAPE).read());
    return d;
  });
  const shown = new JsonBinding<BigCanvas>(kept10k.doc, CANVAS_SHAPE).read();
  const held = kept10k.bytes;
  const historyBytes = Math.max(0, kept10k.bytes - fresh.bytes);
  const mb = (n: number) => (n / 1024 / 1024).toFixed(2);
  console.log(
    `  together: ${edits.toLocaleString('en-US')} edits on a ${canvas.nodes.length}-node canvas in ${(editMs / 1000).toFixed(1)} s; kept ${stored.rows} rows, ${mb(stored.bytes)} MB (document ${mb(size)} MB encoded)`,
  );
  console.log(
    `  together: the document in memory after them ${mb(held)} MB, of which the edits' history ${mb(historyBytes)} MB (the same canvas written once: ${mb(fresh.bytes)} MB)   target history 5 MB   ratio ${(historyBytes / 5 / 1024 / 1024).toFixed(2)}`,
  );
  fresh.doc.destroy();
  if (shown.nodes.length !== canvas.nodes.length) throw new Error('the kept document lost nodes');
  kept10k.doc.destroy();
}

/** The document's rows as the studio keeps them. */
function readRows(studio: BenchStudio, workflowId: string): Uint8Array[] {
  const db = new Database(path.join(studio.dataDir, 'tessera.db'), { readonly: true });
  const rows = db.prepare('select data from collab_update where doc = ?').all(`workflow:${workflowId}`) as {
    data: Buffer;
  }[];
  db.close();
  return rows.map((r) => r.data);
}
