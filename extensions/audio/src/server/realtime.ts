// Coze's realtime speech and transcription over WebSocket (`@coze/api` `websockets.audio.speech` and
// `.transcriptions`): JSON events `{ id, event_type, data, detail }`. Speech: `speech.update` sets the output (PCM at a
// sample rate, a voice, a rate from -50 to 100), `input_text_buffer.append` adds text, `input_text_buffer.complete`
// speaks it as `speech.audio.update` chunks of base64 PCM, then `speech.audio.completed`. Transcription:
// `transcriptions.update` sets the input (PCM or WAV, its rate, channels, depth), `input_audio_buffer.append` adds
// base64 audio, `input_audio_buffer.complete` transcribes it (`transcriptions.message.update`, then `.completed`),
// `input_audio_buffer.clear` drops it.
import { messageOf } from '@tessera/sdk';
import type { Caller, ServerContext, SocketConnection } from '@tessera/sdk/server';
import { openApiSpace, SpacesService } from '@tessera/ext-spaces/shared';
import { z } from 'zod';
import type { Audio } from '../shared/index.ts';

const PERMISSION = 'audio.use';
/** Audio sent back in pieces of this many milliseconds (as Coze's service streams it). */
const CHUNK_MS = 100;
/** The most audio a transcription buffer holds (25 MB, as an upload). */
const MAX_BUFFER = 25 * 1024 * 1024;
const MAX_TEXT = 1024;

interface ClientEvent {
  id?: string;
  event_type?: string;
  data?: Record<string, unknown>;
}

function sender(conn: SocketConnection, ctx: ServerContext, logId: string) {
  return (event_type: string, data?: unknown) =>
    conn.send({ id: ctx.host.newId(), event_type, ...(data !== undefined ? { data } : {}), detail: { logid: logId } });
}
const read = (text: string): ClientEvent | undefined => {
  try {
    const v = JSON.parse(text) as ClientEvent;
    return v && typeof v === 'object' ? v : undefined;
  } catch {
    return undefined;
  }
};

