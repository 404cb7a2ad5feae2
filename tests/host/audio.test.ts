import { execFileSync } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CozeAPI } from '@coze/api';
import { signUp, type Agent } from '../agent.ts';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { startStudio, type RunningStudio } from '../helpers.ts';

// Voice with the real parts: the embedded espeak-ng voice (its audio checked as WAV, PCM and MP3 of a plausible
// length), speech and transcription models behind the fake OpenAI-compatible server, through the official @coze/api
// client with a personal access token; what is missing (rooms, cloning, voiceprints, a transcriber) said clearly.
let studio: RunningStudio;
let llm: FakeLlm;
let owner: Agent;
let space: string;
let coze: CozeAPI;
let token: string;

const hasEspeak = (() => {
  try {
    execFileSync('espeak-ng', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!hasEspeak) console.warn('tests: skipped the embedded voice (espeak-ng is not installed; .ci/run installs it)');

/** The sample rate and seconds of a 16-bit mono WAV. */
function wavInfo(buf: Buffer) {
  expect(buf.toString('ascii', 0, 4)).toBe('RIFF');
  expect(buf.toString('ascii', 8, 12)).toBe('WAVE');
  const rate = buf.readUInt32LE(24);
  const dataBytes = buf.readUInt32LE(40);
  expect(dataBytes).toBe(buf.length - 44);
  return { rate, seconds: dataBytes / 2 / rate };
}
/** Seconds of an MP3 by its frames (MPEG-1/2 layer III, constant bit rate). */
function mp3Seconds(buf: Buffer): number {
  const RATES: Record<number, number[]> = {
    3: [44100, 48000, 32000],
    2: [22050, 24000, 16000],
    0: [11025, 12000, 8000],
  };
  const KBPS1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
  const KBPS2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
  let i = 0;
  let seconds = 0;
  let frames = 0;
  while (i + 4 <= buf.length) {
    if (buf[i] !== 0xff || (buf[i + 1] & 0xe0) !== 0xe0) {
      i++;
      continue;
    }
    const version = (buf[i + 1] >> 3) & 3;
    const rate = RATES[version]?.[(buf[i + 2] >> 2) & 3];
    const kbps = (version === 3 ? KBPS1 : KBPS2)[buf[i + 2] >> 4];
    if (!rate || !kbps) {
      i++;
      continue;
    }
    const samples = version === 3 ? 1152 : 576;
    const size = Math.floor(((samples / 8) * kbps * 1000) / rate) + ((buf[i + 2] >> 1) & 1);
    seconds += samples / rate;
    frames++;
    i += size;
  }
  expect(frames).toBeGreaterThan(5);
  return seconds;
}

beforeAll(async () => {
  llm = await startFakeLlm();
  studio = await startStudio();
  owner = (await signUp(studio.url, 'audio-owner')).agent;
  space = (await owner.post('/api/space/create', { name: 'Voice' })).space_id;
  const pat = await owner.post('/api/permission_api/pat/create', {
    name: 'voice',
    duration_day: '1',
    workspace_permission_list: [{ workspace_id: space, permissions: ['audio.use'] }],
  });
  token = pat.token;
  coze = new CozeAPI({ token, baseURL: studio.url });
});
afterAll(async () => {
  await studio?.close();
  await llm?.close();
});

describe.runIf(hasEspeak)('the embedded voice (espeak-ng) through @coze/api', () => {
  it('lists its voices and speaks WAV, PCM, MP3 and Ogg Opus of a plausible length at the rate asked', async () => {
    const { voice_list } = await coze.audio.voices.list({ page_size: 100 });
    const ids = voice_list.map((v) => v.voice_id);
    expect(ids).toEqual(expect.arrayContaining(['espeak:en-us', 'espeak:cmn']));
    expect(voice_list.find((v) => v.voice_id === 'espeak:cmn')).toMatchObject({
      language_code: 'zh-CN',
      is_system_voice: true,
    });
    const text = 'The quick brown fox jumps over the lazy dog.';
    const wav = Buffer.from(
      await coze.audio.speech.create({ input: text, voice_id: 'espeak:en-us', response_format: 'wav' }),
    );
    const w = wavInfo(wav);
    // The SDK asks for 24 kHz unless told; nine words take one to six seconds to say.
    expect(w.rate).toBe(24000);
    expect(w.seconds).toBeGreaterThan(1);
    expect(w.seconds).toBeLessThan(6);
    const slow = wavInfo(
      Buffer.from(
        await coze.audio.speech.create({
          input: text,
          voice_id: 'espeak:en-us',
          response_format: 'wav',
          speed: 0.5,
          sample_rate: 16000,
        }),
      ),
    );
    expect(slow.rate).toBe(16000);
    expect(slow.seconds).toBeGreaterThan(w.seconds * 1.5);
    const pcm = Buffer.from(
      await coze.audio.speech.create({ input: text, voice_id: 'espeak:en-us', response_format: 'pcm' }),
    );
    expect(pcm.length % 2).toBe(0);
    expect(Math.abs(pcm.length / 2 / 24000 - w.seconds)).toBeLessThan(0.05);
    const mp3 = Buffer.from(await coze.audio.speech.create({ input: text, voice_id: 'espeak:en-us' }));
    expect(Math.abs(mp3Seconds(mp3) - w.seconds)).toBeLessThan(0.2);
    // Ogg Opus (ogg and opus alike), read back by an independent decoder: its pages' checksums hold, its length is
    // the speech's.
    for (const response_format of ['ogg', 'opus'] as const) {
      const ogg = Buffer.from(
        await coze.audio.speech.create({ input: text, voice_id: 'espeak:en-us', response_format }),
      );
      expect(ogg.subarray(0, 4).toString('latin1')).toBe('OggS');
      expect(ogg.subarray(28, 36).toString('latin1')).toBe('OpusHead');
      const { OggOpusDecoder } = await import('ogg-opus-decoder');
      const decoder = new OggOpusDecoder();
      await decoder.ready;
      const decoded = await decoder.decodeFile(new Uint8Array(ogg));
      decoder.free();
      expect(decoded.errors).toEqual([]);
      expect(Math.abs(decoded.samplesDecoded / decoded.sampleRate - w.seconds)).toBeLessThan(0.05);
    }
    // Chinese too.
    const zh = wavInfo(
      Buffer.from(
        await coze.audio.speech.create({ input: '你好，世界', voice_id: 'espeak:cmn', response_format: 'wav' }),
      ),
    );
    expect(zh.seconds).toBeGreaterThan(0.5);
  });

  it('refuses what it cannot do with a clear error', async () => {
    const speech = (body: Record<string, unknown>) =>
      fetch(`${studio.url}/v1/audio/speech`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, body: await r.json() }));
    expect((await speech({ input: 'x'.repeat(1025), voice_id: 'espeak:en-us' })).body.msg).toMatch(/1024 characters/);
    expect((await speech({ input: 'hi', voice_id: 'espeak:klingon' })).body.msg).toMatch(/no voice espeak:klingon/);
  });
});

describe('speech and transcription models (the fake OpenAI-compatible server)', () => {
  it('speaks in a speech model’s voices and transcribes with a transcription model', async () => {
    // Without a transcription model the call says what to add.
    const none = await fetch(`${studio.url}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: (() => {
        const f = new FormData();
        f.append('file', new Blob([Buffer.alloc(100)], { type: 'audio/wav' }), 'a.wav');
        return f;
      })(),
    }).then((r) => r.json());
    expect(none.msg).toMatch(/needs a transcription model/);

    const tts = await addFakeModel(owner, llm.url, { model: 'tts-1', kind: 'speech' });
    await addFakeModel(owner, llm.url, { model: 'whisper-1', kind: 'transcription' });
    const { voice_list } = await coze.audio.voices.list();
    expect(voice_list.map((v) => v.voice_id)).toContain(`models:${tts}:nova`);
    const audio = Buffer.from(
      await coze.audio.speech.create({
        input: 'Hello from a model',
        voice_id: `models:${tts}:nova`,
        response_format: 'wav',
      }),
    );
    expect(audio.toString('ascii', 0, 4)).toBe('RIFF');
    const asked = llm.requests.find((r) => r.path.endsWith('/audio/speech'))!;
    expect(asked.body).toMatchObject({
      model: 'tts-1',
      input: 'Hello from a model',
      voice: 'nova',
      response_format: 'wav',
    });

    // As the SDK's Node examples send a file: a read stream.
    const dir = mkdtempSync(path.join(tmpdir(), 'tessera-audio-'));
    writeFileSync(path.join(dir, 'hello.wav'), audio);
    const { text } = await coze.audio.transcriptions.create({ file: createReadStream(path.join(dir, 'hello.wav')) });
    rmSync(dir, { recursive: true, force: true });
    expect(text).toMatch(/^heard \d+ bytes$/);
    expect(llm.requests.some((r) => r.path.endsWith('/audio/transcriptions'))).toBe(true);
  });

  it('says what is missing for rooms, cloning and voiceprints, and keeps to the token’s permission', async () => {
    const call = (method: string, path: string, body?: unknown, auth = token) =>
      fetch(`${studio.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${auth}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      }).then((r) => r.json());
    expect((await call('POST', '/v1/audio/rooms', { bot_id: '1' })).msg).toMatch(/room provider/);
    expect((await call('GET', '/v1/audio/voiceprint_groups')).msg).toMatch(/Voiceprints/);
    expect((await call('DELETE', '/v1/audio/voiceprint_groups/7')).msg).toMatch(/Voiceprints/);
    const other = await owner.post('/api/permission_api/pat/create', {
      name: 'no voice',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['bot.read'] }],
    });
    const refused = await call('POST', '/v1/audio/speech', { input: 'hi', voice_id: 'espeak:en-us' }, other.token);
    expect(refused.code).not.toBe(0);
    expect(refused.msg).toMatch(/audio\.use/);
  });
});

