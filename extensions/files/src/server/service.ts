// Files: the bytes stream to a temporary file (counted, hashed, the first bytes kept to judge the type),
// then to the object store; the row is written last, so a refused or broken upload leaves nothing behind.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  ApiError,
  ErrorCode,
  badRequest,
  forbidden,
  isUnreachableError,
  notFound,
  unavailable,
  describeError,
} from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { kindOf, type FileInfo, type Files, type ObjectStore, type PutFile } from '../shared/index.ts';
import { judgeContent } from './content.ts';

export interface FilesSettings {
  maxFileBytes: number;
  spaceQuotaBytes: number;
  urlTtlSec: number;
}

export interface FileRow {
  id: string;
  space_id: string;
  file_name: string;
  mime: string;
  ext: string;
  kind: number;
  bytes: number;
  sha256: string;
  storage_key: string;
  creator_id: string;
  created_at: string;
}

const HEAD_BYTES = 4100;
export const mb = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;

export const infoOf = (r: FileRow): FileInfo => ({
  id: r.id,
  space_id: r.space_id,
  file_name: r.file_name,
  mime: r.mime,
  ext: r.ext,
  kind: Number(r.kind),
  bytes: Number(r.bytes),
  sha256: r.sha256,
  creator_id: r.creator_id,
  created_at: Math.floor(Date.parse(r.created_at) / 1000),
});

/** A call to the object store; a store that cannot be reached is a 503 naming it, not a 500. */
async function storeCall<T>(kind: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (!ApiError.is(e) && isUnreachableError(e))
      throw unavailable(`the file store (${kind})`, describeError(e).split('\n')[0].slice(0, 200));
    throw e;
  }
}

