// 16-bit PCM (interleaved channels) as a mono WAV of its first channel: what a transcription model is sent.
export function writeWavPcm(data: Buffer, rate: number, channels: number): Buffer {
  const frames = Math.floor(data.length / (2 * Math.max(1, channels)));
  const body = Buffer.alloc(frames * 2);
  for (let i = 0; i < frames; i++) body.writeInt16LE(data.readInt16LE(i * 2 * channels), i * 2);
  const head = Buffer.alloc(44);
  head.write('RIFF', 0, 'ascii');
  head.writeUInt32LE(36 + body.length, 4);
  head.write('WAVEfmt ', 8, 'ascii');
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20);
  head.writeUInt16LE(1, 22);
  head.writeUInt32LE(rate, 24);
  head.writeUInt32LE(rate * 2, 28);
  head.writeUInt16LE(2, 32);
  head.writeUInt16LE(16, 34);
  head.write('data', 36, 'ascii');
  head.writeUInt32LE(body.length, 40);
  return Buffer.concat([head, body]);
}
