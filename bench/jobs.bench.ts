// ./tessera bench jobs [rows=20000] [firings=20] [calls=200]: automation's figures on a published 3-node workflow
// (Start -> Text -> End):
// - a batch job of `rows` rows at concurrency 8, from job_create to its end: rows per second (target >= 2,000);
// - a cron trigger firing every second: how late each firing is recorded after its time, p50 and p99 (target
//   p99 <= 1 s);
// - a webhook trigger called `calls` times one after another: from sending the call to its run starting (the run's
//   record), p50 and p99 (target p50 <= 5 ms).
// Times past the studio's API are read from its SQLite file (read-only).
import Database from 'better-sqlite3';
import path from 'node:path';
import { Agent } from '../tests/agent.ts';
import { link, node, ref } from '../tests/workflow-kit.ts';
import { quantile } from './stream.ts';
import { startBenchStudio } from './studio.ts';

const ms = (x: number) => `${x.toFixed(1)} ms`;

export default async function jobsBench(args: string[]) {
  const rows = Number(args[0] ?? 20_000);
  const firings = Number(args[1] ?? 20);
  const calls = Number(args[2] ?? 200);
  const studio = await startBenchStudio();
  try {
    const user = new Agent(studio.url);
    await user.post('/api/passport/web/email/register/v2', {
      email: `bench-${Date.now()}@example.com`,
      password: 'correct horse battery',
    });
    const space = (await user.post('/api/space/create', { name: 'Bench' })).space_id;
    const post = (p: string, body: Record<string, unknown>) => user.post(p, { space_id: space, ...body });
    const { workflow_id } = await post('/api/workflow_api/create', { name: 'three nodes' });
    await post('/api/workflow_api/save', {
      workflow_id,
      schema: {
        nodes: [
          node('start', '1', { title: 'Start', outputs: [{ name: 'name', type: 'string', required: true }] }),
          node('text', '15', {
            title: 'Greet',
            inputs: [ref('name', 'start', ['name'])],
            settings: { mode: 'concat', template: 'Hello, {{name}}!' },
          }),
          node('end', '2', { title: 'End', inputs: [ref('message', 'text', ['output'])] }),
        ],
        links: [link('start', 'text'), link('text', 'end')],
      },
    });
    await post('/api/workflow_api/publish', { workflow_id, workflow_version: 'v1.0.0', force: true });
    console.log(`jobs: a published 3-node workflow (Start -> Text -> End)`);

    // A batch job.
    const csv = ['name', ...Array.from({ length: rows }, (_, i) => `Person ${i}`)].join('\n');
    const t0 = performance.now();
    const { job } = await post('/api/workflow_api/job_create', {
      workflow_id,
      job_name: 'bench',
      concurrency: 8,
      content: csv,
    });
    let done = job;
    while (done.status === 0 || done.status === 1) {
      await new Promise((r) => setTimeout(r, 20));
      done = (await post('/api/workflow_api/job_detail', { job_id: job.job_id })).job;
    }
    const seconds = (performance.now() - t0) / 1000;
    const rate = rows / seconds;
    console.log(
      `  batch job: ${rows} rows at concurrency 8 in ${seconds.toFixed(2)} s (${done.success} succeeded, ${done.failed} failed): ${Math.round(rate)} rows/s   target >= 2,000   ratio ${(rate / 2000).toFixed(2)}`,
    );

    const db = new Database(path.join(studio.dataDir, 'tessera.db'), { readonly: true });

    // A cron trigger every second.
    const cron = (
      await post('/api/workflow_api/save_trigger', {
        workflow_id,
        name: 'every second',
        trigger_type: 0,
        status: 1,
        config: { cron_expr: '* * * * * *' },
        payload: { parameters: { name: 'Clock' } },
      })
    ).trigger;
    const lateness = () =>
      (
        db
          .prepare('SELECT scheduled_for, fired_at FROM workflow_trigger_event WHERE trigger_id = ? AND source = ?')
          .all(cron.trigger_id, 'cron') as { scheduled_for: string; fired_at: string }[]
      ).map((e) => Date.parse(e.fired_at) - Date.parse(e.scheduled_for));
    while (lateness().length < firings) await new Promise((r) => setTimeout(r, 250));
    await post('/api/workflow_api/operate_publish_trigger', { trigger_id: cron.trigger_id, status: 0 });
    const late = lateness().slice(0, firings);
    console.log(
      `  cron trigger every second: ${late.length} firings, recorded after their time p50 ${ms(quantile(late, 0.5))} p99 ${ms(quantile(late, 0.99))}   target p99 <= 1,000 ms   ratio ${(quantile(late, 0.99) / 1000).toFixed(3)}`,
    );

    // A webhook trigger, called one call after another.
    const hook = await post('/api/workflow_api/save_trigger', {
      workflow_id,
      name: 'hook',
      trigger_type: 1,
      event_id: 'webhook',
      status: 1,
    });
    const url = `${studio.url}${new URL(hook.webhook_url as string).pathname}`;
    const sent = new Map<string, number>();
    for (let i = 0; i < calls; i++) {
      const at = Date.now();
      const r = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Caller ${i}` }),
      });
      const body = (await r.json()) as { data: { event_id: string } };
      sent.set(body.data.event_id, at);
    }
    const started = () =>
      db
        .prepare(
          `SELECT e.id, r.created_at FROM workflow_trigger_event e JOIN workflow_run r ON r.id = e.execute_id
           WHERE e.trigger_id = ?`,
        )
        .all(hook.trigger.trigger_id) as { id: string; created_at: string }[];
    for (let tries = 0; started().length < calls && tries < 400; tries++) await new Promise((r) => setTimeout(r, 50));
    const delays = started()
      .filter((e) => sent.has(e.id))
      .map((e) => Date.parse(e.created_at) - sent.get(e.id)!);
    console.log(
      `  webhook trigger: ${delays.length} calls, call to run started p50 ${ms(quantile(delays, 0.5))} p99 ${ms(quantile(delays, 0.99))}   target p50 <= 5 ms   ratio ${(quantile(delays, 0.5) / 5).toFixed(2)}`,
    );
    db.close();
  } finally {
    await studio.stop();
  }
}
