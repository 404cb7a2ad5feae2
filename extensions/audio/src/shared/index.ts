// The audio extension's shared contract: speech providers (each an extension, or built in: the embedded espeak-ng
// voice, and the space's speech and transcription models) and the service other extensions speak and listen with
// (a workflow's speech nodes, a bot's voice).
import { defineEndpoint, defineRegistryPoint, defineService, type Language } from '@tessera/sdk';
import { z } from 'zod';

/** The formats `/v1/audio/speech` answers in (Coze's `response_format`). */
export const SPEECH_FORMATS = ['wav', 'pcm', 'ogg', 'opus', 'mp3'] as const;
export type SpeechFormat = (typeof SPEECH_FORMATS)[number];
export const MIME: Record<SpeechFormat, string> = {
  wav: 'audio/wav',
  pcm: 'audio/pcm',
  ogg: 'audio/ogg',
  opus: 'audio/ogg',
  mp3: 'audio/mpeg',
};

/** A voice, as `/v1/audio/voices` lists it (Coze's Voice). Its id names its provider: `<provider>:<...>`. */
export interface VoiceInfo {
  voice_id: string;
  name: string;
  /** BCP 47-ish language code (en, en-US, zh ...) and its name. */
  language_code: string;
  language_name: string;
  preview_text: string;
  is_system_voice: boolean;
  /** The provider that speaks it (espeak, models ...). */
  provider: string;
}

export interface SpeakRequest {
  spaceId: string;
  /** The voice within the provider (the part of the voice id after `<provider>:`). */
  voice: string;
  text: string;
  format: SpeechFormat;
  /** 0.2 to 3, 1 the voice's own pace. */
  speed: number;
  sampleRate: number;
  signal: AbortSignal;
}
export interface SpeechAudio {
  audio: Buffer;
  format: SpeechFormat;
  /** Seconds, when the provider knows. */
  duration?: number;
}
export interface TranscribeRequest {
  spaceId: string;
  audio: Buffer;
  fileName: string;
  /** A language hint (en, zh ...). */
  language?: string;
  signal: AbortSignal;
}

/** Where speech comes from and goes to: espeak-ng, a space's speech models, a cloud's ... */
export interface SpeechProviderDefinition {
  key: string;
  label: Record<Language, string>;
  /** The voices it offers the space (an empty list when it cannot speak there: no binary, no model). */
  voices(spaceId: string): Promise<VoiceInfo[]>;
  speak?(req: SpeakRequest): Promise<SpeechAudio>;
  /** Whether it can transcribe in the space (a transcription model, say). */
  canTranscribe?(spaceId: string): Promise<boolean>;
  transcribe?(req: TranscribeRequest): Promise<{ text: string; language?: string; duration?: number }>;
}

const fn = z.custom<(...a: unknown[]) => unknown>((v) => typeof v === 'function', 'must be a function');
export const SpeechProviders = defineRegistryPoint<SpeechProviderDefinition>({
  id: 'audio.speechProviders',
  owner: 'audio',
  description: 'Text to speech and speech to text: the embedded espeak-ng voice, a space’s speech models, others.',
  schema: z.object({ key: z.string().regex(/^[a-z][a-z0-9-]*$/), voices: fn }),
  key: (p) => p.key,
});

/**
 * Realtime rooms (`/v1/audio/rooms`: a bot in a voice call, as Coze's RTC rooms): none is built in; a room provider
 * extension answers `create`.
 */
export interface RoomProviderDefinition {
  key: string;
  label: Record<Language, string>;
  create(req: {
    spaceId: string;
    userId: string;
    botId: string;
    voiceId?: string;
    conversationId?: string;
  }): Promise<{ room_id: string; app_id: string; token: string; uid: string }>;
}
export const RoomProviders = defineRegistryPoint<RoomProviderDefinition>({
  id: 'audio.roomProviders',
  owner: 'audio',
  description: 'Realtime voice rooms for bots (an RTC service); none is built in.',
  schema: z.object({ key: z.string().regex(/^[a-z][a-z0-9-]*$/), create: fn }),
  key: (p) => p.key,
});

