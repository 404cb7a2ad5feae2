// ./tessera bench tables [rows=100000] [runs=300]: CSV import rate of a table of `rows` rows (the import job,
// from the request to done), then a published workflow Start -> Query rows (an indexed equality filter,
// limit 10) -> End through POST /v1/workflow/run, against the same workflow without the node.
// Targets: the query node under 2 ms at p50; import over 20,000 rows/s.
import { Agent } from '../tests/agent.ts';
import { link, lit, node, ref } from '../tests/workflow-kit.ts';
import { quantile } from './stream.ts';
import { startBenchStudio } from './studio.ts';

export default async function tablesBench(args: string[]) {
  const total = Number(args[0] ?? 100_000);
  const n = Number(args[1] ?? 300);
  const studio = await startBenchStudio();
  try {
    const user = new Agent(studio.url);
    await user.post('/api/passport/web/email/register/v2', {
      email: `bench-${Date.now()}@example.com`,
      password: 'correct horse battery',
    });
    const space = (await user.post('/api/space/create', { name: 'Bench' })).space_id;
    const post = (p: string, body: Record<string, unknown>) => user.post(p, { space_id: space, ...body });
    const { database_info: t } = await post('/api/memory/database/add', {
      table_name: 'orders',
      field_list: [
        { name: 'customer', type: 1 },
        { name: 'total', type: 4 },
        { name: 'placed', type: 3 },
      ],
      rw_mode: 3,
    });

    // Import, in files of up to 50,000 rows (the body limit), into the online data.
    const started = performance.now();
    for (let from = 0; from < total; from += 50_000) {
      const lines = ['customer,total,placed'];
      for (let i = from; i < Math.min(from + 50_000, total); i++)
        lines.push(`c${i % 5000},${(i % 997) + 0.5},2026-0${(i % 9) + 1}-1${i % 10} 10:00:00`);
      const job = await post('/api/memory/database/import', {
        database_id: t.id,
        table_type: 2,
        content: lines.join('\n'),
      });
      for (let p = job; p.status !== 'done';) {
        if (p.status === 'failed') throw new Error(`import failed: ${p.message}`);
        await new Promise((r) => setTimeout(r, 20));
        p = await post('/api/memory/database/import_progress', { import_id: job.import_id });
      }
    }
    const importMs = performance.now() - started;
    const rate = total / (importMs / 1000);

    const publish = async (name: string, schema: unknown) => {
      const { workflow_id } = await post('/api/workflow_api/create', { name });
      await post('/api/workflow_api/save', { workflow_id, schema });
      await post('/api/workflow_api/publish', { workflow_id, workflow_version: 'v1.0.0', force: true });
      return workflow_id as string;
    };
    const start = node('start', '1', { outputs: [{ name: 'who', type: 'string', required: true }] });
    const withNode = await publish('query', {
      nodes: [
        start,
        node('q', '43', {
          inputs: [ref('who', 'start', ['who']), lit('n', 10, 'integer')],
          settings: { database_id: t.id, conditions: [{ field: 'customer', op: 'eq', input: 'who' }], limit: 10 },
        }),
        node('end', '2', { inputs: [ref('n', 'q', ['rowNum'], 'integer')] }),
      ],
      links: [link('start', 'q'), link('q', 'end')],
    });
    const without = await publish('plain', {
      nodes: [start, node('end', '2', { inputs: [ref('who', 'start', ['who'])] })],
      links: [link('start', 'end')],
    });
    const pat = await user.post('/api/permission_api/pat/create', {
      name: 'bench',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['workflow.run'] }],
    });
    const run = (workflow_id: string) => async (i: number) => {
      const t0 = performance.now();
      const r = await fetch(`${studio.url}/v1/workflow/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${pat.token}` },
        body: JSON.stringify({ workflow_id, parameters: { who: `c${i % 5000}` } }),
      });
      const body = (await r.json()) as { code: number; msg: string; data?: string };
      if (body.code !== 0) throw new Error(`run failed: ${body.msg}`);
      return performance.now() - t0;
    };
    const a = run(withNode);
    const b = run(without);
    for (let i = 0; i < 50; i++) {
      await a(i);
      await b(i);
    }
    const tw: number[] = [];
    const to: number[] = [];
    for (let i = 0; i < n; i++) {
      tw.push(await a(i * 7));
      to.push(await b(i * 7));
    }
    const p = quantile;
    console.log(`tables: ${total.toLocaleString('en-US')} rows (3 fields, each indexed), ${n} runs each`);
    console.log(
      `  CSV import (job, request to done): ${(importMs / 1000).toFixed(1)} s, ${Math.round(rate).toLocaleString('en-US')} rows/s   target 20,000   ratio ${(rate / 20_000).toFixed(2)}`,
    );
    console.log(
      `  /v1/workflow/run without the node: p50 ${p(to, 0.5).toFixed(2)} ms, p99 ${p(to, 0.99).toFixed(2)} ms`,
    );
    console.log(
      `  /v1/workflow/run with Query rows:  p50 ${p(tw, 0.5).toFixed(2)} ms, p99 ${p(tw, 0.99).toFixed(2)} ms`,
    );
    const node50 = p(tw, 0.5) - p(to, 0.5);
    console.log(
      `  the query node: p50 ${node50.toFixed(2)} ms (target 2 ms, ratio ${(node50 / 2).toFixed(2)}), p99 over the run without it ${(p(tw, 0.99) - p(to, 0.99)).toFixed(2)} ms`,
    );
  } finally {
    await studio.stop();
  }
}
