// ./tessera bench voice [runs=200]: what the studio adds on the speech path. Text to speech through
// POST /v1/audio/speech with a speech model of the space (the fake OpenAI-compatible server, in this process) against
// the same call made straight to that server; speech to text the same way; and the embedded voice (espeak-ng, whose
// own time is included) as WAV and as MP3. Target (issue 34, for the realtime path once built): the studio adds under
// 50 ms at p50 between the end of speech and the first audio byte, providers' time excluded.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { CozeAPI } from '@coze/api';
import { Agent } from '../tests/agent.ts';
import { addFakeModel, startFakeLlm } from '../tests/fixtures/fake-llm.ts';
import { CardDsl, CardMessage, renderCard } from '../extensions/cards/src/shared/index.ts';
import { cardSvg } from '../extensions/cards/src/server/svg.ts';
import { quantile } from './stream.ts';
import { startBenchStudio } from './studio.ts';

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}
const p = (xs: number[], q: number) => quantile(xs, q);
const line = (label: string, xs: number[]) =>
  `${label} p50 ${p(xs, 0.5).toFixed(2)} ms, p95 ${p(xs, 0.95).toFixed(2)} ms`;

export default async function voiceBench(args: string[]) {
  const n = Number(args[0] ?? 200);
  const llm = await startFakeLlm({ record: false });
  const studio = await startBenchStudio({ TESSERA_ALLOW_PRIVATE_NETWORK: 'true' });
  try {
    const user = new Agent(studio.url);
    await user.post('/api/passport/web/email/register/v2', {
      email: `bench-${Date.now()}@example.com`,
      password: 'correct horse battery',
    });
    const space = (await user.post('/api/space/create', { name: 'Bench' })).space_id;
    const tts = await addFakeModel(user, llm.url, { model: 'tts-1', kind: 'speech' });
    await addFakeModel(user, llm.url, { model: 'whisper-1', kind: 'transcription' });
    const pat = await user.post('/api/permission_api/pat/create', {
      name: 'bench',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['audio.use'] }],
    });
    const auth = { authorization: `Bearer ${pat.token}` };
    const text = 'The quick brown fox jumps over the lazy dog.';
    const speak = (voice_id: string, response_format: string) => async () => {
      const r = await fetch(`${studio.url}/v1/audio/speech?space_id=${space}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ input: text, voice_id, response_format, space_id: space }),
      });
      if (!r.ok || (r.headers.get('content-type') ?? '').includes('json')) throw new Error(await r.text());
      await r.arrayBuffer();
    };
    const directSpeech = async () => {
      const r = await fetch(`${llm.url}/v1/audio/speech`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk-fake', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'tts-1', input: text, voice: 'nova', response_format: 'wav' }),
      });
      await r.arrayBuffer();
    };
    const wav = Buffer.alloc(48_000);
    const transcribe = (url: string, headers: Record<string, string>) => async () => {
      const form = new FormData();
      form.append('file', new Blob([wav], { type: 'audio/wav' }), 'a.wav');
      form.append('model', 'whisper-1');
      const r = await fetch(url, { method: 'POST', headers, body: form });
      await r.text();
    };
    const studioHear = transcribe(`${studio.url}/v1/audio/transcriptions?space_id=${space}`, auth);
    const directHear = transcribe(`${llm.url}/v1/audio/transcriptions`, { authorization: 'Bearer sk-fake' });
    const modelSpeak = speak(`models:${tts}:nova`, 'wav');
    for (let i = 0; i < 30; i++) {
      await modelSpeak();
      await directSpeech();
      await studioHear();
      await directHear();
    }
    const ts: number[] = [];
    const td: number[] = [];
    const hs: number[] = [];
    const hd: number[] = [];
    for (let i = 0; i < n; i++) {
      ts.push(await time(modelSpeak));
      td.push(await time(directSpeech));
      hs.push(await time(studioHear));
      hd.push(await time(directHear));
    }
    console.log(`voice: ${n} requests each (fake OpenAI-compatible audio server on loopback)`);
    console.log(line('  speech straight to the model server:      ', td));
    console.log(line('  /v1/audio/speech with a speech model:     ', ts));
    const addedSpeech = p(ts, 0.5) - p(td, 0.5);
    console.log(
      `  added by the studio to speech: p50 ${addedSpeech.toFixed(2)} ms   target 50 ms   ratio ${(addedSpeech / 50).toFixed(3)}`,
    );
    console.log(line('  transcription straight to the server:    ', hd));
    console.log(line('  /v1/audio/transcriptions (47 KB upload): ', hs));
    const addedHear = p(hs, 0.5) - p(hd, 0.5);
    console.log(
      `  added by the studio to transcription: p50 ${addedHear.toFixed(2)} ms   target 50 ms   ratio ${(addedHear / 50).toFixed(3)}`,
    );
    let espeak = false;
    try {
      execFileSync('espeak-ng', ['--version'], { stdio: 'ignore' });
      espeak = true;
    } catch {
      console.log('  the embedded voice: espeak-ng is not installed (skipped)');
    }
    if (espeak) {
      const runs = Math.min(n, 50);
      const ew: number[] = [];
      const em: number[] = [];
      const eo: number[] = [];
      for (let i = 0; i < runs; i++) {
        ew.push(await time(speak('espeak:en-us', 'wav')));
        em.push(await time(speak('espeak:en-us', 'mp3')));
        eo.push(await time(speak('espeak:en-us', 'ogg')));
      }
      console.log(`  the embedded voice (espeak-ng, its own time included), nine words, ${runs} requests each:`);
      console.log(line('    WAV at 24 kHz:', ew));
      console.log(line('    MP3 at 24 kHz:', em));
      console.log(line('    Ogg Opus at 24 kHz:', eo));
      await realtime(studio.url, user, space, llm.url, Math.min(n, 30));
    }
    cardRender(n);
  } finally {
    await studio.stop();
    await llm.close();
  }
}

/**
 * A card filled as a bot's answer fills it (issue 34: p50 under 5 ms): a list of 50 rows of three elements and a
 * table of 50 rows from a 500-row output, then the check a chat makes of the content before drawing it; and the SVG
 * thumbnail of the same card.
 */
function cardRender(runs: number) {
  const dsl = CardDsl.parse({
    title: 'Hotels in {{city}}',
    body: [
      {
        type: 'list',
        items: '{{hotels}}',
        children: [
          { type: 'text', text: '{{index}}. {{item.name}}', bold: true },
          { type: 'text', text: '{{item.price}} per night', style: 'caption' },
          { type: 'button', label: 'Book', action: { type: 'link', url: '{{item.url}}' } },
        ],
      },
      {
        type: 'table',
        rows: '{{hotels}}',
        columns: [
          { title: 'Name', value: '{{item.name}}' },
          { title: 'Price', value: '{{item.price}}' },
        ],
      },
    ],
  });
  const output = {
    city: 'Oslo',
    hotels: Array.from({ length: 500 }, (_, i) => ({
      name: `Hotel ${i}`,
      price: `${100 + i} EUR`,
      url: `https://hotels.example/${i}`,
    })),
  };
  const fill: number[] = [];
  const thumb: number[] = [];
  for (let i = 0; i < Math.max(runs, 200); i++) {
    let t0 = performance.now();
    const shown = renderCard(dsl, output, 50);
    CardMessage.parse(JSON.parse(JSON.stringify({ card_id: '1', version_num: 1, name: 'Hotels', ...shown })));
    fill.push(performance.now() - t0);
    t0 = performance.now();
    cardSvg(shown.title, shown.body);
    thumb.push(performance.now() - t0);
  }
  console.log(`  a card of 50 list rows and 50 table rows from a 500-row output, ${fill.length} times:`);
  console.log(
    `${line('    filled and checked as a chat checks it:', fill)}   target 5 ms   ratio ${(p(fill, 0.5) / 5).toFixed(3)}`,
  );
  console.log(line('    its SVG thumbnail:', thumb));
}

