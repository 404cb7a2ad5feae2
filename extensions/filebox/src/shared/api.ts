// What the file box's calls answer (the studio's /api/filebox/... and Coze's /v1/file_list, /v1/upload_files). Times
// are Unix seconds.
import { z } from 'zod';
import type { BoxAlbum, BoxFile } from './index.ts';

export const BoxFileView = z.object({
  id: z.string(),
  bot_id: z.string(),
  file_id: z.string(),
  name: z.string(),
  kind: z.number(),
  ext: z.string(),
  bytes: z.number(),
  description: z.string(),
  tags: z.array(z.string()),
  summary: z.string(),
  url: z.string(),
  album_ids: z.array(z.string()),
  created_at: z.number(),
  updated_at: z.number(),
}) satisfies z.ZodType<BoxFile>;

export const BoxAlbumView = z.object({
  album_id: z.string(),
  album_name: z.string(),
  album_desc: z.string(),
  photo_count: z.number(),
  cover_url: z.string(),
  created_at: z.number(),
}) satisfies z.ZodType<BoxAlbum>;

export const Files = z.object({ files: z.array(BoxFileView) });
export const FilePage = z.object({ files: z.array(BoxFileView), total: z.number() });
export const OpenFilePage = FilePage.extend({ has_more: z.boolean() });
export const OneFile = z.object({ file: BoxFileView });
export const Deleted = z.object({ deleted: z.number() });
export const Summary = z.object({ summary: z.string() });
export const Enabled = z.object({ enabled: z.boolean() });
export const OneAlbum = z.object({ album: BoxAlbumView });
export const Albums = z.object({ albums: z.array(BoxAlbumView) });
export const AlbumWithPhotos = z.object({ album: BoxAlbumView, photos: z.array(BoxFileView) });
export const NoAnswer = z.object({});
