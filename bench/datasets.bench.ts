// ./tessera bench datasets [items=100000]: the import rate of JSONL items into a dataset (the import job, from the
// request to done, in files of 40,000 items: the request body limit), a version frozen of them, and a near-duplicate
// search over them. Targets (issue 38): at least 20,000 items/s; near-duplicates of 100,000 items under 60 s. The
// online evaluation's overhead on trace ingest, the other figure, comes with that part.
import { Agent } from '../tests/agent.ts';
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
  } finally {
    await studio.stop();
  }
}
