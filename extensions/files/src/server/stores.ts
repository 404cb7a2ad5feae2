// The object stores files contributes: the data folder (one machine) and any S3-compatible store
// (AWS S3, MinIO, R2 ...; the AWS SDK is loaded when the store is first made).
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { notFound } from '@tessera/sdk';
import type { ObjectStore, ObjectStoreKind } from '../shared/index.ts';

export const localStore: ObjectStoreKind = {
  key: 'local',
  description: 'Files in the data folder (files/); one studio process or several on one machine.',
  shared: false,
  create({ dataDir, config }) {
    const root = path.resolve(dataDir, String(config.dir ?? 'files'));
    const where = (key: string) => {
      if (!/^[A-Za-z0-9/_.-]+$/.test(key) || key.includes('..')) throw new Error(`bad object key ${key}`);
      return path.join(root, key);
    };
    const store: ObjectStore = {
      async putFile(key, from) {
        const to = where(key);
        await mkdir(path.dirname(to), { recursive: true });
        try {
          await rename(from, to);
        } catch {
          // Another file system: copy, then the caller removes its temporary file.
          await copyFile(from, to);
        }
      },
      async get(key) {
        const stream = createReadStream(where(key));
        await new Promise<void>((resolve, reject) => {
          stream.once('open', () => resolve());
          stream.once('error', (e: NodeJS.ErrnoException) =>
            reject(e.code === 'ENOENT' ? notFound('The file is no longer in storage.') : e),
          );
        });
        return stream;
      },
      async delete(key) {
        await rm(where(key), { force: true });
      },
    };
    return store;
  },
};

/** Settings of the s3 store (files.config.s3, or TESSERA_S3_* variables). */
export interface S3Settings {
  bucket: string;
  region?: string;
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle?: boolean;
  prefix?: string;
  /** Attempts per request (the SDK retries a failed one; 3 by default). */
  maxAttempts?: number;
}

export const s3Store: ObjectStoreKind = {
  key: 's3',
  description: 'An S3-compatible bucket (AWS S3, MinIO, Cloudflare R2 ...): several studio processes share it.',
  shared: true,
  async create({ config }) {
    const s = config as unknown as S3Settings;
    if (!s.bucket) throw new Error('files.config.s3.bucket (or TESSERA_S3_BUCKET) must name the bucket.');
    const { S3Client, PutObjectCommand, GetObjectCommand, DeleteObjectCommand } = await import('@aws-sdk/client-s3');
    const client = new S3Client({
      region: s.region ?? 'us-east-1',
      ...(s.endpoint ? { endpoint: s.endpoint } : {}),
      forcePathStyle: s.forcePathStyle ?? !!s.endpoint,
      ...(s.maxAttempts ? { maxAttempts: s.maxAttempts } : {}),
      // Checksums only where the operation needs them: stores other than AWS (older MinIO, R2, s3rver)
      // do not all read the aws-chunked bodies the SDK sends otherwise.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...(s.accessKeyId && s.secretAccessKey
        ? { credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey } }
        : {}),
    });
    const k = (key: string) => `${s.prefix ?? ''}${key}`;
    return {
      async putFile(key, from, bytes, contentType) {
        await client.send(
          new PutObjectCommand({
            Bucket: s.bucket,
            Key: k(key),
            Body: createReadStream(from),
            ContentLength: bytes,
            ContentType: contentType,
          }),
        );
      },
      async get(key) {
        try {
          const out = await client.send(new GetObjectCommand({ Bucket: s.bucket, Key: k(key) }));
          return out.Body as NodeJS.ReadableStream;
        } catch (e) {
          if ((e as { name?: string }).name === 'NoSuchKey') throw notFound('The file is no longer in storage.');
          throw e;
        }
      },
      async delete(key) {
        await client.send(new DeleteObjectCommand({ Bucket: s.bucket, Key: k(key) }));
      },
    };
  },
};
