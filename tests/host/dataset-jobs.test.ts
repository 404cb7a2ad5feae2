import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type Agent } from '../agent.ts';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { startStudio, type RunningStudio } from '../helpers.ts';

// Data jobs over a dataset's items: annotation by a model through a library prompt (a dry run on a sample writes
// nothing; the run writes a new field), batch inference into a new version, quality scores by an evaluator, a
// script in the sandbox (fields set, items dropped, bad returns shown per item), cancel and resume.
let studio: RunningStudio;
let llm: FakeLlm;
let agent: Agent;
let space: string;
let model: string;
const V2 = '/api/ml_flow/v2';

beforeAll(async () => {
  llm = await startFakeLlm();
  studio = await startStudio();
  agent = (await signUp(studio.url)).agent;
  space = (await agent.post('/api/space/create', { name: 'Data jobs' })).space_id;
  model = await addFakeModel(agent, llm.url);
});
afterAll(async () => {
  await studio?.close();
  await llm?.close();
});

async function dataset(reviews: string[]) {
  const { dataset } = await agent.post(`${V2}/datasets`, {
    spaceID: space,
    name: `Reviews ${Math.random()}`,
    fields: [
      { name: 'review', type: 'text', required: true },
      { name: 'stars', type: 'number' },
    ],
  });
  if (reviews.length)
    await agent.post(`${V2}/datasets/${dataset.datasetID}/items/batch`, {
      items: reviews.map((review, i) => ({ data: { review, stars: (i % 5) + 1 } })),
    });
  return dataset.datasetID as string;
}
async function settled(ds: string, jobID: string, until = ['done', 'failed', 'cancelled']) {
  for (let i = 0; i < 1200; i++) {
    const r = await agent.get(`${V2}/datasets/${ds}/data_jobs/${jobID}`);
    if (until.includes(r.job.status)) return r;
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error('the data job did not end');
}
const items = async (ds: string) =>
  (await agent.post(`${V2}/datasets/${ds}/items/search`, { pageSize: 200 })).items.map(
    (i: { data: Record<string, unknown> }) => i.data,
  );

describe('data jobs', () => {
  it('annotates items with a library prompt: a dry run on a sample writes nothing, the run writes a new field', async () => {
    const p = (
      await agent.post('/api/prompt/v1/prompts', { workspace_id: space, prompt_key: 'sentiment', prompt_name: 'S' })
    ).prompt_id;
    await agent.post(`/api/prompt/v1/prompts/${p}/drafts/save`, {
      prompt_draft: {
        detail: {
          prompt_template: {
            messages: [{ role: 'user', content: 'Sentiment of: {{text}}' }],
            variable_defs: [{ key: 'text' }],
          },
          model_config: { model_id: model },
        },
      },
    });
    await agent.post(`/api/prompt/v1/prompts/${p}/drafts/commit`, { commit_version: '1.0.0' });
    const ds = await dataset(['great', 'awful', 'fine', 'meh', 'superb', 'bad']);
    const base = {
      kind: 'ai_annotate',
      name: 'Sentiment',
      settings: { promptKey: 'sentiment', variables: { text: 'review' } },
      outputField: 'sentiment',
    };
    const dry = await agent.post(`${V2}/datasets/${ds}/data_jobs`, { ...base, dryRun: true, sampleSize: 2 });
    const d = await settled(ds, dry.job.jobID);
    expect(d.job).toMatchObject({ status: 'done', total: 2, done: 2, failed: 0, dryRun: true });
    for (const r of d.results) expect(r.value).toBe(`echo: Sentiment of: ${r.data.review}`);
    expect((await items(ds)).every((i: Record<string, unknown>) => !('sentiment' in i))).toBe(true);

    const run = await agent.post(`${V2}/datasets/${ds}/data_jobs`, { ...base, executeConcurrency: 3 });
    expect((await settled(ds, run.job.jobID)).job).toMatchObject({ status: 'done', total: 6, done: 6 });
    for (const i of await items(ds)) expect(i.sentiment).toBe(`echo: Sentiment of: ${i.review}`);
    const { dataset: after } = await agent.get(`${V2}/datasets/${ds}`);
    expect(after.fields.map((f: { name: string }) => f.name)).toEqual(['review', 'stars', 'sentiment']);

    // A variable without a field, or a prompt that does not exist: refused when the job is made.
    const bad = await agent.request('POST', `${V2}/datasets/${ds}/data_jobs`, {
      ...base,
      settings: { promptKey: 'sentiment', variables: { text: 'nope' } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/no field nope/);
    expect(
      (await agent.request('POST', `${V2}/datasets/${ds}/data_jobs`, { ...base, settings: { promptKey: 'none' } }))
        .status,
    ).toBe(404);
  });

  it('infers over a version into a new version, and keeps numbers it cannot read as failures', async () => {
    const ds = await dataset(['one', 'two', 'three']);
    const { version } = await agent.post(`${V2}/datasets/${ds}/versions`, { desc: 'v1' });
    await agent.post(`${V2}/datasets/${ds}/items/batch`, { items: [{ data: { review: 'draft only' } }] });
    const job = await agent.post(`${V2}/datasets/${ds}/data_jobs`, {
      kind: 'batch_inference',
      versionID: version.versionID,
      settings: { modelID: model, inputField: 'review', system: 'Answer briefly.' },
      outputField: 'answer',
    });
    const r = await settled(ds, job.job.jobID);
    expect(r.job).toMatchObject({ status: 'done', done: 3 });
    const made = r.job.outputVersionID;
    const v = (await agent.get(`${V2}/datasets/${ds}/versions/${made}/items`)).items.map(
      (i: { data: Record<string, unknown>; sourceItemID: string }) => i.data,
    );
    expect(v.map((i: Record<string, unknown>) => i.answer)).toEqual(['echo: one', 'echo: two', 'echo: three']);
    const versions = (await agent.get(`${V2}/datasets/${ds}/versions`)).versions;
    expect(versions.map((x: { version: number }) => x.version)).toEqual([2, 1]);
    // The draft is as it was.
    expect((await items(ds)).some((i: Record<string, unknown>) => 'answer' in i)).toBe(false);

    const numbers = await agent.post(`${V2}/datasets/${ds}/data_jobs`, {
      kind: 'ai_annotate',
      settings: { modelID: model, inputField: 'review', outputType: 'number' },
      outputField: 'n',
    });
    const n = await settled(ds, numbers.job.jobID);
    expect(n.job).toMatchObject({ status: 'done', done: 0, failed: 4 });
    expect(n.results[0].message).toMatch(/holds no number/);
  });

  it('scores items with an evaluator, and changes or drops them with a script', async () => {
    const ds = await dataset(['short', 'a longer review', 'bad', 'ok']);
    const evaluator = (
      await agent.post('/api/evaluation/v1/evaluators/create', {
        space_id: space,
        name: 'Length',
        kind: 'code',
        settings: { code: 'function main({ params }) { return { score: params.output.length, reason: "chars" } }' },
      })
    ).evaluator_id;
    const s = await agent.post(`${V2}/datasets/${ds}/data_jobs`, {
      kind: 'quality_score',
      settings: { evaluatorID: evaluator, outputField: 'review' },
      outputField: 'quality',
    });
    expect((await settled(ds, s.job.jobID)).job).toMatchObject({ status: 'done', done: 4 });
    for (const i of await items(ds)) expect(i.quality).toBe(String(i.review).length);

    const code = `function main({ params }) {
      if (params.review === 'bad') return null;
      if (params.review === 'ok') return { stars: 'many' };
      return { review: params.review.toUpperCase(), stars: '5' };
    }`;
    const dry = await agent.post(`${V2}/datasets/${ds}/data_jobs`, {
      kind: 'process',
      settings: { code },
      dryRun: true,
      sampleSize: 4,
    });
    const d = await settled(ds, dry.job.jobID);
    expect(d.job).toMatchObject({ done: 3, failed: 1 });
    expect(d.results[0]).toMatchObject({ status: 'failed', message: 'stars is a number, not "many".' });
    expect((await items(ds)).length).toBe(4);
    const run = await agent.post(`${V2}/datasets/${ds}/data_jobs`, { kind: 'process', settings: { code } });
    await settled(ds, run.job.jobID);
    const after = await items(ds);
    expect(after.map((i: Record<string, unknown>) => [i.review, i.stars])).toEqual([
      ['SHORT', 5],
      ['A LONGER REVIEW', 5],
      ['ok', 4],
    ]);
    expect((await agent.get(`${V2}/datasets/${ds}`)).dataset.itemCount).toBe(3);
  });

  it('cancels a job, and resumes it from the items it had not done', async () => {
    const ds = await dataset(Array.from({ length: 30 }, (_, i) => `review ${i}`));
    const slow = `function main({ params }) { const t = Date.now(); while (Date.now() - t < 60) {} return { stars: 1 } }`;
    const job = await agent.post(`${V2}/datasets/${ds}/data_jobs`, {
      kind: 'process',
      settings: { code: slow },
      executeConcurrency: 1,
      dryRun: true,
      sampleSize: 30,
    });
    const c = await agent.post(`${V2}/datasets/${ds}/data_jobs/${job.job.jobID}/cancel`, {});
    expect(c.job.status).toBe('cancelled');
    const cut = (await agent.get(`${V2}/datasets/${ds}/data_jobs/${job.job.jobID}`)).job;
    expect(cut.done).toBeLessThan(30);
    await agent.post(`${V2}/datasets/${ds}/data_jobs/${job.job.jobID}/resume`, {});
    const r = await settled(ds, job.job.jobID, ['done', 'failed']);
    expect(r.job).toMatchObject({ status: 'done', total: 30, done: 30, failed: 0 });
    expect((await agent.request('POST', `${V2}/datasets/${ds}/data_jobs/${job.job.jobID}/resume`, {})).status).toBe(
      400,
    );
    const { agent: other } = await signUp(studio.url);
    expect((await other.request('GET', `${V2}/datasets/${ds}/data_jobs`)).status).toBe(403);
  });
});

describe('items from traces', () => {
  it('previews items made of traces by field mappings, with each problem, and adds the good ones', async () => {
    const { token } = await agent.post('/api/permission_api/pat/create', {
      name: 'otel',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['trace.ingest'] }],
    });
    const now = BigInt(Date.now()) * 1_000_000n;
    const span = (i: number, output: string) => ({
      traceId: `${i}`.padStart(32, 'c'),
      spanId: `${i}`.padStart(16, 'd'),
      name: 'answer',
      kind: 2,
      startTimeUnixNano: String(now + BigInt(i)),
      endTimeUnixNano: String(now + 1_000_000n),
      attributes: [
        { key: 'input.value', value: { stringValue: JSON.stringify({ messages: [{ content: `q${i}` }] }) } },
        { key: 'output.value', value: { stringValue: output } },
      ],
    });
    const r = await fetch(`${studio.url}/v1/traces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-tessera-space-id': space },
      body: JSON.stringify({
        resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ spans: [span(1, '4'), span(2, 'five')] }] }],
      }),
    });
    expect(r.status).toBe(200);
    const ds = await dataset([]);
    const found = (await agent.post(`${V2}/datasets/${ds}/traces/search`, { name: 'answ' })).spans;
    expect(found.map((s: { traceID: string }) => s.traceID).sort()).toEqual([
      '1'.padStart(32, 'c'),
      '2'.padStart(32, 'c'),
    ]);
    const body = {
      spans: found.map((s: { traceID: string }) => ({ traceID: s.traceID })),
      fieldMappings: [
        { fieldName: 'review', traceFieldKey: 'input', traceFieldJsonpath: '$.messages[0].content' },
        { fieldName: 'stars', traceFieldKey: 'output' },
      ],
    };
    const preview = await agent.post(`${V2}/datasets/${ds}/items/from_traces`, { ...body, preview: true });
    const byTrace = Object.fromEntries(preview.items.map((i: { traceID: string }) => [i.traceID.slice(-1), i]));
    expect(byTrace['1']).toMatchObject({ data: { review: 'q1', stars: 4 } });
    expect(byTrace['1'].problem).toBeUndefined();
    expect(byTrace['2'].problem).toBe('stars is a number, not "five".');
    expect(await items(ds)).toEqual([]);
    const added = await agent.post(`${V2}/datasets/${ds}/items/from_traces`, body);
    expect(added.added).toBe(1);
    expect(await items(ds)).toEqual([{ review: 'q1', stars: 4 }]);
    const refused = await agent.request('POST', `${V2}/datasets/${ds}/items/from_traces`, {
      ...body,
      fieldMappings: [{ fieldName: 'nope', traceFieldKey: 'input' }],
    });
    expect(refused.status).toBe(400);
  });
});

describe('annotation of traces', () => {
  it("labels the space's traces and writes the agreed labels back as the root spans' annotations", async () => {
    const { token } = await agent.post('/api/permission_api/pat/create', {
      name: 'otel2',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['trace.ingest'] }],
    });
    const now = BigInt(Date.now()) * 1_000_000n;
    const spans = ['good answer', 'bad answer'].map((output, i) => ({
      traceId: `${i}`.padStart(32, 'a'),
      spanId: `${i}`.padStart(16, 'b'),
      name: 'helpdesk',
      kind: 2,
      startTimeUnixNano: String(now),
      endTimeUnixNano: String(now + 1_000_000n),
      attributes: [
        { key: 'input.value', value: { stringValue: `question ${i}` } },
        { key: 'output.value', value: { stringValue: output } },
      ],
    }));
    await fetch(`${studio.url}/v1/traces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-tessera-space-id': space },
      body: JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ spans }] }] }),
    });
    const me = (await agent.get('/api/passport/account/info/v2')).user_id;
    const AJ = '/api/ml_flow/v2/annotation_jobs';
    const { job } = await agent.post(AJ, {
      spaceID: space,
      source_type: 'traces',
      source_range: { name: 'helpdesk' },
      name: 'Helpfulness',
      labels: [
        { key: 'helpful', type: 'choice', options: ['yes', 'no'] },
        { key: 'grade', type: 'score', min: 1, max: 5 },
      ],
      assign_annotator_ids: [me],
    });
    expect(job).toMatchObject({ sourceType: 'traces', itemCount: 2, datasetID: '' });
    expect((await agent.get(`${AJ}/${job.jobID}`)).job.name).toBe('Helpfulness');
    for (let i = 0; i < 2; i++) {
      const { item } = await agent.post(`${AJ}/${job.jobID}/next`, {});
      expect(item.data).toMatchObject({ span: 'helpdesk', input: expect.stringMatching(/^question /) });
      const good = item.data.output === 'good answer';
      await agent.post(`${AJ}/${job.jobID}/submit`, {
        itemID: item.itemID,
        values: { helpful: good ? 'yes' : 'no', grade: good ? 5 : 1 },
      });
    }
    const w = await agent.post(`${AJ}/${job.jobID}/write_back`, { prefix: 'human_' });
    expect(w).toEqual({ written: 2, undecided: 0, fields: ['human_helpful', 'human_grade'] });
    const trace = await agent.post('/api/observability/v1/traces/get', {
      space_id: space,
      trace_id: '0'.padStart(32, 'a'),
    });
    const mine = trace.annotations.filter((a: { source: string }) => a.source === `annotation:${job.jobID}`);
    expect(
      mine.map((a: { key: string; label: string; score: number | null }) => [a.key, a.label, a.score]).sort(),
    ).toEqual([
      ['human_grade', '', 5],
      ['human_helpful', 'yes', null],
    ]);
    const none = await agent.request('POST', AJ, {
      spaceID: space,
      source_type: 'traces',
      source_range: { name: 'no such span' },
      name: 'Empty',
      labels: [{ key: 'x', type: 'choice', options: ['a', 'b'] }],
      assign_annotator_ids: [me],
    });
    expect(none.status).toBe(400);
  });
});
