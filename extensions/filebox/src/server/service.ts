// The file box: an end user's files and albums with a bot. Files are files of the bot's space (the files extension
// keeps the bytes); the box keeps their names, descriptions, tags and summaries, and the albums. A file's text is read
// as knowledge reads documents (when it runs); summaries are written by the space's default chat model.
import type { ServerContext } from '@tessera/sdk/server';
import { FilesService } from '@tessera/ext-files/shared';
import { KnowledgeService } from '@tessera/ext-knowledge/shared';
import { ModelsService } from '@tessera/ext-models/shared';
import { FileKind, type BoxAlbum, type BoxFile } from '../shared/index.ts';
import { iso, type AlbumRow, type BoxStore, type FileRow, type Owner } from './store.ts';
import { texts } from './texts.ts';

/** The most files one box holds. */
export const MAX_FILES = 1000;
/** The most text of a file a model reads (a summary, the bot's read tool). */
export const MAX_TEXT = 20_000;
const PLAIN = ['txt', 'md', 'markdown', 'json', 'csv', 'log', 'yaml', 'yml', 'xml'];
const secs = (v: string) => Math.floor(Date.parse(v) / 1000);
const tagsOf = (t: string): string[] => {
  try {
    const v: unknown = JSON.parse(t);
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
};

export class FileBox {
  readonly #ctx: ServerContext;
  readonly store: BoxStore;
  constructor(ctx: ServerContext, store: BoxStore) {
    this.#ctx = ctx;
    this.store = store;
  }
  #files() {
    return this.#ctx.service(FilesService);
  }

  async view(r: FileRow, albums?: Map<string, string[]>): Promise<BoxFile> {
    const map = albums ?? (await this.store.albumsOf([r.id]));
    return {
      id: r.id,
      bot_id: r.bot_id,
      file_id: r.file_id,
      name: r.name,
      kind: Number(r.kind),
      ext: r.ext,
      bytes: Number(r.bytes),
      description: r.description,
      tags: tagsOf(r.tags),
      summary: r.summary,
      url: await this.#files().url(r.file_id),
      album_ids: map.get(r.id) ?? [],
      created_at: secs(r.created_at),
      updated_at: secs(r.updated_at),
    };
  }
  async views(rows: FileRow[]): Promise<BoxFile[]> {
    const albums = await this.store.albumsOf(rows.map((r) => r.id));
    return Promise.all(rows.map((r) => this.view(r, albums)));
  }

  async get(o: Owner, id: string): Promise<FileRow> {
    const f = await this.store.file(o, id);
    if (!f) throw texts.error(404, 'noFile', { id });
    return f;
  }

  /** Files of the bot's space put in the box (each once). */
  async add(o: Owner, spaceId: string, fileIds: string[]): Promise<FileRow[]> {
    const have = await this.store.count(o);
    if (have + fileIds.length > MAX_FILES) throw texts.error(400, 'full', { max: String(MAX_FILES) });
    const out: FileRow[] = [];
    for (const fileId of fileIds) {
      const info = await this.#files().info(fileId);
      if (!info || info.space_id !== spaceId) throw texts.error(400, 'notHere', { id: fileId });
      const existing = await this.store.files(o).where('file_id', '=', fileId).executeTakeFirst();
      if (existing) {
        out.push(existing);
        continue;
      }
      const t = iso();
      const row: FileRow = {
        id: this.store.newId(),
        bot_id: o.botId,
        space_id: spaceId,
        end_user_id: o.endUserId,
        file_id: fileId,
        name: info.file_name,
        kind: KNOWN.has(info.kind) ? info.kind : FileKind.Other,
        ext: info.ext,
        bytes: info.bytes,
        description: '',
        tags: '[]',
        summary: '',
        created_at: t,
        updated_at: t,
      };
      await this.store.db.insertInto('filebox_file').values(row).execute();
      out.push(row);
    }
    return out;
  }

  /** Files by words in their name, description, tags or summary; of some kinds; newest first. */
  async search(
    o: Owner,
    q: { query?: string; kinds?: number[]; page: number; size: number },
  ): Promise<{ rows: FileRow[]; total: number }> {
    let rows = await this.store.files(o).orderBy('created_at', 'desc').execute();
    if (q.kinds?.length) rows = rows.filter((r) => q.kinds!.includes(Number(r.kind)));
    const words = (q.query ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    if (words.length) rows = rows.filter((r) => score(r, words) > 0);
    return { rows: rows.slice((q.page - 1) * q.size, q.page * q.size), total: rows.length };
  }

  /** The files that best match what is asked (the bot looks for one), best first. */
  async recall(o: Owner, query: string, topK: number): Promise<FileRow[]> {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    const rows = await this.store.files(o).execute();
    return rows
      .map((r) => ({ r, s: score(r, words) }))
      .filter((x) => x.s > 0 || !words.length)
      .sort((a, b) => b.s - a.s || b.r.created_at.localeCompare(a.r.created_at))
      .slice(0, topK)
      .map((x) => x.r);
  }

  async update(o: Owner, metas: { id: string; name?: string; description?: string; tags?: string[] }[]): Promise<void> {
    for (const m of metas) {
      await this.get(o, m.id);
      await this.store.db
        .updateTable('filebox_file')
        .set({
          ...(m.name !== undefined ? { name: m.name } : {}),
          ...(m.description !== undefined ? { description: m.description } : {}),
          ...(m.tags !== undefined ? { tags: JSON.stringify([...new Set(m.tags)]) } : {}),
          updated_at: iso(),
        })
        .where('id', '=', m.id)
        .execute();
    }
  }

  /** Files taken out of the box (and their bytes deleted: the box held them). */
  async remove(o: Owner, ids: string[]): Promise<number> {
    let n = 0;
    for (const id of ids) {
      const f = await this.store.file(o, id);
      if (!f) continue;
      await this.store.db.deleteFrom('filebox_album_photo').where('box_file_id', '=', id).execute();
      await this.store.db.deleteFrom('filebox_file').where('id', '=', id).execute();
      await this.#files()
        .remove(f.file_id)
        .catch(() => undefined);
      n++;
    }
    return n;
  }

  // ------------------------------------------------------------------ albums
  async albumView(a: AlbumRow): Promise<BoxAlbum> {
    const photos = await this.store.photos(a.id);
    const first = photos[0]
      ? await this.store.db.selectFrom('filebox_file').select('file_id').where('id', '=', photos[0]).executeTakeFirst()
      : undefined;
    return {
      album_id: a.id,
      album_name: a.name,
      album_desc: a.description,
      photo_count: photos.length,
      cover_url: first ? await this.#files().url(first.file_id) : '',
      created_at: secs(a.created_at),
    };
  }
  async getAlbum(o: Owner, id: string): Promise<AlbumRow> {
    const a = await this.store.album(o, id);
    if (!a) throw texts.error(404, 'noAlbum', { id });
    return a;
  }
  async createAlbum(o: Owner, name: string, description: string): Promise<AlbumRow> {
    const t = iso();
    const row: AlbumRow = {
      id: this.store.newId(),
      bot_id: o.botId,
      end_user_id: o.endUserId,
      name,
      description,
      created_at: t,
      updated_at: t,
    };
    await this.store.db.insertInto('filebox_album').values(row).execute();
    return row;
  }
  async updateAlbum(o: Owner, id: string, patch: { name?: string; description?: string }): Promise<void> {
    await this.getAlbum(o, id);
    await this.store.db
      .updateTable('filebox_album')
      .set({ ...patch, updated_at: iso() })
      .where('id', '=', id)
      .execute();
  }
  async deleteAlbum(o: Owner, id: string): Promise<void> {
    await this.getAlbum(o, id);
    await this.store.db.deleteFrom('filebox_album_photo').where('album_id', '=', id).execute();
    await this.store.db.deleteFrom('filebox_album').where('id', '=', id).execute();
  }
  async addPhotos(o: Owner, albumId: string, ids: string[]): Promise<void> {
    await this.getAlbum(o, albumId);
    const have = new Set(await this.store.photos(albumId));
    for (const id of ids) {
      const f = await this.get(o, id);
      if (Number(f.kind) !== FileKind.Image) throw texts.error(400, 'notPhoto', { name: f.name });
      if (have.has(id)) continue;
      await this.store.db
        .insertInto('filebox_album_photo')
        .values({ album_id: albumId, box_file_id: id, added_at: iso() })
        .execute();
      have.add(id);
    }
  }
  async removePhotos(o: Owner, albumId: string, ids: string[]): Promise<void> {
    await this.getAlbum(o, albumId);
    if (ids.length)
      await this.store.db
        .deleteFrom('filebox_album_photo')
        .where('album_id', '=', albumId)
        .where('box_file_id', 'in', ids)
        .execute();
  }

  // ------------------------------------------------------------------ reading
  /** A file's text (a document's, as knowledge reads it; plain text as it is), or undefined for media. */
  async text(f: FileRow): Promise<string | undefined> {
    const kind = Number(f.kind);
    if (kind === FileKind.Image || kind === FileKind.Audio || kind === FileKind.Video) return undefined;
    const ext = f.ext.toLowerCase();
    const data = await this.#files().read(f.file_id);
    if (PLAIN.includes(ext)) return data.toString('utf8').slice(0, MAX_TEXT);
    const knowledge = this.#ctx.optionalService(KnowledgeService);
    const t = knowledge ? await knowledge.extractText(data, ext) : undefined;
    return t?.slice(0, MAX_TEXT);
  }

  /** A summary of the file's text by the space's default chat model (streamed to `onDelta`), kept with the file. */
  async summarize(o: Owner, id: string, onDelta?: (t: string) => void, signal?: AbortSignal): Promise<string> {
    const f = await this.get(o, id);
    const body = await this.text(f);
    if (!body?.trim()) throw texts.error(400, 'unreadable', { name: f.name });
    const models = this.#ctx.optionalService(ModelsService);
    const info = await models?.defaultModel(f.space_id, 'chat');
    if (!models || !info) throw texts.error(400, 'noModel');
    const model = await models.get(f.space_id, info.model_id);
    const { streamText } = await import('ai');
    let summary = '';
    const r = streamText({
      model: await model.chat(),
      system:
        'Summarize the document for its owner in a few sentences, in the language of the document. Say what it is, its main points, and any dates or numbers that matter.',
      messages: [{ role: 'user', content: `Document "${f.name}":\n\n${body}` }],
      maxRetries: 0,
      abortSignal: signal,
    });
    for await (const part of r.textStream) {
      summary += part;
      onDelta?.(part);
    }
    const u = await r.totalUsage;
    await models
      .recordUsage({
        space_id: f.space_id,
        model_id: model.model_id,
        input_tokens: u.inputTokens ?? 0,
        output_tokens: u.outputTokens ?? 0,
        source: 'filebox',
      })
      .catch(() => undefined);
    await this.store.db.updateTable('filebox_file').set({ summary, updated_at: iso() }).where('id', '=', id).execute();
    return summary;
  }
}

const KNOWN = new Set<number>([FileKind.Image, FileKind.Audio, FileKind.Video, FileKind.Document]);

/** How well a file matches the words: its name counts most, then tags, description and summary. */
function score(r: FileRow, words: string[]): number {
  const name = r.name.toLowerCase();
  const tags = r.tags.toLowerCase();
  const desc = r.description.toLowerCase();
  const sum = r.summary.toLowerCase();
  let s = 0;
  for (const w of words) {
    if (name.includes(w)) s += 4;
    if (tags.includes(w)) s += 3;
    if (desc.includes(w)) s += 2;
    if (sum.includes(w)) s += 1;
  }
  return s;
}
