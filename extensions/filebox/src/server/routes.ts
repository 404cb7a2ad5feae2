// The file box's routes: the studio's (`/api/filebox/...`, the chat's panel: the box of the signed-in user with a bot
// of a space they belong to) and Coze's open ones (`/v1/file_list`, `/v1/upload_files`: the box of the channel's
// user, `user_id`, with a token that may chat with the bot).
import { badRequest, type Endpoint, messageOf } from '@tessera/sdk';
import { receiveFiles, type ServerContext } from '@tessera/sdk/server';
import { BotsService } from '@tessera/ext-bots/shared';
import { FilesService } from '@tessera/ext-files/shared';
import { z } from 'zod';
import {
  AddFiles,
  AddPhotos,
  Bot,
  CreateAlbum,
  DeleteAlbum,
  DeleteFiles,
  Files,
  GetAlbum,
  GetFile,
  Id,
  IsEnabled,
  ListAlbums,
  OpenFilePage,
  RecallFiles,
  RemovePhotos,
  SearchFiles,
  SummarizeFile,
  UpdateAlbum,
  UpdateFiles,
} from '../shared/api.ts';
import type { FileBox } from './service.ts';
import type { Owner } from './store.ts';

export function registerRoutes(ctx: ServerContext, box: () => Promise<FileBox>): void {
  const spaceOfBot = async (id: unknown) => (await ctx.service(BotsService).get(String(id ?? '')))?.space_id;
  /** The bot's space from the body: its members use their box. */
  const ofBot = { space: (r: { body: { bot_id?: unknown } }) => spaceOfBot(r.body?.bot_id) };
  const mine = (req: { body: { bot_id: string }; caller?: { userId: string } }): Owner => ({
    botId: req.body.bot_id,
    endUserId: req.caller!.userId,
  });
  /** A studio call on the caller's box with a bot: its body's fields beside bot_id, and what it answers. */
  const post = <B extends z.ZodType<{ bot_id: string }>, R extends z.ZodType>(
    endpoint: Endpoint<B, undefined, R, 'POST'>,
    handler: (b: FileBox, o: Owner, body: z.output<B>, spaceId: string) => Promise<z.output<R>>,
  ) =>
    ctx.route({
      ...endpoint,
      auth: ofBot,
      // The route's body is the endpoint's: typed by its schema (the route's own generic widens it).
      handler: async (req) => handler(await box(), mine(req), req.body as z.output<B>, req.spaceId!),
    });

  ctx.route({
    ...IsEnabled,
    auth: ofBot,
    handler: async ({ body }) => ({
      enabled:
        (await ctx.service(BotsService).skillSettings(body.bot_id, 'filebox', body.draft ? 'draft' : 'published')) !==
        undefined,
    }),
  });
  post(AddFiles, async (b, o, body, spaceId) => ({
    files: await b.views(await b.add(o, spaceId, body.file_ids)),
  }));
  post(SearchFiles, async (b, o, body) => {
    const r = await b.search(o, body);
    return { files: await b.views(r.rows), total: r.total };
  });
  post(GetFile, async (b, o, body) => ({
    file: await b.view(await b.get(o, body.id)),
  }));
  post(UpdateFiles, async (b, o, body) => {
    await b.update(o, body.files);
    return {};
  });
  post(DeleteFiles, async (b, o, body) => ({
    deleted: await b.remove(o, body.ids),
  }));
  post(RecallFiles, async (b, o, body) => ({ files: await b.views(await b.recall(o, body.query, body.top_k)) }));
  post(SummarizeFile, async (b, o, body) => ({
    summary: await b.summarize(o, body.id),
  }));
  ctx.route({
    method: 'POST',
    path: '/api/filebox/stream_summary_file',
    auth: ofBot,
    stream: true,
    summary: 'Summarize a file, streamed: delta { text } as it is written, then done { summary }',
    body: z.object({ ...Bot, id: Id }),
    handler: async (req, reply) => {
      const b = await box();
      const o = mine(req);
      await b.get(o, req.body.id);
      const sse = reply.sse();
      try {
        const summary = await b.summarize(o, req.body.id, (text) => sse.send('delta', { text }), req.signal);
        sse.send('done', { summary });
      } catch (e) {
        sse.send('error', { msg: messageOf(e) });
      } finally {
        sse.close();
      }
    },
  });

  // ---------------------------------------------------------------- albums
  post(CreateAlbum, async (b, o, body) => ({
    album: await b.albumView(await b.createAlbum(o, body.name, body.description)),
  }));
  post(UpdateAlbum, async (b, o, body) => {
    await b.updateAlbum(o, body.album_id, { name: body.name, description: body.description });
    return { album: await b.albumView(await b.getAlbum(o, body.album_id)) };
  });
  post(DeleteAlbum, async (b, o, body) => {
    await b.deleteAlbum(o, body.album_id);
    return {};
  });
  post(ListAlbums, async (b, o) => ({
    albums: await Promise.all((await b.store.albums(o).orderBy('created_at').execute()).map((a) => b.albumView(a))),
  }));
  post(GetAlbum, async (b, o, body) => {
    const a = await b.getAlbum(o, body.album_id);
    const ids = await b.store.photos(a.id);
    const rows = ids.length ? await b.store.files(o).where('id', 'in', ids).execute() : [];
    return { album: await b.albumView(a), photos: await b.views(rows) };
  });
  post(AddPhotos, async (b, o, body) => {
    await b.addPhotos(o, body.album_id, body.ids);
    return {};
  });
  post(RemovePhotos, async (b, o, body) => {
    await b.removePhotos(o, body.album_id, body.ids);
    return {};
  });

  // ---------------------------------------------------------------- Coze's open API
  const ofBotQuery = { space: (r: { query: { bot_id?: unknown } }) => spaceOfBot(r.query?.bot_id) };
  const channelUser = (q: { user_id?: string }, caller: { userId: string }) => q.user_id || caller.userId;
  ctx.route({
    method: 'GET',
    path: '/v1/file_list',
    auth: ofBotQuery,
    permission: 'bot.chat',
    summary: "A channel user's files in their box with the bot (newest first)",
    query: z.object({
      bot_id: Id,
      user_id: z.string().max(200).optional(),
      page_num: z.coerce.number().int().min(1).default(1),
      page_size: z.coerce.number().int().min(1).max(100).default(20),
    }),
    response: OpenFilePage,
    handler: async ({ query, caller }) => {
      const b = await box();
      const o = { botId: query.bot_id, endUserId: channelUser(query, caller!) };
      const r = await b.search(o, { page: query.page_num, size: query.page_size });
      return { files: await b.views(r.rows), total: r.total, has_more: query.page_num * query.page_size < r.total };
    },
  });
  ctx.route({
    method: 'POST',
    path: '/v1/upload_files',
    auth: ofBotQuery,
    permission: 'bot.chat',
    upload: true,
    summary: 'Upload files (multipart, field "file") into a channel user\'s box with the bot',
    query: z.object({ bot_id: Id, user_id: z.string().max(200).optional() }),
    response: Files,
    handler: async (req) => {
      const b = await box();
      const files = ctx.service(FilesService);
      const spaceId = req.spaceId!;
      const { files: stored } = await receiveFiles(req, 10, (fileName, stream) =>
        files.put({ spaceId, userId: req.caller!.userId, fileName, data: stream }),
      );
      if (!stored.length) throw badRequest('Send the files in fields named "file".');
      const o = { botId: req.query.bot_id, endUserId: channelUser(req.query, req.caller!) };
      return {
        files: await b.views(
          await b.add(
            o,
            spaceId,
            stored.map((f) => f.id),
          ),
        ),
      };
    },
  });
}
