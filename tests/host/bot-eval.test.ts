import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type Agent } from '../agent.ts';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { startStudio, type RunningStudio } from '../helpers.ts';

// Lite bot evaluation: a batch task of test questions asked of a published bot and judged per dimension (the model
// fixture echoes the judge's instructions, so each dimension's score is the one its instructions name), run as an
// evaluation experiment; questions generated and judge instructions rewritten by a model; drafts, clone, kill.
let studio: RunningStudio;
let llm: FakeLlm;
let agent: Agent;
let space: string;
let model: string;
let botId: string;
const B = '/api/devops/bot_evaluation';
const post = (p: string, body: Record<string, unknown>) => agent.post(`${B}${p}`, { space_id: space, ...body });

beforeAll(async () => {
  llm = await startFakeLlm();
  studio = await startStudio();
  agent = (await signUp(studio.url)).agent;
  space = (await agent.post('/api/space/create', { name: 'Bot tests' })).space_id;
  model = await addFakeModel(agent, llm.url);
  botId = (
    await agent.post('/api/draftbot/create', {
      space_id: space,
      name: 'Shop helper',
      description: 'Answers shop questions',
    })
  ).bot_id;
  const info = (await agent.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: space, bot_id: botId }))
    .bot_info;
  await agent.post('/api/playground_api/draftbot/update_draft_bot_info', {
    space_id: space,
    bot_id: botId,
    base_revision: info.revision,
    config: { ...info.config, settings: { prompt: 'You help.', model: { model_id: model } } },
  });
});
afterAll(async () => {
  await studio?.close();
  await llm?.close();
});

