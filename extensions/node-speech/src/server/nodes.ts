// Speech nodes: text to speech (70) stores the audio as a file of the space and gives its URL; speech to text (71)
// reads a file of the space (or a URL, fetched through the outbound guard) and gives what was said.
import type { NodeRunContext, NodeTypeDefinition } from '@tessera/workflow-sdk';
import type { OutboundHttp } from '@tessera/sdk/server';
import type { Audio } from '@tessera/ext-audio/shared';
import type { Files } from '@tessera/ext-files/shared';
import { z } from 'zod';

export const SpeakSettings = z.object({
  /** A voice of the space (`<provider>:<voice>`); empty: the space's first. */
  voice_id: z.string().max(200).default(''),
  format: z.enum(['mp3', 'wav']).default('mp3'),
  speed: z.number().min(0.2).max(3).default(1),
});
export const ListenSettings = z.object({ language: z.string().max(16).default('') });

/** The largest audio a node transcribes. */
const MAX_AUDIO = 25 * 1024 * 1024;
const label = (en: string, zh: string) => ({ 'en-US': en, 'zh-CN': zh });
const text = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));

/** A file of the space or an http(s) URL, as a node input may give it (a file id, `{ file_id }`, `{ url }`). */
function refOf(v: unknown): string {
  if (v && typeof v === 'object') {
    const o = v as { file_id?: string; id?: string; url?: string };
    return text(o.file_id ?? o.id ?? o.url).trim();
  }
  return text(v).trim();
}

export function speechNodes(deps: {
  audio: () => Audio;
  files: () => Files;
  outbound: () => OutboundHttp;
}): NodeTypeDefinition[] {
  const audioOf = async (ctx: NodeRunContext, ref: string): Promise<{ bytes: Buffer; name: string }> => {
    if (/^\d{6,32}$/.test(ref)) {
      const f = await deps.files().info(ref);
      if (!f || f.space_id !== ctx.spaceId) throw new Error(`The file ${ref} is not in this space (was it deleted?).`);
      return { bytes: await deps.files().read(ref), name: f.file_name };
    }
    if (!/^https?:\/\//i.test(ref)) throw new Error('Give the node an audio file or its URL in its input "audio".');
    const res = await deps.outbound().fetch(ref, { signal: ctx.signal });
    if (!res.ok) throw new Error(`The audio at ${ref} could not be read (HTTP ${res.status}).`);
    const bytes = Buffer.from(await res.arrayBuffer());
    if (bytes.length > MAX_AUDIO) throw new Error(`The audio is larger than ${MAX_AUDIO / 1024 / 1024} MB.`);
    return { bytes, name: new URL(ref).pathname.split('/').pop() || 'audio' };
  };
  return [
    {
      key: 'speech_synthesis',
      code: 70,
      category: 'ai',
      label: label('Text to speech', '语音合成'),
      description: label(
        'Speaks the text in a voice of the space and gives the audio as a file.',
        '用空间的音色朗读文本，生成音频文件。',
      ),
      settings: SpeakSettings,
      outputsOf: () => [
        { name: 'audio', type: 'string' },
        { name: 'file_id', type: 'string' },
        { name: 'duration', type: 'number' },
      ],
      async execute(ctx) {
        const s = ctx.settings as z.infer<typeof SpeakSettings>;
        const said = text(ctx.inputs.text ?? ctx.inputs.input);
        if (!said.trim()) throw new Error('Give the node the text to speak in its input "text".');
        const r = await deps.audio().speak({
          spaceId: ctx.spaceId,
          voiceId: s.voice_id || undefined,
          text: said,
          format: s.format,
          speed: s.speed,
          signal: ctx.signal,
        });
        const file = await deps.files().put({
          spaceId: ctx.spaceId,
          userId: ctx.userId,
          fileName: `speech.${r.format}`,
          data: r.audio,
        });
        ctx.log(`${r.voice_id}: ${r.audio.length} bytes${r.duration ? `, ${r.duration.toFixed(1)} s` : ''}`);
        return {
          outputs: { audio: await deps.files().url(file.id), file_id: file.id, duration: r.duration ?? 0 },
        };
      },
    },
    {
      key: 'speech_recognition',
      code: 71,
      category: 'ai',
      label: label('Speech to text', '语音识别'),
      description: label(
        'Transcribes an audio file (or its URL) with the space’s transcription model.',
        '用空间的语音识别模型把音频文件（或链接）转为文字。',
      ),
      settings: ListenSettings,
      outputsOf: () => [{ name: 'text', type: 'string' }],
      async execute(ctx) {
        const s = ctx.settings as z.infer<typeof ListenSettings>;
        const ref = refOf(ctx.inputs.audio ?? ctx.inputs.file);
        if (!ref) throw new Error('Give the node an audio file or its URL in its input "audio".');
        const a = await audioOf(ctx, ref);
        const r = await deps.audio().transcribe({
          spaceId: ctx.spaceId,
          audio: a.bytes,
          fileName: a.name,
          language: s.language || undefined,
          signal: ctx.signal,
        });
        return { outputs: { text: r.text } };
      },
    },
  ];
}
