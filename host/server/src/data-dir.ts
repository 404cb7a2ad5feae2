import { closeSync, fsyncSync, mkdirSync, openSync, statfsSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { fieldOf } from '@tessera/sdk';

/** The data folder cannot be used; the message names the folder and the cause. */
export class DataDirError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataDirError';
  }
}

/** Below this much free space the studio refuses to start (SQLite and the write-ahead log need room). */
export const MIN_FREE_BYTES = 16 * 1024 * 1024;

const CAUSES: Record<string, string> = {
  EROFS: 'it is on a read-only file system',
  EACCES: 'this user may not write there',
  EPERM: 'this user may not write there',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EEXIST: 'a file of that name is in the way',
};

/** Why an error from the file system means the folder is unusable, in words a person acts on. */
export function dataDirCause(err: unknown): string {
  const code = fieldOf(err, 'code');
  const known = typeof code === 'string' ? CAUSES[code] : undefined;
  return known ?? `${typeof code === 'string' ? code : 'error'}: ${String(fieldOf(err, 'message') ?? err)}`;
}

/**
 * Checks at start that the data folder exists (or can be made), can be written and has room: a small
 * file is written, synced and removed. Throws DataDirError naming the folder and the cause.
 */
export function checkDataDir(dir: string, minFreeBytes = MIN_FREE_BYTES): void {
  const fail = (err: unknown) =>
    new DataDirError(
      `The data folder ${dir} cannot be used: ${dataDirCause(err)}. Choose another with --data DIR (or TESSERA_DATA_DIR), or fix the folder.`,
    );
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw fail(e);
  }
  const probe = path.join(dir, `.write-check-${process.pid}`);
  try {
    const fd = openSync(probe, 'w');
    try {
      writeSync(fd, Buffer.alloc(4096));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    throw fail(e);
  } finally {
    try {
      unlinkSync(probe);
    } catch {
      /* never written */
    }
  }
  const fs = statfsSync(dir);
  const free = Number(fs.bavail) * Number(fs.bsize);
  if (free < minFreeBytes) {
    throw new DataDirError(
      `The data folder ${dir} cannot be used: the disk is full (${Math.round(free / 1024)} KB free; at least ${Math.round(minFreeBytes / 1024 / 1024)} MB are needed). Free some space or choose another folder with --data DIR.`,
    );
  }
}
