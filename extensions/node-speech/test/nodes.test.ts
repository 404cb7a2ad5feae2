import { describe, expect, it } from 'vitest';
import { runNodeType } from '@tessera/workflow-sdk/testing';
import type { Audio } from '@tessera/ext-audio/shared';
import type { Files, FileInfo } from '@tessera/ext-files/shared';
import type { OutboundHttp } from '@tessera/sdk/server';
import { speechNodes } from '../src/server/nodes.ts';

// The speech nodes alone, with stand-ins for the space's voices, files and the outbound guard: text spoken into a file
// of the space; a file of the space (and not of another) or a URL heard; what the node needs, said.
const stored: { name: string; bytes: number }[] = [];
const audio: Audio = {
  voices: async () => [],
  speak: async (r) => ({
    audio: Buffer.from(`spoken:${r.text}`),
    format: r.format ?? 'mp3',
    voice_id: r.voiceId ?? 'x:y',
    duration: 1.5,
  }),
  canTranscribe: async () => true,
  transcribe: async (r) => ({ text: `heard ${r.audio.length} bytes of ${r.fileName}` }),
};
const info = (id: string, space: string): FileInfo => ({
  id,
  space_id: space,
  file_name: 'note.wav',
  mime: 'audio/wav',
  ext: 'wav',
  kind: 2,
  bytes: 4,
  sha256: '',
  creator_id: 'u',
  created_at: 0,
});
const files = {
  put: async (f: { fileName: string; data: Uint8Array }) => {
    stored.push({ name: f.fileName, bytes: f.data.length });
    return info('1000001', 'test-space');
  },
  info: async (id: string) =>
    id === '1000001' ? info(id, 'test-space') : id === '2000002' ? info(id, 'other') : undefined,
  read: async () => Buffer.from('WAVE'),
  url: async (id: string) => `http://studio/files/${id}`,
} as unknown as Files;
const outbound = {
  fetch: async (url: string) =>
    new Response(url.includes('ok') ? 'ABCDEFGH' : 'no', { status: url.includes('ok') ? 200 : 404 }),
} as unknown as OutboundHttp;
const [speak, listen] = speechNodes({ audio: () => audio, files: () => files, outbound: () => outbound });

describe('the speech nodes alone', () => {
  it('speaks the text into a file of the space', async () => {
    const r = await runNodeType(speak, {
      settings: { voice_id: 'espeak:en-us', format: 'wav' },
      inputs: { text: 'Hi' },
    });
    expect(r.outputs).toEqual({ audio: 'http://studio/files/1000001', file_id: '1000001', duration: 1.5 });
    expect(stored.at(-1)).toEqual({ name: 'speech.wav', bytes: 'spoken:Hi'.length });
    await expect(runNodeType(speak, { inputs: { text: '  ' } })).rejects.toThrow(/text to speak/);
  });

  it('hears a file of the space or a URL, and not another space’s file', async () => {
    expect((await runNodeType(listen, { inputs: { audio: '1000001' } })).outputs).toEqual({
      text: 'heard 4 bytes of note.wav',
    });
    expect((await runNodeType(listen, { inputs: { audio: { url: 'https://x.test/ok.wav' } } })).outputs?.text).toBe(
      'heard 8 bytes of ok.wav',
    );
    await expect(runNodeType(listen, { inputs: { audio: '2000002' } })).rejects.toThrow(/not in this space/);
    await expect(runNodeType(listen, { inputs: { audio: 'https://x.test/missing.wav' } })).rejects.toThrow(/HTTP 404/);
    await expect(runNodeType(listen, { inputs: {} })).rejects.toThrow(/audio file or its URL/);
  });
});
