// ./tessera bench llm: time to first token of a published workflow with one LLM node (stream_run through
// the whole studio) versus calling the fake model server directly. Target: under 5 ms added. Then the cost of the
// gray rule of prompt releases per render (bench/gray-rule.ts). Target: under 20 µs at p50.
import { Agent } from '../tests/agent.ts';
import { addFakeModel, startFakeLlm } from '../tests/fixtures/fake-llm.ts';
import { link, node, ref } from '../tests/workflow-kit.ts';
import { grayRuleCost } from './gray-rule.ts';
import { quantile, timedStream } from './stream.ts';
import { startBenchStudio } from './studio.ts';

const firstToken = async (url: string, init: RequestInit, marker: string) =>
  (await timedStream(url, init, marker)).first;
const median = (xs: number[]) => quantile(xs, 0.5);
const p95 = (xs: number[]) => quantile(xs, 0.95);

export default async function llmBench(args: string[]) {
  const n = Number(args[0] ?? 200);
  const llm = await startFakeLlm();
  const studio = await startBenchStudio();
  try {
    const base = studio.url;
    const user = new Agent(base);
    await user.post('/api/passport/web/email/register/v2', {
      email: `bench-${Date.now()}@example.com`,
      password: 'correct horse battery',
    });
    const space = (await user.post('/api/space/create', { name: 'Bench' })).space_id;
    const model = await addFakeModel(user, llm.url);
    const { workflow_id } = await user.post('/api/workflow_api/create', { space_id: space, name: 'one llm' });
    await user.post('/api/workflow_api/save', {
      space_id: space,
      workflow_id,
      schema: {
        nodes: [
          node('start', '1', { outputs: [{ name: 'q', type: 'string' }] }),
          node('llm', '3', { inputs: [ref('q', 'start', ['q'])], settings: { model_id: model, user_prompt: '{{q}}' } }),
          node('end', '2', {
            inputs: [ref('a', 'llm', ['output'])],
            settings: { terminate_plan: 'use_answer_content', answer: '{{a}}' },
          }),
        ],
        links: [link('start', 'llm'), link('llm', 'end')],
      },
    });
    await user.post('/api/workflow_api/publish', {
      space_id: space,
      workflow_id,
      workflow_version: 'v1.0.0',
      force: true,
    });
    const pat = await user.post('/api/permission_api/pat/create', {
      name: 'bench',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['workflow.run'] }],
    });

    const direct = () =>
      firstToken(
        `${llm.url}/v1/chat/completions`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
          body: JSON.stringify({ model: 'fake-chat', stream: true, messages: [{ role: 'user', content: 'bench' }] }),
        },
        '"content":"echo"',
      );
    const viaWorkflow = () =>
      firstToken(
        `${base}/v1/workflow/stream_run`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${pat.token}` },
          body: JSON.stringify({ workflow_id, parameters: { q: 'bench' } }),
        },
        'event: Message',
      );
    // A studio serves many calls: measure it warm (its JIT and connection pool settled), like the direct calls.
    for (let i = 0; i < 50; i++) {
      await direct();
      await viaWorkflow();
    }
    const d: number[] = [];
    const w: number[] = [];
    for (let i = 0; i < n; i++) {
      d.push(await direct());
      w.push(await viaWorkflow());
    }
    const added = median(w) - median(d);
    console.log(`llm: time to first token over ${n} runs each (fake OpenAI-compatible server on loopback)`);
    console.log(`  direct to the model server: median ${median(d).toFixed(2)} ms, p95 ${p95(d).toFixed(2)} ms`);
    console.log(
      `  workflow stream_run (token auth, Start -> LLM -> End answering {{a}}): median ${median(w).toFixed(2)} ms, p95 ${p95(w).toFixed(2)} ms`,
    );
    console.log(`  added by the studio: ${added.toFixed(2)} ms   target 5 ms   ratio ${(added / 5).toFixed(2)}`);
    const gray = await grayRuleCost();
    console.log(
      `  prompt releases' gray rule per render (state in memory, 30 % share, 100 listed users): p50 ${gray.p50.toFixed(3)} µs, p99 ${gray.p99.toFixed(3)} µs (${(gray.share * 100).toFixed(1)} % served gray)   target p50 20 µs   ratio ${(gray.p50 / 20).toFixed(3)}`,
    );
  } finally {
    await studio.stop();
    await llm.close();
  }
}
