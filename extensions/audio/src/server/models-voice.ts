// Speech and transcription by the space's models (kind `speech` and `transcription`, added under Models with any
// provider that has them: OpenAI and OpenAI-compatible endpoints' /audio/speech and /audio/transcriptions). A speech
// model offers the OpenAI voices; its voice ids are `models:<model id>:<voice>`.
import type { ServerContext } from '@tessera/sdk/server';
import { ModelsService } from '@tessera/ext-models/shared';
import type { SpeechProviderDefinition, VoiceInfo } from '../shared/index.ts';
import { texts } from './texts.ts';

/** The voices OpenAI's speech models have (and OpenAI-compatible servers accept). */
const OPENAI_VOICES = ['alloy', 'ash', 'ballad', 'coral', 'echo', 'fable', 'nova', 'onyx', 'sage', 'shimmer', 'verse'];

export function modelVoices(ctx: ServerContext): SpeechProviderDefinition {
  const models = () => ctx.optionalService(ModelsService);
  return {
    key: 'models',
    label: { 'en-US': 'Speech models of the space', 'zh-CN': '空间的语音模型' },
    async voices(spaceId): Promise<VoiceInfo[]> {
      const list = ((await models()?.list(spaceId, 'speech')) ?? []).filter((m) => m.enabled);
      return list.flatMap((m) =>
        OPENAI_VOICES.map((v) => ({
          voice_id: `models:${m.model_id}:${v}`,
          name: `${v} · ${m.display_name || m.model_name}`,
          language_code: 'multi',
          language_name: 'Multilingual',
          preview_text: 'Hello! I read your answers aloud.',
          is_system_voice: true,
          provider: 'models',
        })),
      );
    },
    async speak(req) {
      const m = models();
      const [modelId, voice] = req.voice.split(':');
      if (!m || !modelId || !voice) throw texts.error(400, 'noVoice', { voice: `models:${req.voice}` });
      const model = await m.get(req.spaceId, modelId);
      if (model.kind !== 'speech') throw texts.error(400, 'noVoice', { voice: `models:${req.voice}` });
      const { generateSpeech } = await import('ai');
      // OpenAI's "opus" is Ogg Opus: both names ask for it.
      const outputFormat = req.format === 'ogg' ? 'opus' : req.format;
      const r = await generateSpeech({
        model: await model.speech(),
        text: req.text,
        voice,
        outputFormat,
        speed: req.speed,
        abortSignal: req.signal,
        maxRetries: 0,
      });
      return { audio: Buffer.from(r.audio.uint8Array), format: req.format };
    },
    async canTranscribe(spaceId) {
      return ((await models()?.list(spaceId, 'transcription')) ?? []).some((x) => x.enabled);
    },
    async transcribe(req) {
      const m = models();
      const list = ((await m?.list(req.spaceId, 'transcription')) ?? []).filter((x) => x.enabled);
      const chosen = list.find((x) => x.is_default) ?? list[0];
      if (!m || !chosen) throw texts.error(400, 'noTranscriber');
      const model = await m.get(req.spaceId, chosen.model_id);
      const { transcribe } = await import('ai');
      const r = await transcribe({
        model: await model.transcription(),
        audio: req.audio,
        abortSignal: req.signal,
        maxRetries: 0,
        ...(req.language ? { providerOptions: { openai: { language: req.language } } } : {}),
      });
      return { text: r.text, language: r.language, duration: r.durationInSeconds };
    },
  };
}
