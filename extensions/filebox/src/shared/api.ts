// What the file box's calls answer (the studio's /api/filebox/... and Coze's /v1/file_list, /v1/upload_files). Times
// are Unix seconds.
import { defineEndpoint } from '@tessera/sdk';
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

// ------------------------------------------------------------------ the studio's calls (the chat's panel)

export const Id = z.string().min(1).max(32);
const Ids = z.array(Id).min(1).max(100);
export const Bot = { bot_id: Id };
const FileMeta = z.object({
  id: Id,
  name: z.string().trim().min(1).max(255).optional(),
  description: z.string().max(2000).optional(),
  tags: z.array(z.string().trim().min(1).max(50)).max(20).optional(),
});

export const IsEnabled = defineEndpoint({
  method: 'POST',
  path: '/api/filebox/enabled',
  summary: 'Whether the bot (its draft, or as published) has the file box on (its chats then show the panel)',
  body: z.object({ ...Bot, draft: z.boolean().default(false) }),
  response: Enabled,
});

/** A call on the caller's box with a bot (`/api/filebox/<path>`): its body's fields beside bot_id, and its answer. */
const boxCall = <S extends z.ZodRawShape, R extends z.ZodType>(path: string, summary: string, shape: S, response: R) =>
  defineEndpoint({
    method: 'POST',
    path: `/api/filebox/${path}`,
    summary,
    body: z.object({ ...Bot, ...shape }),
    response,
  });

export const AddFiles = boxCall(
  'files/batch_create',
  'Put files of the bot’s space (uploaded first) in your file box',
  { file_ids: Ids },
  Files,
);
export const SearchFiles = boxCall(
  'search_file',
  'Your files with the bot: by words (name, description, tags, summary) and kinds, newest first',
  {
    query: z.string().max(200).optional(),
    kinds: z.array(z.number().int()).max(6).optional(),
    page: z.number().int().min(1).default(1),
    size: z.number().int().min(1).max(100).default(20),
  },
  FilePage,
);
export const GetFile = boxCall('get_file_meta_info', 'One file of your box', { id: Id }, OneFile);
export const UpdateFiles = boxCall(
  'batch_update_file_meta',
  'Rename files, describe and tag them',
  { files: z.array(FileMeta).min(1).max(100) },
  NoAnswer,
);
export const DeleteFiles = boxCall(
  'batch_delete_file',
  'Take files out of your box (their bytes deleted)',
  { ids: Ids },
  Deleted,
);
export const RecallFiles = boxCall(
  'recall_files',
  'The files that best match a question, best first (what the bot finds)',
  { query: z.string().max(500), top_k: z.number().int().min(1).max(50).default(5) },
  Files,
);
export const SummarizeFile = boxCall(
  'summary_file',
  'Summarize a file (a document) with the space’s default chat model; kept with the file',
  { id: Id },
  Summary,
);
export const CreateAlbum = boxCall(
  'create_album',
  'Make an album in your box',
  { name: z.string().trim().min(1, 'Name the album.').max(100), description: z.string().max(2000).default('') },
  OneAlbum,
);
export const UpdateAlbum = boxCall(
  'update_album',
  'Rename or describe an album',
  { album_id: Id, name: z.string().trim().min(1).max(100).optional(), description: z.string().max(2000).optional() },
  OneAlbum,
);
export const DeleteAlbum = boxCall(
  'del_album',
  'Delete an album (its photos stay in the box)',
  { album_id: Id },
  NoAnswer,
);
export const ListAlbums = boxCall('show_album_list', 'Your albums with the bot', {}, Albums);
export const GetAlbum = boxCall('show_album', 'An album and its photos', { album_id: Id }, AlbumWithPhotos);
export const AddPhotos = boxCall(
  'add_photos_to_album',
  'Put photos of your box in an album',
  { album_id: Id, ids: Ids },
  NoAnswer,
);
export const RemovePhotos = boxCall(
  'album/batch_remove_photo',
  'Take photos out of an album (they stay in the box)',
  { album_id: Id, ids: Ids },
  NoAnswer,
);
