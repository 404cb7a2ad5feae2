// The run path's budget, counted rather than timed (as query-count assertions do in Django and Rails): a
// published run of the 5-node flow through POST /v1/workflow/run does no database statement on its
// request path (its records, spans included, are written behind in batches) and imports nothing; a start
// imports at most the budgeted number of modules. The figures live in tests/budgets.json; a change that
// raises a count fails here, whatever the machine's speed.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStudioProcess, type StudioProcess } from '../studio-process.ts';
import { publishedFiveNodeFlow } from '../workflow-kit.ts';

const budgets = JSON.parse(readFileSync(path.join(import.meta.dirname, '../budgets.json'), 'utf8')) as {
  start: { modules: number };
  publishedRun: { statements: number; writes: number; modules: number };
  untypedRoutes: number;
};

interface OpenApiOperation {
  'x-tessera-extension'?: string;
  responses?: Record<string, { content?: Record<string, { schema?: { properties?: Record<string, object> } }> }>;
}
const isEmpty = (o: object | undefined) => !!o && Object.keys(o).length === 0;
/**
 * Routes whose answer /openapi.json cannot describe, having no response schema: the envelope's `data` is `{}`, or a
 * raw answer's schema is. (A stream is described by its events.)
 */
function untypedRoutes(doc: { paths: Record<string, Record<string, OpenApiOperation>> }) {
  const out: string[] = [];
  for (const [p, ops] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(ops)) {
      const schema = op.responses?.['200']?.content?.['application/json']?.schema;
      if (isEmpty(schema) || isEmpty(schema?.properties?.data))
        out.push(`${op['x-tessera-extension'] ?? '?'}: ${method.toUpperCase()} ${p}`);
    }
  return out;
}
const files = (modules: string[]) => modules.filter((u) => u.startsWith('file:'));

let studio: StudioProcess;
let atStart: string[];
beforeAll(async () => {
  studio = await startStudioProcess({ TESSERA_DIAGNOSTICS: '1' });
  atStart = files(studio.modules());
});
afterAll(() => studio?.stop());

describe('the run path and the start, counted', () => {
  it('a start imports no more modules than its budget', () => {
    expect(atStart.length).toBeGreaterThan(100); // the log works
    expect(
      atStart.length,
      `a start now imports ${atStart.length} modules; the budget is ${budgets.start.modules} (tests/budgets.json)`,
    ).toBeLessThanOrEqual(budgets.start.modules);
  });

  it('no more routes answer without a response schema than the budget allows', async () => {
    const doc = await (await fetch(`${studio.url}/openapi.json`)).json();
    const untyped = untypedRoutes(doc);
    const counts = new Map<string, number>();
    for (const r of untyped) {
      const ext = r.slice(0, r.indexOf(':'));
      counts.set(ext, (counts.get(ext) ?? 0) + 1);
    }
    const byExtension = [...counts].map(([ext, n]) => `${ext} ${n}`).join(', ');
    expect(
      untyped.length,
      `${untyped.length} routes answer without a response schema (the budget is ${budgets.untypedRoutes}, tests/budgets.json); declare one in the extension's shared/ contract (defineEndpoint), or say what it sends instead of JSON (produces). By extension: ${byExtension}. The routes: ${untyped.slice(0, 20).join('; ')}`,
    ).toBeLessThanOrEqual(budgets.untypedRoutes);
  });

  it('a published run does no database statement and imports nothing on its request path, and its trace is kept', async () => {
    const flow = await publishedFiveNodeFlow(studio.url);
    const run = () => fetch(flow.url, { method: 'POST', headers: flow.headers, body: flow.body });
    // The first runs fill the caches (token, membership, published version) and load the run path's code.
    for (let i = 0; i < 3; i++) expect((await run()).status).toBe(200);
    const before = files(studio.modules()).length;
    const counts = { statements: 0, writes: 0 };
    const RUNS = 10;
    for (let i = 0; i < RUNS; i++) {
      const res = await run();
      const body = await res.json();
      expect(body).toMatchObject({ code: 0, data: JSON.stringify({ message: 'Hello, Bench!' }) });
      counts.statements += Number(res.headers.get('x-tessera-statements'));
      counts.writes += Number(res.headers.get('x-tessera-writes'));
    }
    const imported = files(studio.modules()).slice(before);
    const perRun = { statements: counts.statements / RUNS, writes: counts.writes / RUNS, modules: imported.length };
    for (const k of ['statements', 'writes', 'modules'] as const)
      expect(
        perRun[k],
        `a published run now does ${perRun[k]} ${k} on its request path; the budget is ${budgets.publishedRun[k]} (tests/budgets.json)${k === 'modules' ? `: ${imported.join(', ')}` : ''}`,
      ).toBeLessThanOrEqual(budgets.publishedRun[k]);
    // Written behind, and there: every run is a trace with its node spans.
    const traces = await flow.owner.post('/api/observability/v1/traces/list', {
      space_id: flow.space,
      filters: { source: 'workflow' },
      page_size: 50,
    });
    expect(traces.traces).toHaveLength(RUNS + 3);
    expect(traces.traces[0]).toMatchObject({ name: 'five nodes', status: 'ok', span_count: 5 });
  });
});
