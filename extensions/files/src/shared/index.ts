// @tessera/ext-files/shared: files as other extensions see them, and the storage point.
import { defineRegistryPoint, defineService } from '@tessera/sdk';
import { z } from 'zod';

/** Coze's file kinds. */
export const FileKind = { Image: 1, Audio: 2, Video: 3, Document: 4, Album: 5, Other: 255 } as const;

export interface FileInfo {
  id: string;
  space_id: string;
  file_name: string;
  /** What the content is (judged from the bytes, not the name). */
  mime: string;
  /** The extension that goes with the content: pdf, docx, png, txt ... */
  ext: string;
  kind: number;
  bytes: number;
  sha256: string;
  creator_id: string;
  /** Seconds since the epoch (Coze's created_at). */
  created_at: number;
}

export interface PutFile {
  spaceId: string;
  userId: string;
  fileName: string;
  data: Uint8Array | NodeJS.ReadableStream;
}

/** What other extensions ask of files (server side). */
export interface Files {
  /** Stores a file after checking its size, the space's quota and its content; answers what it is. */
  put(input: PutFile): Promise<FileInfo>;
  info(id: string): Promise<FileInfo | undefined>;
  /** The file's bytes (throws a 404 error when there is no such file). */
  read(id: string): Promise<Buffer>;
  /** An absolute download URL signed for `ttlSec` seconds (default from configuration, 15 minutes). */
  url(id: string, opts?: { ttlSec?: number }): Promise<string>;
  /**
   * A value that names a file (a file id of `spaceId`, or an http(s) URL) as a URL a node or a model can
   * use; a file id of another space is refused.
   */
  resolve(ref: string, spaceId: string): Promise<{ url: string; file?: FileInfo }>;
  remove(id: string): Promise<void>;
}
export const FilesService = defineService<Files>({
  id: 'files.files',
  owner: 'files',
  description: 'Stored files: put, read, signed URLs.',
});

/** Where file bytes live. Keys are opaque strings the files extension chooses. */
export interface ObjectStore {
  /** Moves (or copies) the finished local file at `path` to `key`. */
  putFile(key: string, path: string, bytes: number, contentType: string): Promise<void>;
  get(key: string): Promise<NodeJS.ReadableStream>;
  delete(key: string): Promise<void>;
}

export interface ObjectStoreKind {
  /** Named by files.store in the configuration ('local', 's3', ...). */
  key: string;
  description: string;
  /** Several studio processes can share it (the data folder of one machine cannot). */
  shared: boolean;
  create(opts: { dataDir: string; config: Record<string, unknown> }): ObjectStore | Promise<ObjectStore>;
}

export const ObjectStores = defineRegistryPoint<ObjectStoreKind>({
  id: 'files.objectStores',
  owner: 'files',
  description: 'Where uploaded files are kept: the data folder, an S3-compatible store, or another an extension adds.',
  schema: z.object({
    key: z.string().regex(/^[a-z][a-z0-9-]*$/),
    description: z.string(),
    shared: z.boolean(),
    create: z.custom<(...a: unknown[]) => unknown>((v) => typeof v === 'function'),
  }),
  key: (s) => s.key,
});

/** Kind of a MIME type. */
export function kindOf(mime: string): number {
  if (mime.startsWith('image/')) return FileKind.Image;
  if (mime.startsWith('audio/')) return FileKind.Audio;
  if (mime.startsWith('video/')) return FileKind.Video;
  if (/^(text\/|application\/(pdf|msword|json|xml|rtf|epub)|application\/vnd\.(openxmlformats|ms-|oasis))/.test(mime))
    return FileKind.Document;
  return FileKind.Other;
}