/**
 * The realtime path: a spoken question over /v1/chat (WebSocket), from the end of speech (input_audio_buffer.complete)
 * to the first audio byte of the answer, less the providers' own time measured straight: the transcription (the fake
 * server), the chat model's whole answer (the fake server) and espeak-ng speaking the answer.
 */
async function realtime(url: string, user: Agent, space: string, llmUrl: string, runs: number) {
  const model = await addFakeModel(user, llmUrl, { model: 'fake-chat' });
  const bot = (await user.post('/api/draftbot/create', { space_id: space, name: 'Talker' })).bot_id;
  const info = (await user.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: space, bot_id: bot }))
    .bot_info;
  await user.post('/api/playground_api/draftbot/update_draft_bot_info', {
    space_id: space,
    bot_id: bot,
    base_revision: info.revision,
    config: {
      ...info.config,
      settings: { prompt: 'You talk.', model: { model_id: model } },
      skills: { voice: { voice_id: 'espeak:en-us' } },
    },
  });
  await user.post('/api/draftbot/publish', { space_id: space, bot_id: bot, connectors: ['1024'] });
  const pat = await user.post('/api/permission_api/pat/create', {
    name: 'realtime',
    duration_day: '1',
    workspace_permission_list: [{ workspace_id: space, permissions: ['bot.chat', 'audio.use'] }],
  });
  const coze = new CozeAPI({ token: pat.token, baseURL: url, baseWsURL: url.replace(/^http/, 'ws') });
  const speech = Buffer.from(
    await coze.audio.speech.create({ input: 'What time is it?', voice_id: 'espeak:en-us', response_format: 'pcm' }),
  );
  const ws = await coze.websockets.chat.create({ bot_id: bot }, { maxRetries: 0 });
  let waiting: ((e: { event_type: string }) => void) | undefined;
  ws.onmessage = (e: { event_type: string }) => waiting?.(e);
  const until = (type: string) =>
    new Promise<void>((resolve) => {
      waiting = (e) => e.event_type === type && resolve();
    });
  await until('chat.created');
  const total: number[] = [];
  let answer = '';
  for (let i = 0; i < runs + 3; i++) {
    for (let j = 0; j < speech.length; j += 9600)
      ws.send({
        id: `a${i}-${j}`,
        event_type: 'input_audio_buffer.append',
        data: { delta: speech.subarray(j, j + 9600).toString('base64') },
      } as never);
    const first = until('conversation.audio.delta');
    const t0 = performance.now();
    ws.send({ id: `c${i}`, event_type: 'input_audio_buffer.complete' } as never);
    await first;
    if (i >= 3) total.push(performance.now() - t0);
    await until('conversation.chat.completed');
  }
  ws.close();
  answer = `echo: heard ${44 + speech.length} bytes`;
  const direct = { hear: [] as number[], chat: [] as number[], speak: [] as number[] };
  const run = promisify(execFile);
  for (let i = 0; i < runs; i++) {
    direct.hear.push(
      await time(async () => {
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(speech)], { type: 'audio/wav' }), 'a.wav');
        form.append('model', 'whisper-1');
        await (
          await fetch(`${llmUrl}/v1/audio/transcriptions`, {
            method: 'POST',
            headers: { authorization: 'Bearer sk-fake' },
            body: form,
          })
        ).text();
      }),
    );
    direct.chat.push(
      await time(async () => {
        const r = await fetch(`${llmUrl}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: 'Bearer sk-fake', 'content-type': 'application/json' },
          body: JSON.stringify({
            model: 'fake-chat',
            stream: true,
            messages: [{ role: 'user', content: answer.slice(6) }],
          }),
        });
        await r.text();
      }),
    );
    direct.speak.push(await time(() => run('espeak-ng', ['-v', 'en-us', '--stdout', answer], { encoding: 'buffer' })));
  }
  const providers = p(direct.hear, 0.5) + p(direct.chat, 0.5) + p(direct.speak, 0.5);
  const added = p(total, 0.5) - providers;
  console.log(`  realtime voice chat (/v1/chat over WebSocket, @coze/api), ${runs} spoken questions:`);
  console.log(line('    end of speech to the first audio byte:', total));
  console.log(
    `    the providers straight (transcription ${p(direct.hear, 0.5).toFixed(2)} + answer ${p(direct.chat, 0.5).toFixed(2)} + espeak-ng ${p(direct.speak, 0.5).toFixed(2)} ms): ${providers.toFixed(2)} ms`,
  );
  console.log(`    added by the studio: p50 ${added.toFixed(2)} ms   target 50 ms   ratio ${(added / 50).toFixed(3)}`);
}
