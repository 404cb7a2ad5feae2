// ./tessera bench agent [tasks=10] [steps=10]: the agent workspace's own cost per step, without the model's time or the
// tools' work: the lease, reading the task, the prompts, saving and telling each line of the log (a tool call, its
// result, the answer), the plan's bookkeeping and queueing the next step. Each task (after one to warm up) has a plan
// of `steps` steps; each step calls a tool (list_files) and answers; a page follows the task live all along. The
// studio tells each job's split (timing events of the task's stream: total, model, tool, overhead; the summary's comes
// after the task has ended, and the stream with it). Target: the overhead of a step under 2 ms at p50.
import { Agent } from '../tests/agent.ts';
import { addFakeModel, startFakeLlm } from '../tests/fixtures/fake-llm.ts';
import { quantile } from './stream.ts';
import { startBenchStudio } from './studio.ts';

interface Timing {
  kind: string;
  total_ms: number;
  model_ms: number;
  tool_ms: number;
  overhead_ms: number;
}

const ms = (x: number) => `${x.toFixed(2)} ms`;

/** Follows a task's stream to its end; answers the timing events it told. */
async function follow(base: string, user: Agent, taskId: string): Promise<Timing[]> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'text/event-stream',
    cookie: [...user.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    'x-csrf-token': decodeURIComponent(user.cookies.get('tessera_csrf') ?? ''),
  };
  const res = await fetch(`${base}/api/agent_space/task/stream`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ task_id: taskId }),
  });
  const text = await res.text();
  const out: Timing[] = [];
  for (const block of text.split('\n\n')) {
    if (!block.includes('event: timing')) continue;
    const data = block.split('\n').find((l) => l.startsWith('data: '));
    if (data) out.push(JSON.parse(data.slice(6)) as Timing);
  }
  return out;
}

export default async function agentBench(args: string[]) {
  const tasks = Number(args[0] ?? 10);
  const steps = Number(args[1] ?? 10);
  const llm = await startFakeLlm({ record: false });
  const studio = await startBenchStudio({
    TESSERA_EXT_AGENT_WORKSPACE: JSON.stringify({ maxRunning: 1000, dailyTasks: 100_000 }),
  });
  try {
    const user = new Agent(studio.url);
    await user.post('/api/passport/web/email/register/v2', {
      email: `bench-${Date.now()}@example.com`,
      password: 'correct horse battery',
    });
    const space = (await user.post('/api/space/create', { name: 'Bench' })).space_id;
    const model = await addFakeModel(user, llm.url, { capabilities: { function_call: true } });
    console.log(`agent: ${tasks} tasks of ${steps} steps (each a tool call and an answer), followed live`);
    const all: Timing[] = [];
    for (let i = 0; i <= tasks; i++) {
      llm.script(
        { text: JSON.stringify({ steps: Array.from({ length: steps }, (_, n) => ({ title: `Step ${n + 1}` })) }) },
        ...Array.from({ length: steps }, () => [
          { toolCalls: [{ name: 'list_files', arguments: {} }] },
          { text: 'Done with this step.' },
        ]).flat(),
        { text: 'All steps done.' },
      );
      const { task } = await user.post('/api/agent_space/task/create', {
        space_id: space,
        model_id: model,
        query: `Bench task ${i}`,
        code: false,
        limits: { max_steps: 200 },
      });
      const timings = await follow(studio.url, user, task.task_id);
      const info = (await user.post('/api/agent_space/task/info', { task_id: task.task_id })).task;
      if (info.status !== 'finished') throw new Error(`task ${i} ended ${info.status}: ${info.end_reason}`);
      // The first task warms the studio (the AI SDK, the tools and prompts load with it).
      if (i > 0) all.push(...timings);
    }
    const of = (kind: string) => all.filter((t) => t.kind === kind);
    const stepsT = of('step');
    const line = (label: string, xs: Timing[]) => {
      const over = xs.map((t) => t.overhead_ms);
      const model = xs.map((t) => t.model_ms);
      const tool = xs.map((t) => t.tool_ms);
      console.log(
        `  ${label} (${xs.length}): overhead p50 ${ms(quantile(over, 0.5))}, p95 ${ms(quantile(over, 0.95))}; ` +
          `model p50 ${ms(quantile(model, 0.5))}; tools p50 ${ms(quantile(tool, 0.5))}`,
      );
    };
    line('a step', stepsT);
    line('planning', of('plan'));
    const p50 = quantile(
      stepsT.map((t) => t.overhead_ms),
      0.5,
    );
    console.log(`  step overhead p50 ${ms(p50)}   target < 2 ms   ratio ${(p50 / 2).toFixed(2)}`);
  } finally {
    await studio.stop();
    await llm.close();
  }
}
