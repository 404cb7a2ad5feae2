// ./tessera bench datasets [items=100000]: the import rate of JSONL items into a dataset (the import job, from the
// request to done, in files of 40,000 items: the request body limit), a version frozen of them, and a near-duplicate
// search over them; then the online evaluation's cost on trace ingest: OTLP ingest into a space without an observation
// task and into one whose task samples 10 % of root spans for a judge (the model fixture), in alternating rounds, with
// the scoring running beside the ingest. Targets (issue 38): at least 20,000 items/s; near-duplicates of 100,000 items
// under 60 s; online evaluation under 5 % of ingest throughput.
import { Agent } from '../tests/agent.ts';
import { addFakeModel, startFakeLlm } from '../tests/fixtures/fake-llm.ts';
import { startBenchStudio } from './studio.ts';

export default async function datasetsBench(args: string[]) {
  const total = Number(args[0] ?? 100_000);
  const studio = await startBenchStudio();
  try {
    const user = new Agent(studio.url);
    await user.post('/api/passport/web/email/register/v2', {
      email: `bench-${Date.now()}@example.com`,
      password: 'correct horse battery',
    });
    const space = (await user.post('/api/space/create', { name: 'Bench' })).space_id;
    const V2 = '/api/ml_flow/v2';
    const { dataset } = await user.post(`${V2}/datasets`, {
      spaceID: space,
      name: 'Bench',
      fields: [
        { name: 'question', type: 'text', required: true },
        { name: 'answer', type: 'text' },
        { name: 'score', type: 'number' },
        { name: 'meta', type: 'json' },
      ],
    });
    const started = performance.now();
    const per = 40_000;
    for (let from = 0; from < total; from += per) {
      const lines: string[] = [];
      for (let i = from; i < Math.min(from + per, total); i++)
        lines.push(
          JSON.stringify({
            // Every 50th a near copy of the one before it (a word added): the duplicates to find.
            question:
              i % 50 === 1
                ? `What is item ${i - 1} about, and why does it matter to customer ${(i - 1) % 997}? Thanks.`
                : `What is item ${i} about, and why does it matter to customer ${i % 997}?`,
            answer: `Item ${i} is about topic ${i % 113}.`,
            score: i % 10,
            meta: { source: 'bench', n: i },
          }),
        );
      const { job } = await user.post(`${V2}/datasets/${dataset.datasetID}/import`, {
        format: 'jsonl',
        fileName: `part-${from}.jsonl`,
        content: lines.join('\n'),
      });
      for (let p = job; p.status !== 'done';) {
        if (p.status === 'failed') throw new Error(`import failed: ${p.message}`);
        await new Promise((r) => setTimeout(r, 20));
        p = (await user.request('GET', `${V2}/spaces/${space}/dataset_io_jobs/${job.jobID}`)).body.data.job;
      }
    }
    const importMs = performance.now() - started;
    const rate = total / (importMs / 1000);
    const t0 = performance.now();
    await user.post(`${V2}/datasets/${dataset.datasetID}/versions`, { desc: 'bench' });
    const freezeMs = performance.now() - t0;
    console.log(
      `datasets: import of ${total.toLocaleString('en-US')} JSONL items (4 fields) in files of ${per.toLocaleString('en-US')}`,
    );
    console.log(
      `  ${Math.round(importMs)} ms, ${Math.round(rate).toLocaleString('en-US')} items/s   target 20,000 items/s   ratio ${(rate / 20_000).toFixed(2)}`,
    );
    console.log(`  a version frozen of them: ${Math.round(freezeMs)} ms`);

    // Near-duplicates of the question field over all of them (MinHash, threshold 0.8), from the request to done.
    const t1 = performance.now();
    const { job } = await user.post(`${V2}/datasets/${dataset.datasetID}/dedup_jobs`, {
      field: 'question',
      method: 'minhash',
      threshold: 0.8,
    });
    let done = job;
    while (done.status !== 'done') {
      if (done.status === 'failed') throw new Error(`dedup failed: ${done.message}`);
      await new Promise((r) => setTimeout(r, 100));
      done = (await user.request('GET', `${V2}/datasets/${dataset.datasetID}/dedup_jobs/${job.jobID}`)).body.data.job;
    }
    const dedupMs = performance.now() - t1;
    console.log(
      `  near-duplicates (MinHash, >= 0.8) over ${total.toLocaleString('en-US')} items: ${(dedupMs / 1000).toFixed(1)} s, ${done.pairCount.toLocaleString('en-US')} pairs   target 60 s   ratio ${(dedupMs / 60_000).toFixed(2)}`,
    );
    await onlineEvalOverhead(user, studio.url);
  } finally {
    await studio.stop();
  }
}

const PER_REQUEST = 2000;
const PER_TRACE = 10;

