// Ogg Opus (RFC 7845) from 16-bit mono PCM: libopus (opusscript, WebAssembly) encodes 20 ms frames, written here into
// Ogg pages (RFC 3533) after the OpusHead and OpusTags headers. What `/v1/audio/speech` answers for ogg and opus.
import type { Pcm } from './wav.ts';

const OPUS_RATES = [8000, 12000, 16000, 24000, 48000] as const;
/** libopus's lookahead at 48 kHz (2.5 ms + 4 ms): what players skip at the start. */
const PRE_SKIP = 312;

let table: Uint32Array | undefined;
/** Ogg's CRC-32: polynomial 0x04c11db7, not reflected, starting at 0. */
function crc(bytes: Uint8Array): number {
  if (!table) {
    table = new Uint32Array(256);
    for (let i = 0; i < 256; i++) {
      let r = i << 24;
      for (let j = 0; j < 8; j++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
      table[i] = r >>> 0;
    }
  }
  let c = 0;
  for (const b of bytes) c = ((c << 8) ^ table[((c >>> 24) ^ b) & 0xff]) >>> 0;
  return c;
}

/** One Ogg page holding these packets (whole: each ends on the page). */
function page(packets: Uint8Array[], o: { serial: number; seq: number; granule: bigint; flags: number }): Buffer {
  const lacing: number[] = [];
  for (const p of packets) {
    for (let n = p.length; n >= 255; n -= 255) lacing.push(255);
    lacing.push(p.length % 255);
  }
  const head = Buffer.alloc(27 + lacing.length);
  head.write('OggS', 0, 'latin1');
  head[4] = 0;
  head[5] = o.flags;
  head.writeBigInt64LE(o.granule, 6);
  head.writeUInt32LE(o.serial, 14);
  head.writeUInt32LE(o.seq, 18);
  head[26] = lacing.length;
  lacing.forEach((l, i) => (head[27 + i] = l));
  const out = Buffer.concat([head, ...packets]);
  out.writeUInt32LE(crc(out), 22);
  return out;
}

export async function encodeOggOpus(p: Pcm): Promise<Buffer> {
  const { resample } = await import('./wav.ts');
  const rate = OPUS_RATES.find((r) => r >= p.sampleRate) ?? 48000;
  const pcm = resample(p, rate);
  const { default: OpusScript } = await import('opusscript');
  const encoder = new OpusScript(rate, 1, OpusScript.Application.VOIP);
  const frame = rate / 50;
  const scale = 48000 / rate;
  const serial = (Math.random() * 0xffffffff) >>> 0;
  const opusHead = Buffer.alloc(19);
  opusHead.write('OpusHead', 0, 'latin1');
  opusHead[8] = 1;
  opusHead[9] = 1;
  opusHead.writeUInt16LE(PRE_SKIP, 10);
  opusHead.writeUInt32LE(p.sampleRate, 12);
  const vendor = Buffer.from('Tessera Studio (libopus)');
  const opusTags = Buffer.alloc(8 + 4 + vendor.length + 4);
  opusTags.write('OpusTags', 0, 'latin1');
  opusTags.writeUInt32LE(vendor.length, 8);
  vendor.copy(opusTags, 12);
  const pages = [
    page([opusHead], { serial, seq: 0, granule: 0n, flags: 0x02 }),
    page([opusTags], { serial, seq: 1, granule: 0n, flags: 0 }),
  ];
  try {
    const frames = Math.max(1, Math.ceil(pcm.samples.length / frame));
    let batch: Uint8Array[] = [];
    let segments = 0;
    for (let i = 0; i < frames; i++) {
      const chunk = new Int16Array(frame);
      chunk.set(pcm.samples.subarray(i * frame, (i + 1) * frame));
      const packet = Uint8Array.from(encoder.encode(Buffer.from(chunk.buffer), frame));
      batch.push(packet);
      segments += Math.floor(packet.length / 255) + 1;
      const last = i === frames - 1;
      if (last || segments > 200) {
        // The last page's granule ends the audio where the samples end (the padding of its frame is cut).
        const granule = last
          ? BigInt(PRE_SKIP + Math.round(pcm.samples.length * scale))
          : BigInt(PRE_SKIP + (i + 1) * frame * scale);
        pages.push(page(batch, { serial, seq: pages.length, granule, flags: last ? 0x04 : 0 }));
        batch = [];
        segments = 0;
      }
    }
  } finally {
    encoder.delete();
  }
  return Buffer.concat(pages);
}
