// PCM audio in and out of WAV, resampled, and encoded as MP3 (lamejs, loaded on first use): what the embedded voice
// (espeak-ng, which writes 16-bit mono WAV) needs to answer in the formats the open API asks for.

export interface Pcm {
  /** 16-bit signed samples, mono. */
  samples: Int16Array;
  sampleRate: number;
}

/** Reads a 16-bit PCM WAV (mono, or the first channel of several). */
export function readWav(buf: Buffer): Pcm {
  if (buf.length < 12 || buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE')
    throw new Error('not a WAV file');
  let off = 12;
  let channels = 1;
  let sampleRate = 0;
  let bits = 16;
  while (off + 8 <= buf.length) {
    const id = buf.toString('ascii', off, off + 4);
    // espeak-ng writes 0x7fffffff as the data size when it streams to stdout: the rest of the file is the data.
    let size = buf.readUInt32LE(off + 4);
    const body = off + 8;
    if (id === 'fmt ') {
      channels = buf.readUInt16LE(body + 2);
      sampleRate = buf.readUInt32LE(body + 4);
      bits = buf.readUInt16LE(body + 14);
    } else if (id === 'data') {
      if (bits !== 16) throw new Error(`a WAV of ${bits}-bit samples (16-bit expected)`);
      size = Math.min(size, buf.length - body);
      const frames = Math.floor(size / (2 * channels));
      const samples = new Int16Array(frames);
      for (let i = 0; i < frames; i++) samples[i] = buf.readInt16LE(body + i * 2 * channels);
      return { samples, sampleRate };
    }
    off = body + size + (size % 2);
  }
  throw new Error('a WAV file without data');
}

/** A 16-bit mono WAV of the samples. */
export function writeWav(p: Pcm): Buffer {
  const data = Buffer.from(p.samples.buffer, p.samples.byteOffset, p.samples.byteLength);
  const head = Buffer.alloc(44);
  head.write('RIFF', 0, 'ascii');
  head.writeUInt32LE(36 + data.length, 4);
  head.write('WAVE', 8, 'ascii');
  head.write('fmt ', 12, 'ascii');
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20);
  head.writeUInt16LE(1, 22);
  head.writeUInt32LE(p.sampleRate, 24);
  head.writeUInt32LE(p.sampleRate * 2, 28);
  head.writeUInt16LE(2, 32);
  head.writeUInt16LE(16, 34);
  head.write('data', 36, 'ascii');
  head.writeUInt32LE(data.length, 40);
  return Buffer.concat([head, data]);
}

/** The samples at another rate (linear interpolation: speech, not music). */
export function resample(p: Pcm, rate: number): Pcm {
  if (rate === p.sampleRate || !p.samples.length) return { samples: p.samples, sampleRate: rate };
  const n = Math.max(1, Math.round((p.samples.length * rate) / p.sampleRate));
  const out = new Int16Array(n);
  const step = p.sampleRate / rate;
  for (let i = 0; i < n; i++) {
    const x = i * step;
    const j = Math.floor(x);
    const a = p.samples[Math.min(j, p.samples.length - 1)];
    const b = p.samples[Math.min(j + 1, p.samples.length - 1)];
    out[i] = Math.round(a + (b - a) * (x - j));
  }
  return { samples: out, sampleRate: rate };
}

/** MPEG-1/2 Layer III at a rate it has (the nearest of 8 000 to 48 000), 64 kbit/s mono. */
export async function encodeMp3(p: Pcm): Promise<Buffer> {
  const RATES = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000];
  const rate = RATES.reduce((best, r) => (Math.abs(r - p.sampleRate) < Math.abs(best - p.sampleRate) ? r : best));
  const pcm = resample(p, rate);
  const { Mp3Encoder } = await import('@breezystack/lamejs');
  const enc = new Mp3Encoder(1, rate, 64);
  const parts: Uint8Array[] = [];
  for (let i = 0; i < pcm.samples.length; i += 1152) {
    const chunk = enc.encodeBuffer(pcm.samples.subarray(i, i + 1152));
    if (chunk.length) parts.push(chunk);
  }
  const end = enc.flush();
  if (end.length) parts.push(end);
  return Buffer.concat(parts.map((c) => Buffer.from(c.buffer, c.byteOffset, c.length)));
}

/** Seconds of audio. */
export const durationOf = (p: Pcm) => p.samples.length / p.sampleRate;