async function settled(id: string) {
  for (let i = 0; i < 1200; i++) {
    const t = (await post('/v2/batch_task/get', { batch_task_id: id })).batch_task;
    if (t.status !== 'running') return t;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the batch task did not end');
}

describe('bot evaluation', () => {
  it('asks a published bot the test questions and judges each answer per dimension', async () => {
    const scenes = (await agent.get(`${B}/scene/list`)).scenes;
    expect(scenes.map((s: { scene_id: string }) => s.scene_id)).toEqual([
      'customer_service',
      'knowledge_qa',
      'companion',
      'writing',
    ]);
    const pulled = (await agent.get(`${B}/judge_template/pull?scene_id=customer_service&lang=zh-CN`)).dimensions;
    expect(pulled.map((d: { name: string }) => d.name)).toEqual(['解决问题', '准确', '礼貌清晰']);

    const rows = [
      { question: 'Where is my order', reference: 'In transit' },
      { question: 'Can I return shoes', reference: 'Within 30 days' },
    ];
    const dimensions = [
      { key: 'helpful', name: 'Helpful', prompt: '{"score": 1, "reason": "it helps: {{output}}"}' },
      { key: 'short', name: 'Short', prompt: '{"score": 0, "reason": "too long: {{output}}"}' },
    ];
    const { batch_task } = await post('/v2/batch_task/create', {
      name: 'Shop check',
      bot_id: botId,
      scene_id: 'customer_service',
      judge_model_id: model,
      rows,
      dimensions,
    });
    expect(batch_task).toMatchObject({ status: 'draft', bot_name: 'Shop helper', progress: { total: 2 } });
    expect(
      (await agent.get(`${B}/v2/batch_task/credits_check?space_id=${space}&rows=2&dimensions=2`)).model_calls,
    ).toBe(6);

    // Not published to the API yet: the submit says so, and the task stays a draft.
    const early = await agent.request('POST', `${B}/v2/batch_task/submit`, {
      space_id: space,
      batch_task_id: batch_task.batch_task_id,
    });
    expect(early.status).toBe(400);
    expect(early.body.msg).toMatch(/not published to the API/);
    await agent.post('/api/draftbot/publish', { space_id: space, bot_id: botId, connectors: ['1024'] });
    expect((await agent.get(`${B}/bots?space_id=${space}`)).bots).toEqual([
      { bot_id: botId, name: 'Shop helper', published: true },
    ]);

    // Submitted twice at once (a double click): one runs it, the other is told it has run.
    const submits = await Promise.all(
      [1, 2].map(() =>
        agent.request('POST', `${B}/v2/batch_task/submit`, {
          space_id: space,
          batch_task_id: batch_task.batch_task_id,
        }),
      ),
    );
    expect(submits.map((r) => r.status).sort((a, b) => a - b)).toEqual([200, 409]);
    const done = await settled(batch_task.batch_task_id);
    expect(done).toMatchObject({ status: 'success', progress: { total: 2, finished: 2, failed: 0 }, overall: 0.5 });
    const d = await post('/v2/batch_task/dashboard', { batch_task_id: batch_task.batch_task_id });
    expect(d.dimensions).toEqual([
      { key: 'helpful', name: 'Helpful', mean: 1, count: 2 },
      { key: 'short', name: 'Short', mean: 0, count: 2 },
    ]);
    const first = d.rows.find((r: { question: string }) => r.question === 'Where is my order');
    expect(first.answer).toBe('echo: Where is my order');
    expect(first.reference).toBe('In transit');
    expect(first.scores).toEqual([
      { key: 'helpful', score: 1, reason: 'it helps: echo: Where is my order' },
      { key: 'short', score: 0, reason: 'too long: echo: Where is my order' },
    ]);
    expect(first.trace_id).not.toBe('');
    // A task that ran is not changed; a clone is a draft to change and run again.
    const again = await agent.request('POST', `${B}/v2/batch_task/update`, {
      space_id: space,
      batch_task_id: batch_task.batch_task_id,
      name: 'x',
      bot_id: botId,
      scene_id: 'customer_service',
      judge_model_id: model,
      rows,
    });
    expect(again.status).toBe(409);
    const clone = (await post('/v2/batch_task/clone', { batch_task_id: batch_task.batch_task_id })).batch_task;
    expect(clone).toMatchObject({ status: 'draft', name: 'Shop check (copy)', overall: null });
    const listed = (await post('/v2/batch_task/list', {})).batch_tasks;
    expect(listed.map((t: { name: string }) => t.name)).toEqual(['Shop check (copy)', 'Shop check']);
  });

  it('has a model write test questions and rewrite judge instructions, and refuses what cannot run', async () => {
    llm.script({
      text: '```json\n[{"question":"Do you ship abroad?","reference":"Yes, to the EU"},"Is it in stock?"]\n```',
    });
    const gen = await post('/v2/dataset/generate', {
      bot_id: botId,
      scene_id: 'customer_service',
      model_id: model,
      count: 5,
    });
    expect(gen.rows).toEqual([
      { question: 'Do you ship abroad?', reference: 'Yes, to the EU' },
      { question: 'Is it in stock?', reference: '' },
    ]);
    llm.script({ text: 'Be strict. Question: {{input}} Answer: {{output}} Score 1 only for a full answer.' });
    const opt = await post('/judge_template/optimize', {
      model_id: model,
      prompt: 'Answer: {{output}}',
      instruction: 'be stricter',
    });
    expect(opt.prompt).toBe('Be strict. Question: {{input}} Answer: {{output}} Score 1 only for a full answer.');
    llm.script({ text: 'Be strict, but I forgot the answer.' });
    expect(
      (
        await agent.request('POST', `${B}/judge_template/optimize`, {
          space_id: space,
          model_id: model,
          prompt: 'x {{output}}',
          instruction: 'y',
        })
      ).status,
    ).toBe(400);
    const badDim = await agent.request('POST', `${B}/v2/batch_task/create`, {
      space_id: space,
      name: 'Bad',
      bot_id: botId,
      scene_id: 'customer_service',
      judge_model_id: model,
      rows: [{ question: 'q' }],
      dimensions: [{ key: 'k', name: 'K', prompt: 'no answer shown' }],
    });
    expect(badDim.status).toBe(400);
    expect(badDim.body.msg).toMatch(/put \{\{output\}\} in them/);
    const badScene = await agent.request('POST', `${B}/v2/batch_task/create`, {
      space_id: space,
      name: 'Bad',
      bot_id: botId,
      scene_id: 'nope',
      judge_model_id: model,
      rows: [{ question: 'q' }],
    });
    expect(badScene.status).toBe(400);
    const { agent: other } = await signUp(studio.url);
    expect((await other.request('POST', `${B}/v2/batch_task/list`, { space_id: space })).status).toBe(403);
  });
});