export function makeFiles(
  ctx: ServerContext<unknown>,
  settings: FilesSettings & { store?: string },
  store: () => Promise<ObjectStore>,
  signingKey: () => Promise<Buffer>,
): Files & {
  row(id: string): Promise<FileRow | undefined>;
  verify(id: string, exp: string, sig: string): Promise<boolean>;
  open(id: string): Promise<{ row: FileRow; stream: NodeJS.ReadableStream }>;
  used(spaceId: string): Promise<number>;
} {
  const row = async (id: string) =>
    (await ctx.db.selectFrom('files_file').selectAll().where('id', '=', id).executeTakeFirst()) as FileRow | undefined;
  const used = async (spaceId: string) =>
    Number(
      (await ctx.db.selectFrom('files_usage').select('bytes').where('space_id', '=', spaceId).executeTakeFirst())
        ?.bytes ?? 0,
    );
  /** Checks the quota and records the bytes in one statement: true when they fit. */
  const reserve = async (spaceId: string, bytes: number) => {
    await ctx.db
      .insertInto('files_usage')
      .values({ space_id: spaceId, bytes: 0 })
      .onConflict((oc) => oc.column('space_id').doNothing())
      .execute();
    const r = await ctx.db
      .updateTable('files_usage')
      .set((eb) => ({ bytes: eb('bytes', '+', bytes) }))
      .where('space_id', '=', spaceId)
      .where((eb) => eb(eb('bytes', '+', bytes), '<=', settings.spaceQuotaBytes))
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  };
  const release = (spaceId: string, bytes: number) =>
    ctx.db
      .updateTable('files_usage')
      .set((eb) => ({ bytes: eb('bytes', '-', bytes) }))
      .where('space_id', '=', spaceId)
      .execute();
  const kind = settings.store ?? 'local';
  const sign = async (id: string, exp: number) =>
    createHmac('sha256', await signingKey())
      .update(`${id}.${exp}`)
      .digest('base64url');

  const files = {
    row,
    used,
    async put(input: PutFile): Promise<FileInfo> {
      const fileName = path.basename(String(input.fileName || 'file').replace(/\\/g, '/')).slice(0, 255) || 'file';
      const id = ctx.host.newId();
      const tmpDir = path.join(ctx.host.dataDir, 'tmp');
      await mkdir(tmpDir, { recursive: true });
      const tmp = path.join(tmpDir, `upload-${id}`);
      const hash = createHash('sha256');
      let bytes = 0;
      const head: Buffer[] = [];
      let headLen = 0;
      const meter = new Transform({
        transform(chunk: Buffer, _enc, done) {
          bytes += chunk.length;
          if (bytes > settings.maxFileBytes)
            return done(
              new ApiError(
                413,
                ErrorCode.PAYLOAD_TOO_LARGE,
                `The file is larger than ${mb(settings.maxFileBytes)}, the most this studio takes.`,
              ),
            );
          hash.update(chunk);
          if (headLen < HEAD_BYTES) {
            head.push(chunk);
            headLen += chunk.length;
          }
          done(null, chunk);
        },
      });
      try {
        const source = input.data instanceof Uint8Array ? Readable.from([Buffer.from(input.data)]) : input.data;
        await pipeline(source, meter, createWriteStream(tmp));
        if (bytes === 0) throw badRequest('The file is empty.');
        const judged = await judgeContent(fileName, Buffer.concat(head).subarray(0, HEAD_BYTES));
        if (!(await reserve(input.spaceId, bytes))) {
          const usedNow = await used(input.spaceId);
          throw new ApiError(
            413,
            ErrorCode.PAYLOAD_TOO_LARGE,
            `This space has used ${mb(usedNow)} of its ${mb(settings.spaceQuotaBytes)} for files, and this file (${mb(bytes)}) does not fit; delete files it no longer needs, or ask an administrator for more.`,
          );
        }
        try {
          const key = `${input.spaceId}/${id}`;
          await storeCall(kind, async () => (await store()).putFile(key, tmp, bytes, judged.mime));
          const r: FileRow = {
            id,
            space_id: input.spaceId,
            file_name: fileName,
            mime: judged.mime,
            ext: judged.ext,
            kind: kindOf(judged.mime),
            bytes,
            sha256: hash.digest('hex'),
            storage_key: key,
            creator_id: input.userId,
            created_at: new Date().toISOString(),
          };
          await ctx.db.insertInto('files_file').values(r).execute();
          return infoOf(r);
        } catch (e) {
          await release(input.spaceId, bytes).catch(() => undefined);
          throw e;
        }
      } finally {
        await rm(tmp, { force: true });
      }
    },
    async info(id: string) {
      const r = await row(id);
      return r && infoOf(r);
    },
    async open(id: string) {
      const r = await row(id);
      if (!r) throw notFound(`There is no file ${id}.`);
      return { row: r, stream: await storeCall(kind, async () => (await store()).get(r.storage_key)) };
    },
    async read(id: string) {
      const { stream } = await files.open(id);
      const parts: Buffer[] = [];
      for await (const c of stream) parts.push(Buffer.from(c));
      return Buffer.concat(parts);
    },
    async url(id: string, opts?: { ttlSec?: number }) {
      const exp = Math.floor(Date.now() / 1000) + (opts?.ttlSec ?? settings.urlTtlSec);
      return `${ctx.host.publicUrl.replace(/\/$/, '')}/api/files/content/${id}?exp=${exp}&sig=${await sign(id, exp)}`;
    },
    async verify(id: string, exp: string, sig: string) {
      const e = Number(exp);
      if (!Number.isInteger(e) || e < Date.now() / 1000) return false;
      const want = Buffer.from(await sign(id, e));
      const got = Buffer.from(sig);
      return want.length === got.length && timingSafeEqual(want, got);
    },
    async resolve(ref: string, spaceId: string) {
      const value = String(ref ?? '').trim();
      if (/^https?:\/\//i.test(value)) return { url: value };
      const r = /^\d{1,32}$/.test(value) ? await row(value) : undefined;
      if (!r) throw badRequest(`"${value.slice(0, 80)}" is neither an uploaded file id nor an http(s) URL.`);
      if (r.space_id !== spaceId) throw forbidden(`The file ${value} belongs to another space.`);
      return { url: await files.url(r.id), file: infoOf(r) };
    },
    async remove(id: string) {
      const r = await row(id);
      if (!r) return;
      const gone = await ctx.db.deleteFrom('files_file').where('id', '=', id).executeTakeFirst();
      if (Number(gone.numDeletedRows) === 1) await release(r.space_id, Number(r.bytes));
      await (
        await store()
      )
        .delete(r.storage_key)
        .catch((e) => ctx.logger.warn(`file ${id}: its bytes could not be deleted from storage: ${describeError(e)}`));
    },
  };
  return files;
}
