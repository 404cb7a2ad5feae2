// ./tessera bench chat [runs=200] [seconds=20] [streams=1000]: time to first token of a published bot through
// Coze's /v3/chat stream versus calling the fake model server directly (target: under 5 ms added), then 32
// concurrent chats for `seconds` (p50, p99, chats/s, errors; target: 0 errors), then chat at load: `streams`
// chats streaming at once from a paced model server in its own process (each answer 50 chunks, 200 ms apart),
// each client starting its next chat when the last one ends. Targets at 1,000 streams: no errors, time to first
// token added by the studio p50 <= 2 ms and p99 <= 20 ms, memory per open stream <= 50 KB.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Agent } from '../tests/agent.ts';
import { addFakeModel, startFakeLlm } from '../tests/fixtures/fake-llm.ts';
import { timedStream, quantile } from './stream.ts';
import { ROOT, startBenchStudio, type BenchStudio } from './studio.ts';

const timed = timedStream;
const pick = quantile;

export default async function chatBench(args: string[]) {
  const n = Number(args[0] ?? 200);
  const seconds = Number(args[1] ?? 20);
  const streams = Number(args[2] ?? 1000);
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
    const { bot_id } = await user.post('/api/draftbot/create', { space_id: space, name: 'bench bot' });
    const info = (await user.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: space, bot_id }))
      .bot_info;
    await user.post('/api/playground_api/draftbot/update_draft_bot_info', {
      space_id: space,
      bot_id,
      config: { ...info.config, settings: { prompt: 'You answer briefly.', model: { model_id: model } } },
    });
    await user.post('/api/draftbot/publish', { space_id: space, bot_id, connectors: ['1024'] });
    const pat = await user.post('/api/permission_api/pat/create', {
      name: 'bench',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['bot.chat'] }],
    });

    const direct = () =>
      timed(
        `${llm.url}/v1/chat/completions`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
          body: JSON.stringify({ model: 'fake-chat', stream: true, messages: [{ role: 'user', content: 'bench' }] }),
        },
        '"content":"echo"',
      );
    const viaBot = () =>
      timed(
        `${base}/v3/chat`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${pat.token}` },
          body: JSON.stringify({
            bot_id,
            user_id: 'bench',
            stream: true,
            additional_messages: [{ role: 'user', content: 'bench', content_type: 'text' }],
          }),
        },
        'event: conversation.message.delta',
      );
    for (let i = 0; i < 50; i++) {
      await direct();
      await viaBot();
    }
    const d: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < n; i++) {
      d.push((await direct()).first);
      b.push((await viaBot()).first);
    }
    const added = pick(b, 0.5) - pick(d, 0.5);
    console.log(`chat: time to first token over ${n} runs each (fake OpenAI-compatible server on loopback)`);
    console.log(
      `  direct to the model server: median ${pick(d, 0.5).toFixed(2)} ms, p95 ${pick(d, 0.95).toFixed(2)} ms`,
    );
    console.log(
      `  /v3/chat stream (token auth, published single-agent bot, history saved): median ${pick(b, 0.5).toFixed(2)} ms, p95 ${pick(b, 0.95).toFixed(2)} ms`,
    );
    console.log(`  added by the studio: ${added.toFixed(2)} ms   target 5 ms   ratio ${(added / 5).toFixed(2)}`);

    await multiAgentTurns(user, base, space, model, pat.token, n, b);

    // 32 clients chatting at once, each starting its next chat when the last one ends.
    const latencies: number[] = [];
    let errors = 0;
    const until = performance.now() + seconds * 1000;
    const client = async () => {
      while (performance.now() < until) {
        try {
          const r = await viaBot();
          if (!r.text.includes('event: conversation.chat.completed') || !r.text.includes('event: done')) errors++;
          else latencies.push(r.total);
        } catch {
          errors++;
        }
      }
    };
    const t0 = performance.now();
    await Promise.all(Array.from({ length: 32 }, client));
    const elapsed = (performance.now() - t0) / 1000;
    console.log(`chat: 32 concurrent chats for ${seconds} s`);
    console.log(
      `  ${latencies.length} chats (${(latencies.length / elapsed).toFixed(0)}/s), whole chat p50 ${pick(latencies, 0.5).toFixed(1)} ms, p99 ${pick(latencies, 0.99).toFixed(1)} ms`,
    );
    console.log(`  errors: ${errors}   target 0`);

    await chatAtLoad(studio, user, space, streams, seconds);
  } finally {
    await studio.stop();
    await llm.close();
  }
}

/**
 * A published multi-agent bot (three agents, routed by keywords: no model call to decide) against the single-agent
 * bot: what the decision adds to a turn (who holds the conversation read and written, the hand-over step saved), and
 * what a conversation keeps for it. Targets: p50 under 1 ms added; under 50 KB a conversation.
 */
async function multiAgentTurns(
  user: Agent,
  base: string,
  space: string,
  model: string,
  token: string,
  n: number,
  single: number[],
) {
  const { bot_id } = await user.post('/api/draftbot/create', { space_id: space, name: 'bench multi-agent' });
  const info = (await user.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: space, bot_id }))
    .bot_info;
  const agent = (id: string, keywords: string[]) => ({
    id,
    name: id,
    keywords,
    prompt: 'You answer briefly.',
    model: { model_id: model },
  });
  await user.post('/api/playground_api/draftbot/update_draft_bot_info', {
    space_id: space,
    bot_id,
    config: {
      ...info.config,
      mode: 'multi-agent',
      settings: {
        agents: [agent('desk', []), agent('orders', ['refund']), agent('weather', ['rain'])],
        start_agent_id: 'desk',
        router: { mode: 'rules' },
        jump: 'reroute',
      },
    },
  });
  await user.post('/api/draftbot/publish', { space_id: space, bot_id, connectors: ['1024'] });
  const turn = (query: string) =>
    timedStream(
      `${base}/v3/chat`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({
          bot_id,
          user_id: 'bench',
          stream: true,
          additional_messages: [{ role: 'user', content: query, content_type: 'text' }],
        }),
      },
      'event: conversation.message.delta',
    );
  for (let i = 0; i < 50; i++) await turn('bench refund');
  const m: number[] = [];
  for (let i = 0; i < n; i++) m.push((await turn(i % 2 ? 'bench refund' : 'will it rain')).first);
  const added = quantile(m, 0.5) - quantile(single, 0.5);
  console.log(`chat: a multi-agent bot (3 agents, routed by keywords) over ${n} turns`);
  console.log(
    `  /v3/chat time to first token: median ${quantile(m, 0.5).toFixed(2)} ms, p95 ${quantile(m, 0.95).toFixed(2)} ms`,
  );
  console.log(
    `  added by the decision (vs the single-agent bot): p50 ${added.toFixed(2)} ms   target 1 ms   ratio ${(added / 1).toFixed(2)}`,
  );
  // What a conversation keeps for the mode: one row naming the agent that holds it; nothing in memory.
  const rowBytes = 19 + 19 + 8 + 24;
  console.log(
    `  kept per conversation: one holder row, about ${rowBytes} bytes (no state in memory)   target 50 KB   ratio ${(rowBytes / 51_200).toFixed(4)}`,
  );
}

/** `streams` clients chatting at once with a bot whose model paces its answer, against the same model called directly. */
async function chatAtLoad(studio: BenchStudio, user: Agent, space: string, streams: number, seconds: number) {
  // Each answer: `chunks` chunks `delay` ms apart (TESSERA_BENCH_CHAT_PACE=delayxchunks; 200x50: a 10 s answer,
  // five chunks a second, as a model streaming a long answer does).
  const [delay, chunks] = (process.env.TESSERA_BENCH_CHAT_PACE ?? '200x50').split('x').map(Number);
  const paced = spawn(
    process.execPath,
    [
      '--disable-warning=ExperimentalWarning',
      path.join(ROOT, 'bench/fake-llm-server.ts'),
      String(delay),
      String(chunks),
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    const url = await new Promise<string>((resolve, reject) => {
      paced.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()));
      paced.once('exit', () => reject(new Error('the paced model server stopped')));
    });
    const cred = await user.post('/api/model_manage/v1/platform/credential/create', {
      provider: 'openai-compatible',
      name: 'paced',
      base_url: `${url}/v1`,
      api_key: 'sk-paced',
    });
    const model = (
      await user.post('/api/model_manage/v1/platform/model/create', {
        credential_id: cred.credential_id,
        model_name: 'paced-chat',
      })
    ).model_id;
    const { bot_id } = await user.post('/api/draftbot/create', { space_id: space, name: 'paced bot' });
    const info = (await user.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: space, bot_id }))
      .bot_info;
    await user.post('/api/playground_api/draftbot/update_draft_bot_info', {
      space_id: space,
      bot_id,
      config: { ...info.config, settings: { prompt: 'You answer briefly.', model: { model_id: model } } },
    });
    await user.post('/api/draftbot/publish', { space_id: space, bot_id, connectors: ['1024'] });
    const pat = await user.post('/api/permission_api/pat/create', {
      name: 'paced',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['bot.chat'] }],
    });
    const direct = () =>
      timedStream(
        `${url}/v1/chat/completions`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer sk-paced' },
          body: JSON.stringify({ model: 'paced-chat', stream: true, messages: [{ role: 'user', content: 'bench' }] }),
        },
        '"content":"word',
      );
    const viaBot = () =>
      timedStream(
        `${studio.url}/v3/chat`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${pat.token}` },
          body: JSON.stringify({
            bot_id,
            user_id: 'bench',
            stream: true,
            additional_messages: [{ role: 'user', content: 'bench', content_type: 'text' }],
          }),
        },
        'event: conversation.message.delta',
      );
    const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${studio.pid}/status`, 'utf8'))![1]);

    /** `streams` clients for `seconds`; the studio's RSS sampled while they all stream. */
    const phase = async (chat: () => ReturnType<typeof timedStream>, ok: (text: string) => boolean) => {
      const first: number[] = [];
      let errors = 0;
      let open = 0;
      let peakOpen = 0;
      const until = performance.now() + seconds * 1000;
      const client = async (i: number) => {
        // The clients start over the first second, not in one instant.
        await new Promise((r) => setTimeout(r, (i / streams) * 1000));
        while (performance.now() < until) {
          open++;
          peakOpen = Math.max(peakOpen, open);
          try {
            const r = await chat();
            if (ok(r.text) && r.first) first.push(r.first);
            else errors++;
          } catch {
            errors++;
          } finally {
            open--;
          }
        }
      };
      const samples: { kb: number; open: number }[] = [];
      const sampler = setInterval(() => samples.push({ kb: rss(), open }), 500);
      await Promise.all(Array.from({ length: streams }, (_, i) => client(i)));
      clearInterval(sampler);
      return { first, errors, peakOpen, samples };
    };

    await new Promise((r) => setTimeout(r, 1000));
    const idleKb = rss();
    const d = await phase(direct, (t) => t.includes('[DONE]'));
    const b = await phase(viaBot, (t) => t.includes('event: conversation.chat.completed') && t.includes('event: done'));
    // Memory per open stream: the studio's RSS while the streams are open (samples after the first two seconds,
    // their median), over its RSS before, per stream open then.
    const steady = b.samples.slice(4).filter((s) => s.open > streams * 0.9);
    const mid = steady.length
      ? quantile(
          steady.map((s) => s.kb),
          0.5,
        )
      : rss();
    const openMid = steady.length
      ? quantile(
          steady.map((s) => s.open),
          0.5,
        )
      : streams;
    const perStream = (mid - idleKb) / openMid;
    const addedP50 = quantile(b.first, 0.5) - quantile(d.first, 0.5);
    const addedP99 = quantile(b.first, 0.99) - quantile(d.first, 0.99);
    console.log(
      `chat at load: ${streams} clients for ${seconds} s, each answer ${chunks} chunks ${delay} ms apart (model server in its own process)`,
    );
    console.log(
      `  direct to the model server: ${d.first.length} chats, first token p50 ${quantile(d.first, 0.5).toFixed(1)} ms, p99 ${quantile(d.first, 0.99).toFixed(1)} ms, errors ${d.errors}`,
    );
    console.log(
      `  /v3/chat: ${b.first.length} chats (${(b.first.length / seconds).toFixed(0)}/s, ${b.peakOpen} open at most), first token p50 ${quantile(b.first, 0.5).toFixed(1)} ms, p99 ${quantile(b.first, 0.99).toFixed(1)} ms, errors ${b.errors}   target 0`,
    );
    console.log(
      `  added by the studio: p50 ${addedP50.toFixed(2)} ms   target 2   ratio ${(addedP50 / 2).toFixed(2)}; p99 ${addedP99.toFixed(2)} ms   target 20   ratio ${(addedP99 / 20).toFixed(2)}`,
    );
    console.log(
      `  memory: studio RSS ${(idleKb / 1024).toFixed(0)} MiB before, ${(mid / 1024).toFixed(0)} MiB with ${openMid} streams open: ${perStream.toFixed(1)} KB per open stream   target 50   ratio ${(perStream / 50).toFixed(2)}`,
    );
  } finally {
    paced.kill('SIGTERM');
  }
}
