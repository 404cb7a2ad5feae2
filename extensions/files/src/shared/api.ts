// The files' calls: uploads (multipart, streamed), the space's files with its quota, details with a signed download
// URL, deletion, and Coze's open API /v1/files/upload and /v1/files/retrieve. Times are Unix seconds.
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';
import type { FileInfo } from './index.ts';

const Id = z.string().min(1).max(32);
const InSpace = z.object({ space_id: Id });

export const FileView = z.object({
  id: z.string(),
  space_id: z.string(),
  file_name: z.string(),
  /** What the content is (judged from the bytes, not the name). */
  mime: z.string(),
  ext: z.string(),
  kind: z.number(),
  bytes: z.number(),
  sha256: z.string(),
  creator_id: z.string(),
  created_at: z.number(),
  /** A download URL signed for a short time. */
  url: z.string(),
}) satisfies z.ZodType<FileInfo & { url: string }>;
export type FileView = z.output<typeof FileView>;

/** A multipart upload (field "file", up to 20); the body is the form, the space in the query. */
export const UploadFiles = defineEndpoint({
  method: 'POST',
  path: '/api/files/upload',
  summary:
    'Upload files (multipart/form-data, field "file", up to 20): streamed to storage, typed by their content, counted against the space quota',
  query: InSpace,
  response: z.object({ files: z.array(FileView) }),
});

export const ListFiles = defineEndpoint({
  method: 'POST',
  path: '/api/files/list',
  summary: "A space's files, newest first, with the space's use of its quota",
  body: InSpace.extend({
    kind: z.number().int().optional(),
    page: z.number().int().min(1).default(1),
    size: z.number().int().min(1).max(100).default(20),
  }),
  response: z.object({
    files: z.array(FileView),
    total: z.number(),
    used_bytes: z.number(),
    quota_bytes: z.number(),
    max_file_bytes: z.number(),
  }),
});

export const GetFile = defineEndpoint({
  method: 'POST',
  path: '/api/files/detail',
  summary: 'A file with a download URL signed for a short time',
  body: InSpace.extend({ file_id: Id }),
  response: z.object({ file: FileView }),
});

export const DeleteFile = defineEndpoint({
  method: 'POST',
  path: '/api/files/delete',
  summary: 'Delete a file from the space and from storage',
  body: InSpace.extend({ file_id: Id }),
  response: z.object({}),
});

/** A file as Coze's open API answers it. */
export const OpenFileView = z.object({
  id: z.string(),
  bytes: z.number(),
  created_at: z.number(),
  file_name: z.string(),
  url: z.string(),
  mime_type: z.string(),
  file_type: z.number(),
});

export const OpenUploadFile = defineEndpoint({
  method: 'POST',
  path: '/v1/files/upload',
  summary: 'Upload a file (multipart, field "file"); optional ?space_id=, else your personal space',
  query: z.object({ space_id: Id.optional() }),
  response: OpenFileView,
});

export const OpenRetrieveFile = defineEndpoint({
  method: 'GET',
  path: '/v1/files/retrieve',
  summary: 'A file uploaded before: its name, size, time and a download URL',
  query: z.object({ file_id: Id }),
  response: OpenFileView,
});
