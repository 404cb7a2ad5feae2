// The files API: uploads (multipart, streamed), details, signed downloads, deletion, and Coze's open API
// /v1/files/upload and /v1/files/retrieve.
import { forbidden, notFound } from '@tessera/sdk';
import { receiveFiles, type Caller, type ServerContext } from '@tessera/sdk/server';
import { SpacesService, openApiSpace } from '@tessera/ext-spaces/shared';
import { z } from 'zod';
import { DeleteFile, GetFile, ListFiles, OpenRetrieveFile, OpenUploadFile, UploadFiles } from '../shared/api.ts';
import type { FileInfo } from '../shared/index.ts';
import { infoOf, type FilesSettings, type makeFiles } from './service.ts';

const Id = z.string().min(1).max(32);
const SAFE_INLINE = /^(image\/(png|jpeg|gif|webp|bmp|avif)|application\/pdf|audio\/|video\/|text\/plain)/;

export function registerRoutes(
  ctx: ServerContext<unknown>,
  files: ReturnType<typeof makeFiles>,
  settings: FilesSettings,
) {
  const withUrl = async (f: FileInfo) => ({ ...f, url: await files.url(f.id) });
  const inSpace = (id: string, spaceId: string) =>
    files.row(id).then((r) => {
      if (!r || r.space_id !== spaceId) throw notFound(`There is no file ${id} in this space.`);
      return r;
    });

  ctx.route({
    ...UploadFiles,
    auth: { space: { from: 'query', field: 'space_id' } },
    upload: true,
    handler: async (req) => {
      const { files: stored } = await receiveFiles(req, 20, (fileName, stream) =>
        files.put({ spaceId: req.query.space_id, userId: req.caller!.userId, fileName, data: stream }),
      );
      return { files: await Promise.all(stored.map(withUrl)) };
    },
  });

  ctx.route({
    ...ListFiles,
    auth: { space: { from: 'body', field: 'space_id' } },
    handler: async ({ body }) => {
      let q = ctx.db.selectFrom('files_file').where('space_id', '=', body.space_id);
      if (body.kind !== undefined) q = q.where('kind', '=', body.kind);
      const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = await q
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(body.size)
        .offset((body.page - 1) * body.size)
        .execute();
      return {
        files: await Promise.all(rows.map((r) => withUrl(infoOf(r as never)))),
        total,
        used_bytes: await files.used(body.space_id),
        quota_bytes: settings.spaceQuotaBytes,
        max_file_bytes: settings.maxFileBytes,
      };
    },
  });

  ctx.route({
    ...GetFile,
    auth: { space: { from: 'body', field: 'space_id' } },
    handler: async ({ body }) => ({ file: await withUrl(infoOf(await inSpace(body.file_id, body.space_id))) }),
  });

  ctx.route({
    ...DeleteFile,
    auth: { space: { from: 'body', field: 'space_id' } },
    handler: async ({ body }) => {
      await inSpace(body.file_id, body.space_id);
      await files.remove(body.file_id);
      return {};
    },
  });

  ctx.route({
    method: 'GET',
    path: '/api/files/content/:id',
    produces: 'application/octet-stream',
    auth: 'anonymous',
    summary: 'The bytes of a file, for a URL signed by the studio until it expires',
    params: z.object({ id: Id }),
    query: z.object({ exp: z.string().max(20), sig: z.string().max(100) }),
    handler: async ({ params, query }, reply) => {
      if (!(await files.verify(params.id, query.exp, query.sig)))
        throw forbidden('This download link has expired or is not valid; ask the studio for a new one.');
      const { row, stream } = await files.open(params.id);
      // Served from the studio's own origin: nothing that could run script is shown inline.
      const inline = SAFE_INLINE.test(row.mime);
      reply.header(
        'content-disposition',
        `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(row.file_name)}`,
      );
      reply.header('x-content-type-options', 'nosniff');
      reply.header('content-security-policy', "sandbox; default-src 'none'");
      reply.header('content-length', String(row.bytes));
      reply.header('cache-control', 'private, max-age=300');
      reply.send(stream, row.mime);
    },
  });

  // ---- Coze's open API: a token's files land in the space it names (space_id); else, as files belong to the user in
  // Coze, in the owner's personal space when the token may upload there, or the first of the owner's spaces where it may.
  const openSpace = (caller: Caller, asked: string | undefined, permission: string) =>
    openApiSpace(ctx.service(SpacesService), caller, asked, permission);
  const openFile = async (f: FileInfo) => ({
    id: f.id,
    bytes: f.bytes,
    created_at: f.created_at,
    file_name: f.file_name,
    url: await files.url(f.id),
    mime_type: f.mime,
    file_type: f.kind,
  });

  ctx.route({
    ...OpenUploadFile,
    auth: 'user',
    upload: true,
    handler: async (req) => {
      const spaceId = await openSpace(req.caller!, req.query.space_id, 'file.upload');
      const { files: stored } = await receiveFiles(req, 1, (fileName, stream) =>
        files.put({ spaceId, userId: req.caller!.userId, fileName, data: stream }),
      );
      return openFile(stored[0]);
    },
  });

  ctx.route({
    ...OpenRetrieveFile,
    auth: 'user',
    handler: async ({ query, caller }) => {
      const f = await files.info(query.file_id);
      if (!f) throw notFound(`There is no file ${query.file_id}.`);
      await openSpace(caller!, f.space_id, 'file.upload').catch(() => {
        throw notFound(`There is no file ${query.file_id}.`);
      });
      return openFile(f);
    },
  });
}