export function registerRealtime(ctx: ServerContext, audio: Audio): void {
  /** The space the socket works in; a refusal is said on the socket, which is then closed. */
  const spaceOrClose = (
    conn: SocketConnection,
    say: ReturnType<typeof sender>,
    caller: Caller | undefined,
    asked: string | undefined,
  ) =>
    openApiSpace(ctx.service(SpacesService), caller!, asked, PERMISSION).catch((e: { msg?: string }) => {
      say('error', { code: 4003, msg: e.msg ?? String(e) });
      conn.close(1008, 'forbidden');
      return undefined;
    });
  const Query = z.object({
    space_id: z.string().max(32).optional(),
    entity_type: z.string().optional(),
    entity_id: z.string().optional(),
  });

  ctx.websocket({
    path: '/v1/audio/speech',
    auth: 'user',
    permission: PERMISSION,
    summary: 'Realtime text to speech: text in, base64 PCM audio out (Coze’s websockets.audio.speech)',
    query: Query,
    async handler(conn, req) {
      const say = sender(conn, ctx, req.logId);
      const spaceId = await spaceOrClose(conn, say, req.caller, req.query.space_id);
      if (!spaceId) return;
      const output = { codec: 'pcm', pcm_config: { sample_rate: 24000 }, speech_rate: 0, voice_id: '' };
      let text = '';
      say('speech.created');
      conn.onMessage(async (raw) => {
        const e = read(raw);
        if (!e?.event_type) return say('error', { code: 4000, msg: 'Send JSON events with an event_type.' });
        switch (e.event_type) {
          case 'speech.update': {
            const o = (e.data?.output_audio ?? {}) as Partial<typeof output>;
            if (o.codec && o.codec !== 'pcm')
              return say('error', { code: 4000, msg: `This studio speaks PCM over WebSocket, not ${o.codec}.` });
            Object.assign(output, {
              ...o,
              pcm_config: { sample_rate: Number(o.pcm_config?.sample_rate ?? output.pcm_config.sample_rate) },
            });
            return say('speech.updated', { output_audio: output });
          }
          case 'input_text_buffer.append':
            text += String(e.data?.delta ?? '');
            if (text.length > MAX_TEXT) {
              text = '';
              return say('error', { code: 4000, msg: `Speech is made of ${MAX_TEXT} characters at most.` });
            }
            return;
          case 'input_text_buffer.complete': {
            say('input_text_buffer.completed');
            const said = text;
            text = '';
            if (!said.trim()) return say('speech.audio.completed');
            try {
              const rate = Number(output.speech_rate) || 0;
              const r = await audio.speak({
                spaceId,
                voiceId: output.voice_id || undefined,
                text: said,
                format: 'pcm',
                speed: Math.max(0.5, Math.min(2, 1 + rate / 100)),
                sampleRate: output.pcm_config.sample_rate,
                signal: conn.signal,
              });
              const step = Math.max(2, Math.round((output.pcm_config.sample_rate * CHUNK_MS) / 1000) * 2);
              for (let i = 0; i < r.audio.length && !conn.signal.aborted; i += step)
                say('speech.audio.update', { delta: r.audio.subarray(i, i + step).toString('base64') });
              return say('speech.audio.completed');
            } catch (err) {
              return say('error', { code: 4000, msg: messageOf(err) });
            }
          }
          default:
            return say('error', { code: 4000, msg: `Unknown event ${e.event_type}.` });
        }
      });
    },
  });

  ctx.websocket({
    path: '/v1/audio/transcriptions',
    auth: 'user',
    permission: PERMISSION,
    summary: 'Realtime speech to text: base64 audio in, the transcript out (Coze’s websockets.audio.transcriptions)',
    query: Query,
    async handler(conn, req) {
      const say = sender(conn, ctx, req.logId);
      const spaceId = await spaceOrClose(conn, say, req.caller, req.query.space_id);
      if (!spaceId) return;
      const input = { format: 'pcm', codec: 'pcm', sample_rate: 24000, channel: 1, bit_depth: 16 };
      let parts: Buffer[] = [];
      let bytes = 0;
      say('transcriptions.created');
      conn.onMessage(async (raw) => {
        const e = read(raw);
        if (!e?.event_type) return say('error', { code: 4000, msg: 'Send JSON events with an event_type.' });
        switch (e.event_type) {
          case 'transcriptions.update': {
            const i = (e.data?.input_audio ?? {}) as Partial<typeof input>;
            if ((i.codec && i.codec !== 'pcm') || (i.format && !['pcm', 'wav'].includes(i.format)))
              return say('error', { code: 4000, msg: 'This studio transcribes PCM or WAV over WebSocket.' });
            if (i.bit_depth && i.bit_depth !== 16) return say('error', { code: 4000, msg: 'Send 16-bit audio.' });
            Object.assign(input, i);
            return say('transcriptions.updated', { input_audio: input });
          }
          case 'input_audio_buffer.append': {
            const chunk = Buffer.from(String(e.data?.delta ?? ''), 'base64');
            bytes += chunk.length;
            if (bytes > MAX_BUFFER) {
              parts = [];
              bytes = 0;
              return say('error', { code: 4000, msg: 'The audio buffer is full (25 MB): complete it sooner.' });
            }
            parts.push(chunk);
            return;
          }
          case 'input_audio_buffer.clear':
            parts = [];
            bytes = 0;
            return say('input_audio_buffer.cleared');
          case 'input_audio_buffer.complete': {
            say('input_audio_buffer.completed');
            const data = Buffer.concat(parts);
            parts = [];
            bytes = 0;
            try {
              const wav = input.format === 'wav';
              const { text } = await audio.transcribe({
                spaceId,
                audio: data,
                fileName: wav ? 'speech.wav' : 'speech.pcm',
                ...(wav ? {} : { pcm: { sampleRate: Number(input.sample_rate), channels: Number(input.channel) } }),
                signal: conn.signal,
              });
              say('transcriptions.message.update', { content: text });
              return say('transcriptions.message.completed', { content: text });
            } catch (err) {
              return say('error', { code: 4000, msg: messageOf(err) });
            }
          }
          default:
            return say('error', { code: 4000, msg: `Unknown event ${e.event_type}.` });
        }
      });
    },
  });
}
