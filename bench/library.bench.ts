// ./tessera bench library [resources=50000] [runs=200]: the library list of one space holding `resources`
// resources (notes of a fixture kind, plus a workflow, a bot, a knowledge base and a table) through
// POST /api/resource/library_resource_list: the first page, a name search, a kind filter and a page deep
// in the list by cursor. Target: under 20 ms p50 each.
import path from 'node:path';
import { Agent } from '../tests/agent.ts';
import { quantile } from './stream.ts';
import { ROOT, startBenchStudio } from './studio.ts';

export default async function libraryBench(args: string[]) {
  const total = Number(args[0] ?? 50_000);
  const runs = Number(args[1] ?? 200);
  const studio = await startBenchStudio({ TESSERA_EXTENSIONS_DIR: path.join(ROOT, 'tests/fixtures/kinds') });
  try {
    const user = new Agent(studio.url);
    await user.post('/api/passport/web/email/register/v2', { email: `bench-${Date.now()}@example.com`, password: 'correct horse battery' });
    const space = (await user.post('/api/space/create', { name: 'Bench' })).space_id;
    const post = (p: string, body: Record<string, unknown>) => user.post(p, { space_id: space, ...body });
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    for (let done = 0; done < total; done += 5000) await post('/api/fixture-notes/create', { name: 'note', count: Math.min(5000, total - done), at: new Date(t0 + done).toISOString() });
    await post('/api/workflow_api/create', { name: 'bench flow' });
    await post('/api/draftbot/create', { name: 'bench bot' });
    await post('/api/knowledge/create', { name: 'bench docs', format_type: 0 });
    await post('/api/memory/database/add', { table_name: 'bench_rows', field_list: [{ name: 'x', type: 1 }] });
    const deep = await post('/api/resource/library_resource_list', { size: 20, name: 'note 4' });
    const time = async (body: Record<string, unknown>) => {
      const out: number[] = [];
      for (let i = 0; i < runs + 20; i++) {
        const a = performance.now();
        await post('/api/resource/library_resource_list', body);
        if (i >= 20) out.push(performance.now() - a);
      }
      return out;
    };
    const p = quantile;
    console.log(`library: one space with ${total.toLocaleString('en-US')} notes (a fixture kind) and one resource of each built-in kind; ${runs} requests each`);
    for (const [label, body] of [
      ['first page (20)', { size: 20 }],
      ['name search', { size: 20, name: 'note 123' }],
      ['kind filter', { size: 20, res_type_filter: ['workflow', 'bot'] }],
      ['page by cursor', { size: 20, cursor: deep.cursor, name: 'note 4' }],
    ] as const) {
      const t = await time(body);
      console.log(`  ${label.padEnd(16)} p50 ${p(t, 0.5).toFixed(2)} ms, p99 ${p(t, 0.99).toFixed(2)} ms   target p50 20 ms   ratio ${(p(t, 0.5) / 20).toFixed(2)}`);
    }
  } finally {
    await studio.stop();
  }
}
