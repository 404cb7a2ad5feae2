import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type Agent } from '../agent.ts';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { startStudio, type RunningStudio } from '../helpers.ts';

// Online evaluation: a task sampling 10 % of 1,000 new traces (within statistical bounds), only root spans that
// match its filter, each scored by a judge through the model fixture (it echoes the judge's prompt, so the score is
// the span's output) and kept as the span's annotation; pause, resume, times, names, and who may see a task.
let studio: RunningStudio;
let llm: FakeLlm;
let agent: Agent;
let space: string;
let token: string;
let judge: string;

const TASKS = '/api/observability/v1/tasks';
const hex = (n: number, len: number) => n.toString(16).padStart(len, '0');
const rnd = () => hex(Math.floor(Math.random() * 2 ** 32), 8);

/** Traces of a root span (named `name`, its output the score) and a child span; ids random, as real ones are. */
function payload(count: number, name: string, score: (i: number) => number) {
  const spans = [];
  const now = BigInt(Date.now()) * 1_000_000n;
  for (let i = 0; i < count; i++) {
    const traceId = rnd() + rnd() + rnd() + rnd();
    const root = rnd() + rnd();
    spans.push(
      {
        traceId,
        spanId: root,
        name,
        kind: 2,
        startTimeUnixNano: String(now),
        endTimeUnixNano: String(now + 5_000_000n),
        attributes: [
          { key: 'input.value', value: { stringValue: `question ${i}` } },
          { key: 'output.value', value: { stringValue: String(score(i)) } },
        ],
      },
      {
        traceId,
        spanId: rnd() + rnd(),
        parentSpanId: root,
        name: 'step',
        kind: 1,
        startTimeUnixNano: String(now + 1_000_000n),
        endTimeUnixNano: String(now + 2_000_000n),
        attributes: [{ key: 'output.value', value: { stringValue: '0' } }],
      },
    );
  }
  return { resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ spans }] }] };
}
const ingest = async (body: unknown) => {
  const r = await fetch(`${studio.url}/v1/traces`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-tessera-space-id': space },
    body: JSON.stringify(body),
  });
  expect(r.status).toBe(200);
};
const getTask = async (id: string) => (await agent.get(`${TASKS}/${id}?workspace_id=${space}`)).task;
async function settled(id: string) {
  for (let i = 0; i < 1200; i++) {
    const t = await getTask(id);
    if (t.task_detail.sampled_count > 0 && t.task_detail.pending_count === 0) return t;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the task did not score what it sampled');
}

beforeAll(async () => {
  llm = await startFakeLlm();
  studio = await startStudio();
  agent = (await signUp(studio.url)).agent;
  space = (await agent.post('/api/space/create', { name: 'Online' })).space_id;
  const model = await addFakeModel(agent, llm.url);
  judge = (
    await agent.post('/api/evaluation/v1/evaluators/create', {
      space_id: space,
      name: 'Echo judge',
      kind: 'llm_judge',
      settings: { prompt: '{"score": {{output}}, "reason": "as the output says"}', model_id: model },
    })
  ).evaluator_id;
  token = (
    await agent.post('/api/permission_api/pat/create', {
      name: 'otel',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['trace.ingest'] }],
    })
  ).token;
});
afterAll(async () => {
  await studio?.close();
  await llm?.close();
});

