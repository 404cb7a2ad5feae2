import { randomBytes } from 'node:crypto';

// 64-bit ids: 41 bits of milliseconds since 2026-01-01, 10 bits of worker, 12 bits of sequence.
const EPOCH = 1_767_225_600_000n;

export function createIdGenerator(worker = Number(process.env.TESSERA_WORKER_ID ?? process.pid % 1024)): () => string {
  let last = 0n;
  let seq = 0n;
  const w = BigInt(worker & 1023);
  return () => {
    let now = BigInt(Date.now());
    if (now === last) {
      seq = (seq + 1n) & 4095n;
      if (seq === 0n) while (now <= last) now = BigInt(Date.now());
    } else seq = 0n;
    last = now;
    return (((now - EPOCH) << 22n) | (w << 12n) | seq).toString();
  };
}

/** A log id: the time to the second plus 16 hex digits (a per-process random prefix and a counter), e.g. 20261121193012A1B2C3D4E5F60718. */
const LOG_PREFIX = randomBytes(3).toString('hex').toUpperCase();
let logCounter = 0;
let lastSecond = 0;
let stamp = '';
export function newLogId(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== lastSecond) {
    lastSecond = second;
    const d = new Date(now);
    const p = (n: number, l = 2) => String(n).padStart(l, '0');
    stamp = `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`;
  }
  logCounter = (logCounter + 1) % 0xffffffffff;
  return `${stamp}${LOG_PREFIX}${logCounter.toString(16).toUpperCase().padStart(10, '0')}`;
}