/** Speaking and listening, for other extensions (server side). */
export interface Audio {
  voices(spaceId: string): Promise<VoiceInfo[]>;
  /** Text in a voice of the space (`<provider>:<voice>`; absent: the space's first voice). */
  speak(req: {
    spaceId: string;
    voiceId?: string;
    text: string;
    format?: SpeechFormat;
    speed?: number;
    sampleRate?: number;
    signal?: AbortSignal;
  }): Promise<SpeechAudio & { voice_id: string }>;
  /** Whether a provider can transcribe in the space (a transcription model, say). */
  canTranscribe(spaceId: string): Promise<boolean>;
  /**
   * What is said in an audio file (a provider that transcribes in the space, else a clear 400). `pcm`: the audio is
   * raw 16-bit PCM (interleaved channels) at this rate, sent on as a WAV of its first channel.
   */
  transcribe(req: {
    spaceId: string;
    audio: Buffer;
    fileName: string;
    pcm?: { sampleRate: number; channels: number };
    language?: string;
    signal?: AbortSignal;
  }): Promise<{ text: string }>;
}
export const AudioService = defineService<Audio>({
  id: 'audio.service',
  owner: 'audio',
  description: 'Text to speech and speech to text in a space.',
});

/** A bot's voice (the `voice` skill's settings): the voice answers are read in, its language, and auto-play. */
export const BotVoice = z.object({
  voice_id: z.string().max(200).default(''),
  language: z.string().max(16).default(''),
  autoplay: z.boolean().default(false),
});
export type BotVoice = z.infer<typeof BotVoice>;

const VoiceView = z.object({
  voice_id: z.string(),
  name: z.string(),
  language_code: z.string(),
  language_name: z.string(),
  preview_text: z.string(),
  is_system_voice: z.boolean(),
  provider: z.string(),
});
/** The studio's voice list (the Voices page, a bot's voice panel, the speech node's form). */
export const ListVoices = defineEndpoint({
  method: 'POST',
  path: '/api/audio/voices',
  summary: 'The voices of the space, and whether it can transcribe',
  body: z.object({ space_id: z.string().min(1).max(32) }),
  response: z.object({ voices: z.array(VoiceView), can_transcribe: z.boolean() }),
});
/** What `/api/audio/transcriptions` and `/v1/audio/transcriptions` answer. */
export interface Transcript {
  text: string;
}

// What the open API answers (Coze's /v1/audio/...): declared on the routes, so /openapi.json describes them.
export const TranscriptAnswer = z.object({ text: z.string() });
export const OpenVoices = z.object({
  voice_list: z.array(
    z.object({
      voice_id: z.string(),
      name: z.string(),
      language_code: z.string(),
      language_name: z.string(),
      preview_text: z.string(),
      preview_audio: z.string(),
      is_system_voice: z.boolean(),
      available_training_times: z.number(),
      create_time: z.number(),
      update_time: z.number(),
    }),
  ),
  has_more: z.boolean(),
});
export const RoomAnswer = z.object({ room_id: z.string(), app_id: z.string(), token: z.string(), uid: z.string() });
/** A call that has no answer here: it always refuses, naming what it needs (a provider none is built in for). */
export const Refused = z.never();

/** A bot's voice for its chats: the draft's (members of its space) or the published bot's. */
export const DraftBotVoice = defineEndpoint({
  method: 'POST',
  path: '/api/bot_voice/draft',
  summary: "The voice of a bot's draft (the editor's debug chat)",
  body: z.object({ bot_id: z.string().min(1).max(32) }),
  response: z.object({ voice: BotVoice.nullable() }),
});
export const PublishedBotVoice = defineEndpoint({
  method: 'POST',
  path: '/api/bot_voice/published',
  summary: 'The voice of a published bot (its chat page)',
  body: z.object({ bot_id: z.string().min(1).max(32) }),
  response: z.object({ voice: BotVoice.nullable() }),
});
