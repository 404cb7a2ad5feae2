// Voice (server half): speech providers (the embedded espeak-ng voice; the space's speech and transcription models;
// others as extensions), Coze's `/v1/audio/...` open API, the studio's own audio calls, and AudioService for other
// extensions (a bot's voice, a workflow's speech nodes). Realtime rooms and voiceprints are points without a built-in
// provider: the calls say so.
import { defineExtension } from '@tessera/sdk/server';
import { TokenPermissions } from '@tessera/ext-identity/shared';
import type { Language } from '@tessera/sdk';
import { AudioService, SpeechProviders, type Audio, type SpeechProviderDefinition } from '../shared/index.ts';
import { registerRealtime } from './realtime.ts';
import { registerRoutes } from './routes.ts';
import { texts } from './texts.ts';

/** A provider whose code loads when it is first asked (the studio's start stays light). */
const lazyProvider = (
  key: string,
  label: Record<Language, string>,
  load: () => Promise<SpeechProviderDefinition>,
): SpeechProviderDefinition => ({
  key,
  label,
  voices: async (spaceId) => (await load()).voices(spaceId),
  speak: async (req) => (await load()).speak!(req),
  canTranscribe: async (spaceId) => !!(await (await load()).canTranscribe?.(spaceId)),
  transcribe: async (req) => {
    const p = await load();
    if (!p.transcribe) throw texts.error(400, 'noTranscriber');
    return p.transcribe(req);
  },
});

export default defineExtension({
  id: 'audio',
  register(ctx) {
    texts.register(ctx);
    ctx.register(TokenPermissions, {
      key: 'audio.use',
      label: { 'en-US': 'Speech and transcription', 'zh-CN': '语音合成与识别' },
      group: 'audio',
    });
    ctx.register(
      SpeechProviders,
      lazyProvider(
        'espeak',
        { 'en-US': 'Embedded voice (espeak-ng)', 'zh-CN': '内置语音（espeak-ng）' },
        async () => (await import('./espeak.ts')).espeak,
      ),
    );
    let models: SpeechProviderDefinition | undefined;
    ctx.register(
      SpeechProviders,
      lazyProvider(
        'models',
        { 'en-US': 'Speech models of the space', 'zh-CN': '空间的语音模型' },
        async () => (models ??= (await import('./models-voice.ts')).modelVoices(ctx)),
      ),
    );
    let service: Promise<Audio> | undefined;
    const real = () => (service ??= import('./service.ts').then((m) => m.audioService(ctx)));
    const audio: Audio = {
      voices: async (spaceId) => (await real()).voices(spaceId),
      speak: async (req) => (await real()).speak(req),
      canTranscribe: async (spaceId) => (await real()).canTranscribe(spaceId),
      transcribe: async (req) => (await real()).transcribe(req),
    };
    ctx.provide(AudioService, audio);
    registerRoutes(ctx, audio);
    registerRealtime(ctx, audio);
  },
});