/** Spans of `count / 10` traces (a root with an input and an output, nine children), as one OTLP JSON payload. */
function otlpPayload(round: number, batch: number): string {
  const hex = (n: number, len: number) => n.toString(16).padStart(len, '0');
  const now = BigInt(Date.now()) * 1_000_000n;
  const spans = [];
  for (let i = 0; i < PER_REQUEST; i++) {
    const n = (round * 1000 + batch) * PER_REQUEST + i;
    const trace = Math.floor(n / PER_TRACE);
    const within = n % PER_TRACE;
    // Trace ids as apps make them: random-looking (the sampler hashes them).
    const traceId = hex(Math.imul(trace + 1, 2654435761) >>> 0, 8) + hex(trace + 1, 24);
    spans.push({
      traceId,
      spanId: hex(n + 1, 16),
      parentSpanId: within ? hex(trace * PER_TRACE + 1, 16) : '',
      name: within ? `step ${within}` : 'chat',
      kind: within ? 1 : 2,
      startTimeUnixNano: String(now + BigInt(within) * 1000n),
      endTimeUnixNano: String(now + BigInt(within + 1) * 1_000_000n),
      attributes: within
        ? [{ key: 'step', value: { intValue: String(within) } }]
        : [
            { key: 'input.value', value: { stringValue: `question ${trace}` } },
            { key: 'output.value', value: { stringValue: String(trace % 2) } },
          ],
    });
  }
  return JSON.stringify({
    resourceSpans: [
      { resource: { attributes: [{ key: 'service.name', value: { stringValue: 'bench' } }] }, scopeSpans: [{ spans }] },
    ],
  });
}

async function onlineEvalOverhead(user: Agent, url: string) {
  const llm = await startFakeLlm({ record: false });
  try {
    const model = await addFakeModel(user, llm.url);
    const space = async (name: string) => {
      const id = (await user.post('/api/space/create', { name })).space_id as string;
      const { token } = await user.post('/api/permission_api/pat/create', {
        name,
        duration_day: '1',
        workspace_permission_list: [{ workspace_id: id, permissions: ['trace.ingest'] }],
      });
      return { id, token: token as string };
    };
    const plain = await space('Without a task');
    const watched = await space('With a task');
    const judge = (
      await user.post('/api/evaluation/v1/evaluators/create', {
        space_id: watched.id,
        name: 'Judge',
        kind: 'llm_judge',
        settings: { prompt: '{"score": {{output}}, "reason": "bench"}', model_id: model },
      })
    ).evaluator_id;
    const { task_id } = await user.post('/api/observability/v1/tasks', {
      task: {
        name: 'Bench',
        workspace_id: watched.id,
        rule: { sampler: { sample_rate: 0.1 } },
        task_config: { auto_evaluate_configs: [{ evaluator_id: judge }] },
      },
    });
    const spansPerRound = 100_000;
    const batches = spansPerRound / PER_REQUEST;
    const ingest = async (s: { id: string; token: string }, round: number) => {
      const bodies = Array.from({ length: batches }, (_, b) => otlpPayload(round, b));
      let next = 0;
      const began = performance.now();
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          for (let b = next++; b < batches; b = next++) {
            const res = await fetch(`${url}/v1/traces`, {
              method: 'POST',
              headers: {
                authorization: `Bearer ${s.token}`,
                'content-type': 'application/json',
                'x-tessera-space-id': s.id,
              },
              body: bodies[b],
            });
            if (res.status !== 200) throw new Error(`ingest answered ${res.status}: ${await res.text()}`);
          }
        }),
      );
      return spansPerRound / ((performance.now() - began) / 1000);
    };
    const off: number[] = [];
    const on: number[] = [];
    for (let round = 0; round < 6; round++) {
      if (round % 2) on.push(await ingest(watched, round));
      else off.push(await ingest(plain, round));
    }
    const t0 = performance.now();
    let task;
    for (;;) {
      task = (await user.get(`/api/observability/v1/tasks/${task_id}?workspace_id=${watched.id}`)).task;
      if (task.task_detail.pending_count === 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const drainMs = performance.now() - t0;
    const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
    const cost = 1 - median(on) / median(off);
    const roots = (3 * spansPerRound) / PER_TRACE;
    console.log(
      `online evaluation: OTLP ingest of ${spansPerRound.toLocaleString('en-US')} spans a round (traces of ${PER_TRACE}), 3 rounds each, alternating`,
    );
    console.log(
      `  without a task ${Math.round(median(off)).toLocaleString('en-US')} spans/s; with a task sampling 10 % of root spans for a judge ${Math.round(median(on)).toLocaleString('en-US')} spans/s`,
    );
    console.log(
      `  cost ${(cost * 100).toFixed(1)} % of ingest throughput   target 5 %   ratio ${(Math.max(cost, 0) / 0.05).toFixed(2)}`,
    );
    console.log(
      `  sampled ${task.task_detail.sampled_count.toLocaleString('en-US')} of ${roots.toLocaleString('en-US')} root spans (${((task.task_detail.sampled_count / roots) * 100).toFixed(1)} %), ${task.task_detail.success_count.toLocaleString('en-US')} scored, ${task.task_detail.failed_count} failed; the last scored ${Math.round(drainMs)} ms after the ingest ended`,
    );
  } finally {
    await llm.close();
  }
}
