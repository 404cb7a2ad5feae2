import { describeError } from '@tessera/sdk';
import { gunzipSync, gzipSync } from 'node:zlib';

/** A tarball that cannot be installed; the message says why. */
export class TarballError extends Error {}

export interface TarballLimits {
  maxBytes: number;
  maxFiles: number;
}

/**
 * The regular files of a gzipped tar (an `npm pack` tarball), by path with the leading `package/`
 * removed. Links, devices and anything that would land outside the package (absolute paths, `..`)
 * are refused; so is more than `maxBytes` unpacked or `maxFiles` files.
 */
export function readTarball(
  gz: Uint8Array,
  limits: TarballLimits = { maxBytes: 50 * 1024 * 1024, maxFiles: 5000 },
): Map<string, Buffer> {
  let tar: Buffer;
  try {
    tar = gunzipSync(gz, { maxOutputLength: limits.maxBytes + 1024 * 1024 });
  } catch (e) {
    throw new TarballError(`The file is not a gzipped tarball (.tgz): ${describeError(e)}`);
  }
  const files = new Map<string, Buffer>();
  let total = 0;
  let paxPath: string | undefined;
  let longName: string | undefined;
  for (let at = 0; at + 512 <= tar.length;) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const field = (from: number, len: number) =>
      header
        .subarray(from, from + len)
        .toString('utf8')
        .replace(/\0.*$/s, '');
    const size = parseInt(field(124, 12).trim() || '0', 8);
    if (!Number.isFinite(size) || size < 0) throw new TarballError('The tarball has a damaged header.');
    const type = String.fromCharCode(header[156] || 48);
    const body = tar.subarray(at + 512, at + 512 + size);
    at += 512 + Math.ceil(size / 512) * 512;
    if (type === 'x') {
      // A pax header: a long path for the next entry.
      const m = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(body.toString('utf8'));
      paxPath = m?.[1];
      continue;
    }
    if (type === 'g') continue;
    if (type === 'L') {
      longName = body.toString('utf8').replace(/\0.*$/s, '');
      continue;
    }
    const prefix = field(345, 155);
    const name = paxPath ?? longName ?? (prefix ? `${prefix}/${field(0, 100)}` : field(0, 100));
    paxPath = longName = undefined;
    if (type === '5') continue;
    if (type !== '0' && type !== '7')
      throw new TarballError(`The tarball holds '${name}', which is not a plain file (links are not installed).`);
    const parts = name.split('/').filter((p) => p && p !== '.');
    if (name.startsWith('/') || parts.includes('..'))
      throw new TarballError(`The tarball holds '${name}', a path outside the package.`);
    const inner = parts[0] === 'package' ? parts.slice(1) : parts;
    if (!inner.length) continue;
    total += size;
    if (total > limits.maxBytes)
      throw new TarballError(`The package unpacks to more than ${Math.round(limits.maxBytes / 1024 / 1024)} MB.`);
    if (files.size >= limits.maxFiles) throw new TarballError(`The package has more than ${limits.maxFiles} files.`);
    files.set(inner.join('/'), Buffer.from(body));
  }
  return files;
}

/** A gzipped tar of these files under `package/` (what npm pack writes), for tests and tools. */
export function writeTarball(files: Record<string, string | Uint8Array>): Buffer {
  const blocks: Buffer[] = [];
  for (const [name, content] of Object.entries(files)) {
    const data = Buffer.from(content);
    const header = Buffer.alloc(512);
    header.write(`package/${name}`.slice(0, 100), 0);
    header.write('0000644\0', 100);
    header.write('0000000\0', 108);
    header.write('0000000\0', 116);
    header.write(data.length.toString(8).padStart(11, '0') + '\0', 124);
    header.write('00000000000\0', 136);
    header.write('        ', 148);
    header.write('0', 156);
    header.write('ustar\0', 257);
    header.write('00', 263);
    let sum = 0;
    for (const b of header) sum += b;
    header.write(sum.toString(8).padStart(6, '0') + '\0 ', 148);
    blocks.push(header, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}
