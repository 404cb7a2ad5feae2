import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type Agent } from '../agent.ts';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { greetingCanvas } from '../workflow-kit.ts';

// Evaluation: a 20-item set, a prompt as the target, a judge (the model fixture echoes the judge's prompt, so
// its JSON score is the item's reference) and a code evaluator (the output's length): exact results and
// aggregates; kill, retry, clone, compare; a published workflow as a target; a restart resumes.
let studio: RunningStudio;
let llm: FakeLlm;
let agent: Agent;
let space: string;
let model: string;
let setId: string;
let judge: string;
let code: string;

const ev = (p: string, body: Record<string, unknown>) =>
  agent.post(`/api/evaluation/v1/${p}`, { space_id: space, ...body });
async function settle(
  id: string,
  until: (e: { status: string; finished: number }) => boolean = (e) => !['pending', 'running'].includes(e.status),
) {
  for (let i = 0; i < 400; i++) {
    const r = await ev('experiments/get', { experiment_id: id });
    if (until(r.experiment)) return r;
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error('the experiment did not settle');
}

beforeAll(async () => {
  llm = await startFakeLlm();
  studio = await startStudio({ keepDatabase: true });
  agent = (await signUp(studio.url)).agent;
  space = (await agent.post('/api/space/create', { name: 'Evals' })).space_id;
  model = await addFakeModel(agent, llm.url);
  const p = (
    await agent.post('/api/prompt/v1/prompts', { workspace_id: space, prompt_key: 'answerer', prompt_name: 'Answerer' })
  ).prompt_id;
  await agent.post(`/api/prompt/v1/prompts/${p}/drafts/save`, {
    prompt_draft: {
      detail: {
        prompt_template: {
          messages: [
            { role: 'system', content: 'Answer.' },
            { role: 'user', content: '{{question}}' },
          ],
        },
        model_config: { model_id: model },
      },
    },
  });
  await agent.post(`/api/prompt/v1/prompts/${p}/drafts/commit`, { commit_version: '1.0.0' });
  await agent.post(`/api/prompt/v1/prompts/${p}/labels/set`, { label: 'production', version: '1.0.0' });
  setId = (
    await ev('sets/create', {
      name: 'Questions',
      columns: [{ name: 'question' }, { name: 'reference', type: 'number' }],
    })
  ).set_id;
  judge = (
    await ev('evaluators/create', {
      name: 'Judge',
      kind: 'llm_judge',
      settings: {
        prompt: '{"score": {{reference}}, "reason": "per reference"}',
        model_id: model,
        score_min: 0,
        score_max: 1,
      },
    })
  ).evaluator_id;
  code = (
    await ev('evaluators/create', {
      name: 'Length',
      kind: 'code',
      settings: {
        language: 'javascript',
        code: 'function main({ params }) { return { score: params.output.length, reason: "length" }; }',
      },
    })
  ).evaluator_id;
});
afterAll(async () => {
  await studio?.close();
  await llm?.close();
});

describe('evaluation', () => {
  it('builds a set by hand, CSV and JSONL, refusing bad items whole, and freezes versions', async () => {
    expect(
      await ev('sets/items/add', {
        set_id: setId,
        items: [
          { question: 'Q1', reference: 1 },
          { question: 'Q2', reference: 'many' },
        ],
      }).catch((e: Error) => e.message),
    ).toMatch(/Item 2: reference is a number/);
    expect((await ev('sets/get', { set_id: setId })).items).toHaveLength(0);
    await ev('sets/items/add', { set_id: setId, items: [{ question: 'Q1', reference: 1 }] });
    const csv = ['question,reference', ...Array.from({ length: 9 }, (_, i) => `Q${i + 2},${(i + 2) % 2}`)].join('\n');
    expect((await ev('sets/items/import', { set_id: setId, format: 'csv', content: csv })).added).toBe(9);
    const jsonl = Array.from({ length: 10 }, (_, i) =>
      JSON.stringify({ question: `Q${i + 11}`, reference: (i + 11) % 2 }),
    ).join('\n');
    expect((await ev('sets/items/import', { set_id: setId, format: 'jsonl', content: jsonl })).added).toBe(10);
    expect(
      (
        await agent.request('POST', '/api/evaluation/v1/sets/items/import', {
          space_id: space,
          set_id: setId,
          format: 'jsonl',
          content: '{"question":"x"}\nnot json',
        })
      ).body.msg,
    ).toBe('Line 2 is not a JSON object.');
    expect((await ev('sets/versions/create', { set_id: setId, version: '1.0.0' })).version).toBe('1.0.0');
    const got = await ev('sets/get', { set_id: setId });
    expect(got.items).toHaveLength(20);
    expect(got.versions).toEqual([expect.objectContaining({ version: '1.0.0', item_count: 20 })]);
  });

  it('runs an experiment over 20 items with a judge and a code evaluator: exact results and aggregates', async () => {
    llm.reset();
    const { experiment_id } = await ev('experiments/create', {
      name: 'Baseline',
      set_id: setId,
      set_version: '1.0.0',
      target: {
        kind: 'prompt',
        settings: { prompt_key: 'answerer', label: 'production' },
        mapping: { question: 'question' },
      },
      evaluators: [{ evaluator_id: judge, reference_column: 'reference' }, { evaluator_id: code }],
      item_concurrency: 4,
    });
    const r = await settle(experiment_id);
    expect(r.experiment).toMatchObject({ status: 'success', total: 20, finished: 20, failed: 0 });
    const first = r.results[0];
    expect(first).toMatchObject({ status: 'done', output: 'echo: Q1', item: { question: 'Q1', reference: 1 } });
    expect(first.scores).toEqual([
      { evaluator_id: judge, score: 1, reason: 'per reference' },
      { evaluator_id: code, score: 8, reason: 'length' },
    ]);
    const [j, c] = r.aggregates;
    expect(j).toMatchObject({ name: 'Judge', count: 20, mean: 0.5, min: 0, max: 1 });
    expect(c).toMatchObject({ name: 'Length', count: 20, min: 8, max: 9 });
    expect(c.mean).toBeCloseTo(8.55, 10);
    expect(j.distribution.reduce((n: number, b: { count: number }) => n + b.count, 0)).toBe(20);
    // The result opens its trace: the model call, in observability.
    const trace = await agent.post('/api/observability/v1/traces/get', { space_id: space, trace_id: first.trace_id });
    expect(trace.spans[0]).toMatchObject({
      kind: 'llm',
      output: 'echo: Q1',
      model: 'fake-chat',
      input_tokens: expect.any(Number),
    });
    // Prompt and completion as the GenAI conventions' events.
    expect(trace.spans[0].events.map((e: { name: string }) => e.name)).toEqual([
      'gen_ai.content.prompt',
      'gen_ai.content.completion',
    ]);

    // A clone runs the same again; two experiments compare with deltas.
    const clone = (await ev('experiments/clone', { experiment_id, name: 'Again' })).experiment_id;
    await settle(clone);
    const cmp = await ev('experiments/compare', { experiment_ids: [experiment_id, clone] });
    expect(cmp.metrics.map((m: { name: string; means: number[]; deltas: number[] }) => [m.name, m.deltas])).toEqual([
      ['Judge', [0, 0]],
      ['Length', [0, 0]],
    ]);
    expect(cmp.rows).toHaveLength(20);
  });

  it("passes items by rule groups, contrasts experiments, analyses scores by a column, and takes people's scores", async () => {
    const run = async (name: string) => {
      const { experiment_id } = await ev('experiments/create', {
        name,
        set_id: setId,
        set_version: '1.0.0',
        target: {
          kind: 'prompt',
          settings: { prompt_key: 'answerer', label: 'production' },
          mapping: { question: 'question' },
        },
        evaluators: [{ evaluator_id: judge, reference_column: 'reference' }, { evaluator_id: code }],
        item_concurrency: 4,
      });
      return { id: experiment_id as string, r: await settle(experiment_id) };
    };
    const a = await run('Rules A');
    const b = await run('Rules B');
    // The judge scores the reference (Qn: n % 2, Q1: 1); the length is 8 for Q1-Q9 and 9 for Q10-Q20.
    const all = (
      await ev('rule_groups/create', {
        name: 'Right and long',
        rules: [
          { evaluator_id: judge, op: 'gte', threshold: 1 },
          { evaluator_id: code, op: 'gte', threshold: 9 },
        ],
      })
    ).rule_group;
    const any = (await ev('rule_groups/create', { name: 'Either', logic: 'any', rules: all.rules })).rule_group;
    const ra = await ev('experiments/rule_results', { experiment_id: a.id, rule_group_id: all.rule_group_id });
    expect([ra.passed, ra.failed, ra.pass_rate]).toEqual([5, 15, 0.25]);
    const q1 = ra.items.find((i: { position: number }) => i.position === 0);
    expect(q1).toMatchObject({ passed: false, failed_rules: [{ evaluator_id: code, op: 'gte', threshold: 9 }] });
    expect(
      (await ev('experiments/rule_results', { experiment_id: a.id, rule_group_id: any.rule_group_id })).passed,
    ).toBe(16);

    // Analysis by the reference column: the judge's mean per value.
    const an = await ev('experiments/analysis', { experiment_id: a.id, evaluator_id: judge, column: 'reference' });
    expect(
      an.groups.map((g: { value: string; count: number; mean: number }) => [g.value, g.count, g.mean]).sort(),
    ).toEqual([
      ['0', 10, 0],
      ['1', 10, 1],
    ]);

    // A person corrects the judge on Q2 in B (0 → 1), and gives a manual metric on Q1.
    const q2 = b.r.results.find((r: { item: { question: string } }) => r.item.question === 'Q2').item_id;
    await ev('experiments/results/correct', {
      experiment_id: b.id,
      item_id: q2,
      evaluator_id: judge,
      score: 1,
      reason: 'actually right',
    });
    const q1b = b.r.results.find((r: { item: { question: string } }) => r.item.question === 'Q1').item_id;
    await ev('experiments/results/correct', { experiment_id: b.id, item_id: q1b, manual_key: 'human', score: 3 });
    const got = await ev('experiments/get', { experiment_id: b.id });
    const corrected = got.results
      .find((r: { item_id: string }) => r.item_id === q2)
      .scores.find((s: { evaluator_id: string }) => s.evaluator_id === judge);
    expect(corrected).toMatchObject({ score: 1, reason: 'actually right', corrected: { original: 0 } });
    expect(got.aggregates.map((x: { name: string; mean: number; count: number }) => [x.name, x.mean, x.count])).toEqual(
      [
        ['Judge', 0.55, 20],
        ['Length', 8.55, 20],
        ['human', 3, 1],
      ],
    );

    // Contrast with A as the base: by the judge, and by the "either" rule group.
    const byJudge = await ev('experiments/contrast', {
      base_experiment_id: a.id,
      experiment_ids: [b.id],
      evaluator_id: judge,
    });
    expect(byJudge.reports[0]).toMatchObject({ improved: 1, regressed: 0, unchanged: 19, missing: 0 });
    expect(byJudge.reports[0].items).toEqual([
      expect.objectContaining({
        item_id: q2,
        change: 'improved',
        base: 0,
        other: 1,
        item: { question: 'Q2', reference: 0 },
      }),
    ]);
    const byRule = await ev('experiments/contrast', {
      base_experiment_id: a.id,
      experiment_ids: [b.id],
      rule_group_id: any.rule_group_id,
    });
    expect(byRule.reports[0]).toMatchObject({ improved: 1, regressed: 0, unchanged: 19 });
    const both = await agent.request('POST', '/api/evaluation/v1/experiments/contrast', {
      space_id: space,
      base_experiment_id: a.id,
      experiment_ids: [b.id],
      evaluator_id: judge,
      rule_group_id: any.rule_group_id,
    });
    expect(both.status).toBe(400);
  });

  it('stops a killed experiment, and retries what failed', async () => {
    llm.reset();
    llm.script(...Array.from({ length: 60 }, () => ({ text: 'slow answer here', chunkDelayMs: 40 })));
    const { experiment_id } = await ev('experiments/create', {
      name: 'Slow',
      set_id: setId,
      set_version: '1.0.0',
      target: { kind: 'prompt', settings: { prompt_key: 'answerer' }, mapping: { question: 'question' } },
      evaluators: [{ evaluator_id: code }],
      item_concurrency: 1,
    });
    await settle(experiment_id, (e: { finished: number }) => e.finished >= 1);
    await ev('experiments/kill', { experiment_id });
    // The stop answers once the run has ended: what it shows then is final, and nothing is in flight.
    const after = await ev('experiments/get', { experiment_id });
    expect(after.experiment.status).toBe('killed');
    expect(after.experiment.finished).toBeLessThan(20);
    const count = after.results.length;
    await expect.poll(() => llm.inFlight).toBe(0);
    expect((await ev('experiments/get', { experiment_id })).results).toHaveLength(count);
    // Retry runs what is left.
    llm.reset();
    llm.script(...Array.from({ length: 30 }, () => ({ text: 'slow answer here', chunkDelayMs: 40 })));
    await ev('experiments/retry', { experiment_id });
    // A second retry while it runs (slowly) starts nothing more.
    const again = await agent.request('POST', '/api/evaluation/v1/experiments/retry', {
      space_id: space,
      experiment_id,
    });
    expect([again.status, again.body.msg]).toEqual([400, 'The experiment is running.']);
    const done = await settle(experiment_id);
    expect(done.experiment).toMatchObject({ status: 'success', finished: 20 });
    // A stop after the end keeps the outcome, and says why.
    const late = await agent.request('POST', '/api/evaluation/v1/experiments/kill', { space_id: space, experiment_id });
    expect([late.status, late.body.msg]).toEqual([400, 'The experiment is success, not running.']);
    expect((await ev('experiments/get', { experiment_id })).experiment.status).toBe('success');
  });

  it('evaluates a published workflow, and refuses targets that cannot run', async () => {
    const { workflow_id } = await agent.post('/api/workflow_api/create', { space_id: space, name: 'greeter' });
    await agent.post('/api/workflow_api/save', { space_id: space, workflow_id, schema: greetingCanvas() });
    const notPublished = await agent.request('POST', '/api/evaluation/v1/experiments/create', {
      space_id: space,
      name: 'W',
      set_id: setId,
      target: { kind: 'workflow', settings: { workflow_id }, mapping: { name: 'question' } },
      evaluators: [{ evaluator_id: code }],
    });
    expect([notPublished.status, notPublished.body.msg]).toEqual([
      400,
      '"greeter" is not published: publish it, then run experiments on it.',
    ]);
    // Picked from what can run: an unpublished workflow is not offered.
    const options = async (kind: string, settings = {}) =>
      (await ev('targets/choices', { kind, settings })).choices.map(
        (c: { field: string; options: { value: string }[] }) => [c.field, c.options.map((o) => o.value)],
      );
    expect(await options('workflow')).toEqual([['workflow_id', []]]);
    await agent.post('/api/workflow_api/test_run', { space_id: space, workflow_id, input: { name: 'x' }, run_mode: 0 });
    await agent.post('/api/workflow_api/publish', {
      space_id: space,
      workflow_id,
      workflow_version: 'v1.0.0',
      force: true,
    });
    expect(await options('workflow')).toEqual([['workflow_id', [workflow_id]]]);
    expect(await options('prompt', { prompt_key: 'answerer' })).toEqual([
      ['prompt_key', ['answerer']],
      ['version', ['1.0.0']],
      ['label', ['production']],
    ]);
    const badMap = await agent.request('POST', '/api/evaluation/v1/experiments/create', {
      space_id: space,
      name: 'W',
      set_id: setId,
      target: { kind: 'workflow', settings: { workflow_id }, mapping: { nope: 'question' } },
      evaluators: [{ evaluator_id: code }],
    });
    expect(badMap.body.msg).toBe('The target has no input nope (it has name).');
    const { experiment_id } = await ev('experiments/create', {
      name: 'Workflow',
      set_id: setId,
      set_version: '1.0.0',
      target: { kind: 'workflow', settings: { workflow_id }, mapping: { name: 'question' } },
      evaluators: [{ evaluator_id: code }],
    });
    const r = await settle(experiment_id);
    expect(r.experiment.status).toBe('success');
    expect(r.results[0].output).toContain('Q1');
    expect(r.results[0].trace_id).toMatch(/^\d+$/);
    // Debug an evaluator on one sample without saving it.
    expect(
      await ev('evaluators/debug', {
        kind: 'code',
        settings: {
          code: 'function main({ params }) { return { score: params.output === params.reference ? 1 : 0, reason: "exact" }; }',
        },
        output: 'a',
        reference: 'a',
      }),
    ).toEqual({ score: 1, reason: 'exact' });
    expect(
      (
        await agent.request('POST', '/api/evaluation/v1/evaluators/debug', {
          space_id: space,
          kind: 'code',
          settings: { code: 'function main() { throw new Error("boom"); }' },
        })
      ).status,
    ).toBe(400);
  });

  it('evaluates a published bot: the item is the message, the answer the output, the turn its trace', async () => {
    llm.reset();
    const { bot_id } = await agent.post('/api/draftbot/create', { space_id: space, name: 'Helper' });
    const info = (await agent.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: space, bot_id }))
      .bot_info;
    await agent.post('/api/playground_api/draftbot/update_draft_bot_info', {
      space_id: space,
      bot_id,
      base_revision: info.revision,
      config: { ...info.config, settings: { prompt: 'You help.', model: { model_id: model } } },
    });
    const unpublished = await agent.request('POST', '/api/evaluation/v1/experiments/create', {
      space_id: space,
      name: 'Bot',
      set_id: setId,
      target: { kind: 'bot', settings: { bot_id }, mapping: { query: 'question' } },
      evaluators: [{ evaluator_id: code }],
    });
    expect(unpublished.body.msg).toBe(
      '"Helper" is not published to the API: publish it there, then run experiments on it.',
    );
    await agent.post('/api/draftbot/publish', { space_id: space, bot_id, connectors: ['1024'] });
    const { experiment_id } = await ev('experiments/create', {
      name: 'Bot',
      set_id: setId,
      set_version: '1.0.0',
      target: { kind: 'bot', settings: { bot_id }, mapping: { query: 'question' } },
      evaluators: [{ evaluator_id: code }],
      item_concurrency: 4,
    });
    const r = await settle(experiment_id);
    expect(r.experiment).toMatchObject({ status: 'success', finished: 20, failed: 0 });
    expect(r.results[0]).toMatchObject({
      output: 'echo: Q1',
      scores: [{ evaluator_id: code, score: 8, reason: 'length' }],
    });
    let trace;
    for (let i = 0; i < 100 && !trace; i++)
      trace = await agent
        .request('POST', '/api/observability/v1/traces/get', { space_id: space, trace_id: r.results[0].trace_id })
        .then((x) => (x.status === 200 ? x.body.data : undefined));
    expect(trace.spans[0]).toMatchObject({ kind: 'chat', input: 'Q1' });

    // A conversation item is played turn by turn in one conversation; the last answer is judged.
    const convo = (await ev('sets/create', { name: 'Conversations', columns: [{ name: 'dialog', type: 'messages' }] }))
      .set_id;
    await ev('sets/items/add', {
      set_id: convo,
      items: [
        {
          dialog: [
            { role: 'user', content: 'first' },
            { role: 'assistant', content: 'ok' },
            { role: 'user', content: 'second' },
          ],
        },
      ],
    });
    llm.reset();
    const multi = (
      await ev('experiments/create', {
        name: 'Multi-turn',
        set_id: convo,
        target: { kind: 'bot', settings: { bot_id }, mapping: { query: 'dialog' } },
        evaluators: [{ evaluator_id: code }],
      })
    ).experiment_id;
    const m = await settle(multi);
    expect(m.results[0]).toMatchObject({ status: 'done', output: 'echo: second' });
    const second = llm.requests.at(-1)!.body.messages;
    expect(second.map((x: { content: string }) => x.content)).toEqual(
      expect.arrayContaining(['first', 'echo: first', 'second']),
    );
  });

  it('evaluates a chat model alone: the mapped column is asked after a system prompt, the answer scored and traced', async () => {
    llm.reset();
    const targets = await agent.get('/api/evaluation/v1/targets');
    expect(targets.targets.map((x: { kind: string }) => x.kind)).toContain('model');
    const { experiment_id } = await ev('experiments/create', {
      name: 'The model alone',
      set_id: setId,
      set_version: '1.0.0',
      target: { kind: 'model', settings: { model_id: model, system: 'Be brief.' }, mapping: { input: 'question' } },
      evaluators: [{ evaluator_id: code }],
    });
    const r = await settle(experiment_id);
    expect(r.experiment).toMatchObject({ status: 'success', total: 20, failed: 0 });
    expect(r.results[0]).toMatchObject({ status: 'done', output: 'echo: Q1', scores: [{ score: 8 }] });
    // The model was asked with the system prompt first.
    expect(llm.requests.at(-1)?.body.messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
    const trace = await agent.post('/api/observability/v1/traces/get', {
      space_id: space,
      trace_id: r.results[0].trace_id,
    });
    expect(trace.spans[0]).toMatchObject({ kind: 'llm', name: 'model fake-chat', output: 'echo: Q1' });
    // A model the space does not have cannot be a target.
    const bad = await agent.request('POST', '/api/evaluation/v1/experiments/create', {
      space_id: space,
      name: 'No such model',
      set_id: setId,
      target: { kind: 'model', settings: { model_id: 'nope' }, mapping: { input: 'question' } },
      evaluators: [{ evaluator_id: code }],
    });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.status).toBeLessThan(500);
  });

  it('resumes an experiment a restart left running', async () => {
    llm.reset();
    llm.script(...Array.from({ length: 25 }, () => ({ text: 'slow answer', chunkDelayMs: 30 })));
    const { experiment_id } = await ev('experiments/create', {
      name: 'Across a restart',
      set_id: setId,
      set_version: '1.0.0',
      target: { kind: 'prompt', settings: { prompt_key: 'answerer' }, mapping: { question: 'question' } },
      evaluators: [{ evaluator_id: code }],
      item_concurrency: 1,
    });
    await settle(experiment_id, (e: { finished: number }) => e.finished >= 2);
    const dataDir = studio.dataDir;
    const databaseUrl = studio.databaseUrl;
    await studio.server.close();
    studio = await startStudio({
      keepData: dataDir,
      keepDatabase: true,
      ...(databaseUrl ? { env: { DATABASE_URL: databaseUrl } } : {}),
    });
    agent.base = studio.url;
    const r = await settle(experiment_id);
    expect(r.experiment).toMatchObject({ status: 'success', finished: 20, total: 20 });
    expect(r.results).toHaveLength(20);
  });
});