describe('online evaluation', () => {
  it('samples 10 % of 1,000 new traces that match, scores them with the judge and keeps the scores as annotations', async () => {
    const { task_id } = await agent.post(TASKS, {
      task: {
        name: 'Chat quality',
        workspace_id: space,
        rule: {
          span_filters: {
            filters: { filter_fields: [{ field_name: 'span_name', query_type: 'eq', values: ['chat'] }] },
          },
          sampler: { sample_rate: 0.1 },
        },
        task_config: { auto_evaluate_configs: [{ evaluator_id: judge }] },
      },
    });
    expect((await getTask(task_id)).task_status).toBe('running');
    // Traces that do not match the filter are never sampled; the child spans of those that do are not either.
    await ingest(payload(300, 'other', () => 1));
    for (let b = 0; b < 10; b++) await ingest(payload(100, 'chat', (i) => (i % 2 ? 1 : 0)));
    const t = await settled(task_id);
    const n = t.task_detail.sampled_count;
    // Binomial(1000, 0.1): mean 100, standard deviation 9.5; these bounds are over four of them.
    expect(n).toBeGreaterThanOrEqual(60);
    expect(n).toBeLessThanOrEqual(140);
    expect(t.task_detail.success_count).toBe(n);
    expect(t.task_detail.failed_count).toBe(0);

    const r = await agent.post(`${TASKS}/${task_id}/results`, { workspace_id: space, page_size: 200 });
    expect(r.items).toHaveLength(n);
    for (const i of r.items) {
      expect(i.input).toMatch(/^question \d+$/);
      expect(i.score).toBe(Number(i.output));
    }
    const points = r.series.reduce((a: number, p: { count: number }) => a + p.count, 0);
    expect(points).toBe(n);
    const mean = r.items.reduce((a: number, i: { score: number }) => a + i.score, 0) / n;
    const weighted =
      r.series.reduce((a: number, p: { count: number; avg_score: number }) => a + p.avg_score * p.count, 0) / n;
    expect(weighted).toBeCloseTo(mean, 3);

    // The score is the root span's annotation, named after the evaluator and marked as the task's.
    const one = r.items[0];
    const trace = await agent.post('/api/observability/v1/traces/get', { space_id: space, trace_id: one.trace_id });
    const root = trace.spans.find((s: { parent_span_id: string }) => !s.parent_span_id);
    expect(trace.annotations).toEqual([
      expect.objectContaining({
        span_id: root.span_id,
        key: 'Echo judge',
        score: one.score,
        source: `task:${task_id}`,
        comment: 'as the output says',
      }),
    ]);
    const listed = await agent.post(`${TASKS}/list`, { workspace_id: space });
    expect(listed.total).toBe(1);
    expect(listed.tasks[0].task_config.auto_evaluate_configs[0]).toMatchObject({
      evaluator_id: judge,
      evaluator_version: '1.0.0',
      evaluator_name: 'Echo judge',
    });
  });

  it('pauses and resumes; a task with an end or a sample size stops sampling; names are unique; others are refused', async () => {
    const { task_id } = await agent.post(TASKS, {
      task: {
        name: 'Everything',
        workspace_id: space,
        rule: { sampler: { sample_rate: 1, sample_size: 30 } },
        task_config: { auto_evaluate_configs: [{ evaluator_id: judge }] },
      },
    });
    await agent.ok('PUT', `${TASKS}/${task_id}`, { workspace_id: space, task_status: 'pending' });
    expect((await getTask(task_id)).task_status).toBe('pending');
    await ingest(payload(20, 'paused', () => 1));
    // Nothing arrives while paused (the sampler reads the change at once in this process).
    expect((await getTask(task_id)).task_detail.sampled_count).toBe(0);
    await agent.ok('PUT', `${TASKS}/${task_id}`, { workspace_id: space, task_status: 'running' });
    await ingest(payload(50, 'resumed', () => 1));
    const t = await settled(task_id);
    expect(t.task_detail.sampled_count).toBe(30);
    expect(t.task_detail.success_count).toBe(30);
    expect(t.task_status).toBe('success');

    expect((await agent.get(`${TASKS}/check_name?workspace_id=${space}&name=Everything`)).pass).toBe(false);
    expect((await agent.get(`${TASKS}/check_name?workspace_id=${space}&name=Fresh`)).pass).toBe(true);
    const dup = await agent.request('POST', TASKS, {
      task: {
        name: 'Everything',
        workspace_id: space,
        rule: { sampler: { sample_rate: 1 } },
        task_config: { auto_evaluate_configs: [{ evaluator_id: judge }] },
      },
    });
    expect(dup.status).toBe(409);
    // A body without its task is a clear 400, not a crash.
    expect((await agent.request('POST', TASKS, {})).status).toBe(400);
    const late = await agent.request('POST', TASKS, {
      task: {
        name: 'Backwards',
        workspace_id: space,
        rule: { sampler: { sample_rate: 0.5 }, effective_time: { start_at: Date.now() + 10_000, end_at: Date.now() } },
        task_config: { auto_evaluate_configs: [{ evaluator_id: judge }] },
      },
    });
    expect(late.status).toBe(400);
    expect(late.body.msg).toMatch(/ends before it starts/);
    const noEvaluator = await agent.request('POST', TASKS, {
      task: {
        name: 'Nothing',
        workspace_id: space,
        rule: { sampler: { sample_rate: 0.5 } },
        task_config: { auto_evaluate_configs: [{ evaluator_id: 'nope' }] },
      },
    });
    expect(noEvaluator.status).toBe(404);
    const future = await agent.post(TASKS, {
      task: {
        name: 'Tomorrow',
        workspace_id: space,
        rule: { sampler: { sample_rate: 1 }, effective_time: { start_at: Date.now() + 86_400_000 } },
        task_config: { auto_evaluate_configs: [{ evaluator_id: judge }] },
      },
    });
    await ingest(payload(5, 'early', () => 1));
    expect((await getTask(future.task_id)).task_status).toBe('unstarted');
    expect((await getTask(future.task_id)).task_detail.sampled_count).toBe(0);

    const preview = await agent.post(`${TASKS}/preview`, {
      workspace_id: space,
      rule: {
        span_filters: { filters: { filter_fields: [{ field_name: 'span_name', query_type: 'eq', values: ['chat'] }] } },
        sampler: { sample_rate: 1 },
      },
    });
    expect(preview.matched).toBe(1000);
    expect(preview.sampled).toBe(1000);

    const { agent: other } = await signUp(studio.url);
    expect((await other.request('GET', `${TASKS}/${task_id}?workspace_id=${space}`)).status).toBe(403);
    expect((await other.request('POST', `${TASKS}/list`, { workspace_id: space })).status).toBe(403);
    const otherSpace = (await other.post('/api/space/create', { name: 'Theirs' })).space_id;
    expect((await other.request('GET', `${TASKS}/${task_id}?workspace_id=${otherSpace}`)).status).toBe(404);
  });
});
