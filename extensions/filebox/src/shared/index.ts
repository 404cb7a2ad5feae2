// The file box's contract (spec 001, "File box", /api/filebox/...): an end user's files and albums with a bot, across
// its conversations. One contract for the server and the page.
/** Coze's file kinds. */
export const FileKind = { Image: 1, Audio: 2, Video: 3, Document: 4, Album: 5, Other: 255 } as const;
export const KIND_NAMES: Record<number, string> = { 1: 'image', 2: 'audio', 3: 'video', 4: 'document', 255: 'other' };

export interface BoxFile {
  id: string;
  bot_id: string;
  file_id: string;
  name: string;
  /** FileKind: image 1, audio 2, video 3, document 4, other 255. */
  kind: number;
  ext: string;
  bytes: number;
  description: string;
  tags: string[];
  summary: string;
  /** A download URL (signed for a while). */
  url: string;
  /** The albums it is in. */
  album_ids: string[];
  created_at: number;
  updated_at: number;
}
export interface BoxAlbum {
  album_id: string;
  album_name: string;
  album_desc: string;
  photo_count: number;
  /** The first photo's URL (the album's cover), or ''. */
  cover_url: string;
  created_at: number;
}
