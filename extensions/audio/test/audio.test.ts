import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import audio from '../src/server/index.ts';
import { SpeechProviders } from '../src/shared/index.ts';
import { readWav, resample, writeWav } from '../src/server/wav.ts';

// The audio extension alone, with a stand-in speech provider: voices from every provider, a voice id that names its
// provider, the limits and refusals in both languages; and the WAV arithmetic the embedded voice rests on.
let t: ExtensionTester;
const spoken: { voice: string; text: string; format: string; speed: number; sampleRate: number }[] = [];
beforeAll(async () => {
  t = await createExtensionTester(audio, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [
      { id: 'identity', register() {} },
      { id: 'spaces', register() {} },
      {
        id: 'voice-stub',
        register(ctx) {
          ctx.register(SpeechProviders, {
            key: 'stub',
            label: { 'en-US': 'Stub', 'zh-CN': 'Stub' },
            voices: async () => [
              {
                voice_id: 'stub:calm',
                name: 'Calm',
                language_code: 'en',
                language_name: 'English',
                preview_text: 'Hi',
                is_system_voice: true,
                provider: 'stub',
              },
            ],
            speak: async (req) => {
              spoken.push(req);
              return { audio: Buffer.from('RIFFxxxx'), format: req.format };
            },
          });
        },
      },
    ],
    users: { ann: { userId: 'ann' } },
    spaces: { s1: { ann: 'owner' } },
  });
});
afterAll(() => t.close());

describe('the audio extension alone', () => {
  it('lists every provider’s voices and speaks by the provider the voice names', async () => {
    const { voices, can_transcribe } = await t.call('POST', '/api/audio/voices', { space_id: 's1' }, 'ann');
    expect(voices.map((v: { voice_id: string }) => v.voice_id)).toContain('stub:calm');
    expect(can_transcribe).toBe(false);
    const r = await t.request({
      method: 'POST',
      url: '/api/audio/speech',
      body: { space_id: 's1', input: 'Hello', voice_id: 'stub:calm', response_format: 'wav', speed: 1.5 },
      as: 'ann',
    });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/audio\/wav/);
    expect(spoken.at(-1)).toMatchObject({ voice: 'calm', text: 'Hello', format: 'wav', speed: 1.5, sampleRate: 24000 });
  });

  it('refuses an unknown voice, a text too long and a transcription nobody can do, in the caller’s language', async () => {
    const ask = (body: Record<string, unknown>, lang = 'en-US') =>
      t.request({
        method: 'POST',
        url: '/api/audio/speech',
        body: { space_id: 's1', ...body },
        headers: { 'accept-language': lang },
        as: 'ann',
      });
    expect((await ask({ input: 'x', voice_id: 'nowhere:x' })).body.msg).toMatch(/no voice nowhere:x/);
    expect((await ask({ input: 'x'.repeat(1025), voice_id: 'stub:calm' })).body.msg).toMatch(/1024 characters/);
    expect((await ask({ input: 'x', voice_id: 'nowhere:x' }, 'zh-CN')).body.msg).toMatch(/没有音色/);
  });
});

describe('the WAV arithmetic', () => {
  it('writes and reads 16-bit mono WAV, and resamples keeping the duration', () => {
    const samples = Int16Array.from({ length: 22050 }, (_, i) => Math.round(1000 * Math.sin(i / 10)));
    const back = readWav(writeWav({ samples, sampleRate: 22050 }));
    expect(back.sampleRate).toBe(22050);
    expect(Array.from(back.samples.slice(0, 50))).toEqual(Array.from(samples.slice(0, 50)));
    const up = resample(back, 24000);
    expect(up.samples.length).toBe(24000);
    expect(() => readWav(Buffer.from('not audio at all'))).toThrow(/not a WAV/);
  });
});
