// Speaking and listening in a space, over every speech provider: voices listed together (each id names its provider),
// speech by the voice's provider, transcription by the first provider that can in the space.
import { ApiError, describeError } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { SpeechProviders, type Audio, type SpeechFormat, type VoiceInfo } from '../shared/index.ts';
import { texts } from './texts.ts';

/** Coze's limit on the text of one speech request. */
export const MAX_SPEECH_CHARS = 1024;

export function audioService(ctx: ServerContext): Audio {
  const providers = () => ctx.registry(SpeechProviders).list();
  const voices = async (spaceId: string): Promise<VoiceInfo[]> => {
    const lists = await Promise.all(
      providers().map((p) =>
        p.voices(spaceId).catch((e: Error) => {
          ctx.logger.warn(`the speech provider ${p.key} could not list its voices: ${e.message}`);
          return [];
        }),
      ),
    );
    return lists.flat();
  };
  return {
    voices,
    async speak(req) {
      if (req.text.length > MAX_SPEECH_CHARS)
        throw texts.error(400, 'tooLong', { max: String(MAX_SPEECH_CHARS), length: String(req.text.length) });
      let voiceId = req.voiceId;
      if (!voiceId) {
        voiceId = (await voices(req.spaceId))[0]?.voice_id;
        if (!voiceId) throw texts.error(400, 'noVoices');
      }
      const cut = voiceId.indexOf(':');
      const provider = cut > 0 ? ctx.registry(SpeechProviders).get(voiceId.slice(0, cut)) : undefined;
      if (!provider?.speak) throw texts.error(400, 'noVoice', { voice: voiceId });
      const format: SpeechFormat = req.format ?? 'mp3';
      try {
        const r = await provider.speak({
          spaceId: req.spaceId,
          voice: voiceId.slice(cut + 1),
          text: req.text,
          format,
          speed: Math.min(3, Math.max(0.2, req.speed ?? 1)),
          sampleRate: req.sampleRate ?? 24000,
          signal: req.signal ?? new AbortController().signal,
        });
        return { ...r, voice_id: voiceId };
      } catch (e) {
        if (e instanceof ApiError) throw e;
        throw texts.error(400, 'failed', { detail: describeError(e) });
      }
    },
    async canTranscribe(spaceId) {
      for (const p of providers())
        if (p.transcribe && (await p.canTranscribe?.(spaceId).catch(() => false))) return true;
      return false;
    },
    async transcribe(raw) {
      const req = raw.pcm ? { ...raw, audio: await pcmWav(raw.audio, raw.pcm), fileName: 'speech.wav' } : raw;
      for (const p of providers()) {
        if (!p.transcribe || !(await p.canTranscribe?.(req.spaceId).catch(() => false))) continue;
        try {
          const r = await p.transcribe({ ...req, signal: req.signal ?? new AbortController().signal });
          return { text: r.text };
        } catch (e) {
          if (e instanceof ApiError) throw e;
          throw texts.error(400, 'transcribeFailed', { detail: describeError(e) });
        }
      }
      throw texts.error(400, 'noTranscriber');
    },
  };
}

/** Raw 16-bit PCM (interleaved channels) as a WAV of its first channel. */
async function pcmWav(data: Buffer, f: { sampleRate: number; channels: number }): Promise<Buffer> {
  const { writeWav } = await import('./wav.ts');
  const channels = Math.max(1, f.channels);
  const frames = Math.floor(data.length / (2 * channels));
  const samples = new Int16Array(frames);
  for (let i = 0; i < frames; i++) samples[i] = data.readInt16LE(i * 2 * channels);
  return writeWav({ samples, sampleRate: f.sampleRate });
}