describe.runIf(hasEspeak)('realtime speech and transcription over WebSocket (@coze/api websockets)', () => {
  /** Opens a socket with the SDK and gathers its events until `until` arrives. */
  async function session(
    kind: 'speech' | 'transcriptions',
    send: (ws: { send(e: unknown): void }) => void,
    until: string,
    auth = token,
  ) {
    const client = new CozeAPI({ token: auth, baseURL: studio.url, baseWsURL: studio.url.replace(/^http/, 'ws') });
    const ws = await client.websockets.audio[kind].create({}, { maxRetries: 0 });
    const events: { event_type: string; data?: any }[] = [];
    await new Promise<void>((resolve, reject) => {
      ws.onmessage = (e: { event_type: string; data?: any }) => {
        events.push(e);
        if (e.event_type === until) resolve();
      };
      ws.onerror = (e: { data: { code: number; msg: string } }) =>
        reject(Object.assign(new Error(e.data.msg), { code: e.data.code }));
      send(ws);
    });
    ws.close();
    return events;
  }

  it('speaks text as PCM chunks, and hears them back', async () => {
    const spoken = await session(
      'speech',
      (ws) => {
        ws.send({
          id: '1',
          event_type: 'speech.update',
          data: { output_audio: { codec: 'pcm', pcm_config: { sample_rate: 16000 }, voice_id: 'espeak:en-us' } },
        });
        ws.send({ id: '2', event_type: 'input_text_buffer.append', data: { delta: 'Hello there, ' } });
        ws.send({ id: '3', event_type: 'input_text_buffer.append', data: { delta: 'how are you?' } });
        ws.send({ id: '4', event_type: 'input_text_buffer.complete' });
      },
      'speech.audio.completed',
    );
    const kinds = spoken.map((e) => e.event_type);
    expect(kinds.slice(0, 3)).toEqual(['speech.created', 'speech.updated', 'input_text_buffer.completed']);
    expect(kinds.at(-1)).toBe('speech.audio.completed');
    const pcm = Buffer.concat(
      spoken.filter((e) => e.event_type === 'speech.audio.update').map((e) => Buffer.from(e.data.delta, 'base64')),
    );
    expect(spoken.filter((e) => e.event_type === 'speech.audio.update').length).toBeGreaterThan(5);
    const seconds = pcm.length / 2 / 16000;
    expect(seconds).toBeGreaterThan(0.8);
    expect(seconds).toBeLessThan(4);

    const heard = await session(
      'transcriptions',
      (ws) => {
        ws.send({
          id: '1',
          event_type: 'transcriptions.update',
          data: { input_audio: { format: 'pcm', codec: 'pcm', sample_rate: 16000, channel: 1, bit_depth: 16 } },
        });
        for (let i = 0; i < pcm.length; i += 6400)
          ws.send({
            id: `a${i}`,
            event_type: 'input_audio_buffer.append',
            data: { delta: pcm.subarray(i, i + 6400).toString('base64') },
          });
        ws.send({ id: '9', event_type: 'input_audio_buffer.complete' });
      },
      'transcriptions.message.completed',
    );
    expect(heard.map((e) => e.event_type)).toEqual(
      expect.arrayContaining([
        'transcriptions.created',
        'transcriptions.updated',
        'input_audio_buffer.completed',
        'transcriptions.message.update',
      ]),
    );
    expect(heard.at(-1)!.data.content).toMatch(/^heard \d+ bytes$/);
  });

  it('refuses a token without the permission before the upgrade, and says what it does not do', async () => {
    const other = await owner.post('/api/permission_api/pat/create', {
      name: 'no voice ws',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['bot.read'] }],
    });
    await expect(session('speech', () => undefined, 'speech.created', other.token)).rejects.toMatchObject({
      code: 403,
    });
    const opus = await session(
      'speech',
      (ws) => ws.send({ id: '1', event_type: 'speech.update', data: { output_audio: { codec: 'opus' } } }),
      'error',
    );
    expect(opus.at(-1)!.data.msg).toMatch(/PCM over WebSocket/);
  });

  it('takes a session cookie from the studio’s own pages only', async () => {
    const { WebSocket } = await import('ws');
    const cookie = [...owner.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const open = (origin: string) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(`${studio.url.replace(/^http/, 'ws')}/v1/audio/speech`, {
          headers: { cookie, origin },
        });
        ws.on('open', () => (ws.close(), resolve(101)));
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('error', () => undefined);
      });
    expect(await open(studio.url)).toBe(101);
    expect(await open('https://evil.example')).toBe(403);
  });
});
