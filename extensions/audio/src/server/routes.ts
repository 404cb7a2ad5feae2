// The audio routes: Coze's open API (`/v1/audio/voices`, `speech`, `transcriptions`; `voices/clone`, `rooms` and
// voiceprints answer what is missing unless a provider has them) and the studio's own (`/api/audio/...`, for the
// Voices page, a bot's read-aloud and the microphone).
import { receiveFiles, type ApiReply, type ApiRequest, type Caller, type ServerContext } from '@tessera/sdk/server';
import { SpacesService, openApiSpace } from '@tessera/ext-spaces/shared';
import { z } from 'zod';
import {
  ListVoices,
  OpenVoices,
  Refused,
  RoomAnswer,
  TranscriptAnswer,
  MIME,
  RoomProviders,
  SPEECH_FORMATS,
  type Audio,
  type SpeechFormat,
  type VoiceInfo,
} from '../shared/index.ts';
import { texts } from './texts.ts';

/** What the speech routes answer: the audio, in the format asked. */
const SPEECH_TYPES = [...new Set(Object.values(MIME))];

const Id = z.string().min(1).max(32);
/** The largest audio file transcribed (OpenAI's limit). */
const MAX_AUDIO = 25 * 1024 * 1024;
const PERMISSION = 'audio.use';

const Speech = {
  input: z.string().min(1, 'Give the text to speak (input).'),
  voice_id: z.string().max(200).optional(),
  response_format: z.enum(SPEECH_FORMATS).optional(),
  speed: z.number().min(0.2).max(3).optional(),
  sample_rate: z
    .union([
      z.literal(8000),
      z.literal(16000),
      z.literal(22050),
      z.literal(24000),
      z.literal(32000),
      z.literal(44100),
      z.literal(48000),
    ])
    .optional(),
  emotion: z.string().max(32).optional(),
  emotion_scale: z.number().min(1).max(5).optional(),
};

/** Coze's Voice, as `voices.list` returns it. */
const openVoice = (v: VoiceInfo) => ({
  voice_id: v.voice_id,
  name: v.name,
  language_code: v.language_code,
  language_name: v.language_name,
  preview_text: v.preview_text,
  preview_audio: '',
  is_system_voice: v.is_system_voice,
  available_training_times: 0,
  create_time: 0,
  update_time: 0,
});

