import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CozeAPI } from '@coze/api';
import { signUp, type Agent } from '../agent.ts';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { startStudio, type RunningStudio } from '../helpers.ts';

// Realtime voice chat with a published bot through @coze/api's websockets.chat: a text question and a spoken one
// (PCM made by the embedded voice, heard by the fake transcription model), the answer's events as /v3/chat's and its
// sentences spoken as PCM; a new question interrupting the answer.
const hasEspeak = (() => {
  try {
    execFileSync('espeak-ng', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

let studio: RunningStudio;
let llm: FakeLlm;
let owner: Agent;
let space: string;
let bot: string;
let coze: CozeAPI;

beforeAll(async () => {
  llm = await startFakeLlm();
  studio = await startStudio();
  owner = (await signUp(studio.url, 'voice-chat')).agent;
  space = (await owner.post('/api/space/create', { name: 'Voice chat' })).space_id;
  const model = await addFakeModel(owner, llm.url);
  await addFakeModel(owner, llm.url, { model: 'whisper-1', kind: 'transcription' });
  bot = (await owner.post('/api/draftbot/create', { space_id: space, name: 'Talker' })).bot_id;
  const info = (await owner.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: space, bot_id: bot }))
    .bot_info;
  await owner.post('/api/playground_api/draftbot/update_draft_bot_info', {
    space_id: space,
    bot_id: bot,
    base_revision: info.revision,
    config: {
      ...info.config,
      settings: { prompt: 'You talk.', model: { model_id: model } },
      skills: { voice: { voice_id: 'espeak:en-us', language: 'en', autoplay: true } },
    },
  });
  await owner.post('/api/draftbot/publish', { space_id: space, bot_id: bot, connectors: ['1024'] });
  const pat = await owner.post('/api/permission_api/pat/create', {
    name: 'voice chat',
    duration_day: '1',
    workspace_permission_list: [{ workspace_id: space, permissions: ['bot.chat', 'audio.use'] }],
  });
  coze = new CozeAPI({ token: pat.token, baseURL: studio.url, baseWsURL: studio.url.replace(/^http/, 'ws') });
});
afterAll(async () => {
  await studio?.close();
  await llm?.close();
});

type Ev = { event_type: string; data?: any };
async function talk(
  send: (ws: { send(e: unknown): void }) => void,
  until: (events: Ev[]) => boolean,
  react?: (ws: { send(e: unknown): void }, e: Ev) => void,
) {
  const ws = await coze.websockets.chat.create({ bot_id: bot }, { maxRetries: 0 });
  const events: Ev[] = [];
  await new Promise<void>((resolve, reject) => {
    ws.onmessage = (e: Ev) => {
      events.push(e);
      react?.(ws, e);
      if (e.event_type === 'error') reject(new Error(`error event: ${e.data?.msg}`));
      if (until(events)) resolve();
    };
    ws.onerror = (e: { data: { msg: string } }) => reject(new Error(e.data.msg));
    send(ws);
  });
  ws.close();
  return events;
}
const pcmOf = (events: Ev[]) =>
  Buffer.concat(
    events.filter((e) => e.event_type === 'conversation.audio.delta').map((e) => Buffer.from(e.data.content, 'base64')),
  );

describe.runIf(hasEspeak)('realtime voice chat (@coze/api websockets.chat)', () => {
  it('answers a text question with its events and speaks the answer sentence by sentence', async () => {
    llm.script({ text: 'Hello there. It is a fine day! Anything else?' });
    const events = await talk(
      (ws) => {
        ws.send({
          id: '1',
          event_type: 'chat.update',
          data: {
            chat_config: { user_id: 'caller-1' },
            output_audio: { codec: 'pcm', pcm_config: { sample_rate: 16000 } },
          },
        });
        ws.send({
          id: '2',
          event_type: 'conversation.message.create',
          data: { role: 'user', content_type: 'text', content: 'Hi' },
        });
      },
      (all) => all.some((e) => e.event_type === 'conversation.chat.completed'),
    );
    const kinds = events.map((e) => e.event_type);
    expect(kinds.slice(0, 2)).toEqual(['chat.created', 'chat.updated']);
    expect(kinds).toEqual(
      expect.arrayContaining(['conversation.chat.created', 'conversation.message.delta', 'conversation.audio.delta']),
    );
    // The answer's audio ends before the chat does, and comes in three sentences.
    expect(kinds.indexOf('conversation.audio.completed')).toBeLessThan(kinds.indexOf('conversation.chat.completed'));
    expect(
      events.filter((e) => e.event_type === 'conversation.audio.sentence_start').map((e) => e.data.text.trim()),
    ).toEqual(['Hello there.', 'It is a fine day!', 'Anything else?']);
    const seconds = pcmOf(events).length / 2 / 16000;
    expect(seconds).toBeGreaterThan(1.5);
    expect(seconds).toBeLessThan(8);
  });

  it('hears a spoken question, says what it heard, and answers it', async () => {
    const spoken = Buffer.from(
      await coze.audio.speech.create({ input: 'What time is it?', voice_id: 'espeak:en-us', response_format: 'pcm' }),
    );
    const events = await talk(
      (ws) => {
        ws.send({
          id: '1',
          event_type: 'chat.update',
          data: { input_audio: { format: 'pcm', codec: 'pcm', sample_rate: 24000, channel: 1, bit_depth: 16 } },
        });
        for (let i = 0; i < spoken.length; i += 9600)
          ws.send({
            id: `a${i}`,
            event_type: 'input_audio_buffer.append',
            data: { delta: spoken.subarray(i, i + 9600).toString('base64') },
          });
        ws.send({ id: '9', event_type: 'input_audio_buffer.complete' });
      },
      (all) => all.some((e) => e.event_type === 'conversation.chat.completed'),
    );
    const transcript = events.find((e) => e.event_type === 'conversation.audio_transcript.completed');
    expect(transcript?.data.content).toMatch(/^heard \d+ bytes$/);
    const answer = events
      .filter((e) => e.event_type === 'conversation.message.delta')
      .map((e) => e.data.content)
      .join('');
    expect(answer).toBe(`echo: ${transcript!.data.content}`);
    expect(pcmOf(events).length).toBeGreaterThan(0);
  });

  it('stops the answer when asked to', async () => {
    llm.script({ text: 'One. Two. Three. Four. Five.', chunkDelayMs: 200 });
    let asked = false;
    const events = await talk(
      (ws) =>
        ws.send({
          id: '1',
          event_type: 'conversation.message.create',
          data: { role: 'user', content_type: 'text', content: 'Count' },
        }),
      (all) => all.some((e) => e.event_type === 'conversation.chat.canceled'),
      // Interrupted once the answer has begun.
      (ws, e) => {
        if (e.event_type !== 'conversation.message.delta' || asked) return;
        asked = true;
        ws.send({ id: '2', event_type: 'conversation.chat.cancel' });
      },
    );
    expect(events.some((e) => e.event_type === 'conversation.chat.completed')).toBe(false);
  });
});
