// ./tessera bench chat [runs=200] [seconds=20]: time to first token of a published bot through Coze's
// /v3/chat stream versus calling the fake model server directly (target: under 5 ms added), then 32
// concurrent chats for `seconds` (p50, p99, chats/s, errors; target: 0 errors).
import { Agent } from '../tests/agent.ts';
import { addFakeModel, startFakeLlm } from '../tests/fixtures/fake-llm.ts';
import { timedStream, quantile } from './stream.ts';
import { startBenchStudio } from './studio.ts';

const timed = timedStream;
const pick = quantile;

export default async function chatBench(args: string[]) {
  const n = Number(args[0] ?? 200);
  const seconds = Number(args[1] ?? 20);
  const llm = await startFakeLlm();
  const studio = await startBenchStudio();
  try {
    const base = studio.url;
    const user = new Agent(base);
    await user.post('/api/passport/web/email/register/v2', { email: `bench-${Date.now()}@example.com`, password: 'correct horse battery' });
    const space = (await user.post('/api/space/create', { name: 'Bench' })).space_id;
    const model = await addFakeModel(user, llm.url);
    const { bot_id } = await user.post('/api/draftbot/create', { space_id: space, name: 'bench bot' });
    const info = (await user.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: space, bot_id })).bot_info;
    await user.post('/api/playground_api/draftbot/update_draft_bot_info', { space_id: space, bot_id, config: { ...info.config, settings: { prompt: 'You answer briefly.', model: { model_id: model } } } });
    await user.post('/api/draftbot/publish', { space_id: space, bot_id, connectors: ['1024'] });
    const pat = await user.post('/api/permission_api/pat/create', { name: 'bench', duration_day: '1', workspace_permission_list: [{ workspace_id: space, permissions: ['bot.chat'] }] });

    const direct = () => timed(`${llm.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' }, body: JSON.stringify({ model: 'fake-chat', stream: true, messages: [{ role: 'user', content: 'bench' }] }) }, '"content":"echo"');
    const viaBot = () =>
      timed(`${base}/v3/chat`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${pat.token}` }, body: JSON.stringify({ bot_id, user_id: 'bench', stream: true, additional_messages: [{ role: 'user', content: 'bench', content_type: 'text' }] }) }, 'event: conversation.message.delta');
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
    console.log(`  direct to the model server: median ${pick(d, 0.5).toFixed(2)} ms, p95 ${pick(d, 0.95).toFixed(2)} ms`);
    console.log(`  /v3/chat stream (token auth, published single-agent bot, history saved): median ${pick(b, 0.5).toFixed(2)} ms, p95 ${pick(b, 0.95).toFixed(2)} ms`);
    console.log(`  added by the studio: ${added.toFixed(2)} ms   target 5 ms   ratio ${(added / 5).toFixed(2)}`);

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
    console.log(`  ${latencies.length} chats (${(latencies.length / elapsed).toFixed(0)}/s), whole chat p50 ${pick(latencies, 0.5).toFixed(1)} ms, p99 ${pick(latencies, 0.99).toFixed(1)} ms`);
    console.log(`  errors: ${errors}   target 0`);
  } finally {
    await studio.stop();
    await llm.close();
  }
}