export function registerRoutes(ctx: ServerContext, audio: Audio): void {
  /** The space an open-API call works in: the one it names, else the first of the owner's where the token may. */
  const openSpace = (caller: Caller, asked: string | undefined) =>
    openApiSpace(ctx.service(SpacesService), caller, asked, PERMISSION);
  /** Speech for a route: the audio itself, with its type. */
  const speakInto = async (
    reply: ApiReply,
    spaceId: string,
    body: { input: string; voice_id?: string; response_format?: SpeechFormat; speed?: number; sample_rate?: number },
    signal: AbortSignal,
  ) => {
    const r = await audio.speak({
      spaceId,
      voiceId: body.voice_id,
      text: body.input,
      format: body.response_format,
      speed: body.speed,
      sampleRate: body.sample_rate,
      signal,
    });
    reply.header('content-length', String(r.audio.length));
    reply.send(r.audio, MIME[r.format]);
  };
  /** The audio of an upload's first file, bounded. */
  const upload = async (req: ApiRequest) => {
    const { files } = await receiveFiles(req, 1, async (fileName, stream) => {
      const parts: Buffer[] = [];
      let bytes = 0;
      for await (const c of stream) {
        bytes += c.length;
        if (bytes > MAX_AUDIO) throw texts.error(400, 'tooBig', { max: String(MAX_AUDIO / 1024 / 1024) });
        parts.push(typeof c === 'string' ? Buffer.from(c) : c);
      }
      return { fileName, audio: Buffer.concat(parts) };
    });
    return files[0];
  };

  // ---------------------------------------------------------------- the open API
  ctx.route({
    method: 'GET',
    path: '/v1/audio/voices',
    response: OpenVoices,
    auth: 'user',
    permission: PERMISSION,
    summary: 'The voices of the space (the embedded one, its speech models’ ...), paged',
    query: z.object({
      space_id: Id.optional(),
      filter_system_voice: z.enum(['true', 'false']).optional(),
      model_type: z.enum(['big', 'small']).optional(),
      page_num: z.coerce.number().int().min(1).default(1),
      page_size: z.coerce.number().int().min(1).max(100).default(100),
    }),
    handler: async ({ query, caller }) => {
      const spaceId = await openSpace(caller!, query.space_id);
      const all = (await audio.voices(spaceId)).filter(
        (v) => query.filter_system_voice !== 'true' || !v.is_system_voice,
      );
      const start = (query.page_num - 1) * query.page_size;
      return {
        voice_list: all.slice(start, start + query.page_size).map(openVoice),
        has_more: start + query.page_size < all.length,
      };
    },
  });
  ctx.route({
    method: 'POST',
    path: '/v1/audio/speech',
    produces: SPEECH_TYPES,
    auth: 'user',
    permission: PERMISSION,
    summary: 'Text to speech in a voice of the space: the audio itself (mp3 unless another format is asked)',
    body: z.object({ ...Speech, space_id: Id.optional() }),
    handler: async ({ body, caller, signal }, reply) =>
      speakInto(reply, await openSpace(caller!, body.space_id), body, signal),
  });
  ctx.route({
    method: 'POST',
    path: '/v1/audio/transcriptions',
    response: TranscriptAnswer,
    auth: 'user',
    permission: PERMISSION,
    upload: true,
    summary: 'Speech to text: an audio file (multipart, field "file") transcribed by the space’s transcription model',
    query: z.object({ space_id: Id.optional() }),
    handler: async (req) => {
      const spaceId = await openSpace(req.caller!, req.query.space_id);
      const f = await upload(req);
      return audio.transcribe({ spaceId, audio: f.audio, fileName: f.fileName, signal: req.signal });
    },
  });
  ctx.route({
    method: 'POST',
    path: '/v1/audio/voices/clone',
    response: Refused,
    auth: 'user',
    permission: PERMISSION,
    upload: true,
    summary: 'Clone a voice from a recording (needs a speech provider that clones; none is built in)',
    handler: async (req) => {
      req.stream?.resume();
      throw texts.error(400, 'noClone');
    },
  });
  ctx.route({
    method: 'POST',
    path: '/v1/audio/rooms',
    response: RoomAnswer,
    auth: 'user',
    permission: PERMISSION,
    summary: 'A voice room with a bot (needs a room provider: an RTC service; none is built in)',
    body: z.object({
      bot_id: Id,
      voice_id: z.string().max(200).optional(),
      conversation_id: Id.optional(),
      connector_id: z.string().max(32).optional(),
      uid: z.string().max(200).optional(),
    }),
    handler: async ({ body, caller }) => {
      const provider = ctx.registry(RoomProviders).list()[0];
      if (!provider) throw texts.error(400, 'noRooms');
      const spaceId = await openSpace(caller!, undefined);
      return provider.create({
        spaceId,
        userId: caller!.userId,
        botId: body.bot_id,
        voiceId: body.voice_id,
        conversationId: body.conversation_id,
      });
    },
  });
  for (const method of ['GET', 'POST', 'PUT', 'DELETE'] as const)
    for (const path of ['/v1/audio/voiceprint_groups', '/v1/audio/voiceprint_groups/*'])
      ctx.route({
        method,
        path,
        auth: 'user',
        upload: method === 'POST' || method === 'PUT',
        response: Refused,
        summary:
          'Voiceprint groups, features and speaker identification (need a provider that has them; none is built in)',
        handler: async (req) => {
          req.stream?.resume();
          throw texts.error(400, 'noVoiceprint');
        },
      });

  // ---------------------------------------------------------------- the studio's own
  const inSpace = { space: { from: 'body' as const, field: 'space_id' } };
  ctx.route({
    ...ListVoices,
    auth: inSpace,
    handler: async ({ body }) => ({
      voices: await audio.voices(body.space_id),
      can_transcribe: await audio.canTranscribe(body.space_id),
    }),
  });
  ctx.route({
    method: 'POST',
    path: '/api/audio/speech',
    produces: SPEECH_TYPES,
    auth: inSpace,
    summary: 'Text to speech for the studio (read aloud, voice previews): the audio itself',
    body: z.object({ ...Speech, space_id: Id }),
    handler: ({ body, signal }, reply) => speakInto(reply, body.space_id, body, signal),
  });
  ctx.route({
    method: 'POST',
    path: '/api/audio/transcriptions',
    auth: { space: { from: 'query' as const, field: 'space_id' } },
    upload: true,
    summary: 'Speech to text for the studio (the microphone): an audio file (multipart, field "file")',
    response: TranscriptAnswer,
    query: z.object({ space_id: Id, language: z.string().max(16).optional() }),
    handler: async (req) => {
      const f = await upload(req);
      return audio.transcribe({
        spaceId: req.query.space_id,
        audio: f.audio,
        fileName: f.fileName,
        language: req.query.language,
        signal: req.signal,
      });
    },
  });
}
