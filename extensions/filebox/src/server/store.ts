// The file box's rows: files (a file of the bot's space with its meta) and albums, by bot and end user.
import type { ServerContext } from '@tessera/sdk/server';
import type { Kysely } from 'kysely';

export interface FileRow {
  id: string;
  bot_id: string;
  space_id: string;
  end_user_id: string;
  file_id: string;
  name: string;
  kind: number;
  ext: string;
  bytes: number;
  description: string;
  tags: string;
  summary: string;
  created_at: string;
  updated_at: string;
}
export interface AlbumRow {
  id: string;
  bot_id: string;
  end_user_id: string;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
}
interface BoxDb {
  filebox_file: FileRow;
  filebox_album: AlbumRow;
  filebox_album_photo: { album_id: string; box_file_id: string; added_at: string };
}
/** Whose box: the bot and the end user (the studio user in the editor, the channel's user elsewhere). */
export interface Owner {
  botId: string;
  endUserId: string;
}

export const iso = () => new Date().toISOString();

export class BoxStore {
  readonly #ctx: ServerContext;
  constructor(ctx: ServerContext) {
    this.#ctx = ctx;
  }
  get db(): Kysely<BoxDb> {
    return this.#ctx.db;
  }
  newId(): string {
    return this.#ctx.host.newId();
  }
  files(o: Owner) {
    return this.db
      .selectFrom('filebox_file')
      .selectAll()
      .where('bot_id', '=', o.botId)
      .where('end_user_id', '=', o.endUserId);
  }
  async file(o: Owner, id: string): Promise<FileRow | undefined> {
    return this.files(o).where('id', '=', id).executeTakeFirst();
  }
  async count(o: Owner): Promise<number> {
    const r = await this.db
      .selectFrom('filebox_file')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('bot_id', '=', o.botId)
      .where('end_user_id', '=', o.endUserId)
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }
  albums(o: Owner) {
    return this.db
      .selectFrom('filebox_album')
      .selectAll()
      .where('bot_id', '=', o.botId)
      .where('end_user_id', '=', o.endUserId);
  }
  async album(o: Owner, id: string): Promise<AlbumRow | undefined> {
    return this.albums(o).where('id', '=', id).executeTakeFirst();
  }
  /** Album ids of each of these files. */
  async albumsOf(fileIds: string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (!fileIds.length) return out;
    const rows = await this.db
      .selectFrom('filebox_album_photo')
      .selectAll()
      .where('box_file_id', 'in', fileIds)
      .execute();
    for (const r of rows) out.set(r.box_file_id, [...(out.get(r.box_file_id) ?? []), r.album_id]);
    return out;
  }
  async photos(albumId: string): Promise<string[]> {
    return (
      await this.db
        .selectFrom('filebox_album_photo')
        .select('box_file_id')
        .where('album_id', '=', albumId)
        .orderBy('added_at')
        .execute()
    ).map((r) => r.box_file_id);
  }
}
