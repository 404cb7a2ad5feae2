// The files extension (server half): uploads streamed to an object store (the data folder by default,
// S3-compatible when configured), typed by content, per-space quota, signed download URLs; FilesService
// for other extensions. Parts: content.ts (what a file is), service.ts, stores.ts, routes.ts (uploads read with the SDK's receiveFiles).
import { randomBytes } from 'node:crypto';
import { SecretsService, defineExtension } from '@tessera/sdk/server';
import { TokenPermissions } from '@tessera/ext-identity/shared';
import { FileValues } from '@tessera/workflow-sdk';
import { z } from 'zod';
import { FilesService, ObjectStores, type ObjectStore } from '../shared/index.ts';
import { registerRoutes } from './routes.ts';
import { makeFiles } from './service.ts';
import { localStore, s3Store } from './stores.ts';

const env = process.env;
const num = (v: string | undefined) => (v && Number.isFinite(Number(v)) ? Number(v) : undefined);

const ConfigSchema = z.object({
  /** Which object store keeps the bytes: 'local' (the data folder), 's3', or one an extension adds. */
  store: z.string().default(env.TESSERA_FILES_STORE ?? 'local'),
  maxFileBytes: z
    .number()
    .int()
    .positive()
    .default(num(env.TESSERA_FILES_MAX_BYTES) ?? 100 * 1024 * 1024),
  spaceQuotaBytes: z
    .number()
    .int()
    .positive()
    .default(num(env.TESSERA_FILES_SPACE_QUOTA_BYTES) ?? 5 * 1024 * 1024 * 1024),
  /** How long a signed download URL works. */
  urlTtlSec: z
    .number()
    .int()
    .min(10)
    .max(7 * 86400)
    .default(900),
  /** Settings of the chosen store (s3: bucket, region, endpoint, accessKeyId, secretAccessKey, forcePathStyle, prefix). */
  s3: z.record(z.string(), z.unknown()).default({}),
  local: z.record(z.string(), z.unknown()).default({}),
});

const s3FromEnv = () =>
  Object.fromEntries(
    Object.entries({
      bucket: env.TESSERA_S3_BUCKET,
      region: env.TESSERA_S3_REGION,
      endpoint: env.TESSERA_S3_ENDPOINT,
      accessKeyId: env.TESSERA_S3_ACCESS_KEY_ID,
      secretAccessKey: env.TESSERA_S3_SECRET_ACCESS_KEY,
      prefix: env.TESSERA_S3_PREFIX,
    }).filter(([, v]) => v !== undefined),
  );

export default defineExtension({
  id: 'files',
  configSchema: ConfigSchema,
  register(ctx) {
    ctx.migrations([
      {
        name: '0001_files',
        up: async (db) => {
          await db.schema
            .createTable('files_file')
            .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
            .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
            .addColumn('mime', 'varchar(128)', (c) => c.notNull())
            .addColumn('ext', 'varchar(16)', (c) => c.notNull())
            .addColumn('kind', 'integer', (c) => c.notNull())
            .addColumn('bytes', 'bigint', (c) => c.notNull())
            .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
            .addColumn('storage_key', 'varchar(255)', (c) => c.notNull())
            .addColumn('creator_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
            .execute();
          await db.schema
            .createIndex('files_file_space')
            .on('files_file')
            .columns(['space_id', 'created_at'])
            .execute();
          await db.schema
            .createTable('files_key')
            .addColumn('id', 'varchar(16)', (c) => c.primaryKey())
            .addColumn('sealed', 'text', (c) => c.notNull())
            .execute();
        },
      },
      {
        // What each space has stored, kept beside the rows so that an upload checks and records its bytes in one
        // conditional update (concurrent uploads cannot overshoot the quota).
        name: '0002_files_usage',
        up: async (db) => {
          await db.schema
            .createTable('files_usage')
            .addColumn('space_id', 'varchar(32)', (c) => c.primaryKey())
            .addColumn('bytes', 'bigint', (c) => c.notNull())
            .execute();
          await db
            .insertInto('files_usage')
            .columns(['space_id', 'bytes'])
            .expression(
              db
                .selectFrom('files_file')
                .select((eb) => ['space_id', eb.fn.sum<number>('bytes').as('bytes')])
                .groupBy('space_id'),
            )
            .execute();
        },
      },
    ]);
    ctx.register(ObjectStores, localStore);
    ctx.register(ObjectStores, s3Store);
    ctx.register(TokenPermissions, {
      key: 'file.upload',
      label: { 'en-US': 'Upload files', 'zh-CN': '上传文件' },
      group: 'file',
    });

    const settings = ctx.config;
    let store: Promise<ObjectStore> | undefined;
    const getStore = () =>
      (store ??= (async () => {
        const kind = ctx.registry(ObjectStores).get(settings.store);
        if (!kind)
          throw new Error(
            `files.store names '${settings.store}', which no extension provides (there are: ${ctx
              .registry(ObjectStores)
              .list()
              .map((s) => s.key)
              .join(', ')}).`,
          );
        const config =
          settings.store === 's3'
            ? { ...settings.s3, ...s3FromEnv() }
            : settings.store === 'local'
              ? settings.local
              : (((settings as Record<string, unknown>)[settings.store] as Record<string, unknown>) ?? {});
        return kind.create({ dataDir: ctx.host.dataDir, config });
      })().catch((e) => {
        store = undefined;
        throw e;
      }));
    let key: Promise<Buffer> | undefined;
    const signingKey = () =>
      (key ??= (async () => {
        const secrets = ctx.service(SecretsService);
        const read = async () =>
          (await ctx.db.selectFrom('files_key').select('sealed').where('id', '=', 'sign').executeTakeFirst())
            ?.sealed as string | undefined;
        let sealed = await read();
        if (!sealed) {
          await ctx.db
            .insertInto('files_key')
            .values({ id: 'sign', sealed: secrets.encrypt(randomBytes(32).toString('base64')) })
            .onConflict((oc) => oc.column('id').doNothing())
            .execute();
          sealed = (await read())!;
        }
        return Buffer.from(secrets.decrypt(sealed), 'base64');
      })());
    const files = makeFiles(ctx, settings, getStore, signingKey);
    ctx.provide(FilesService, files);
    // Workflow runs: a Start field of type file given an uploaded file's id gets its signed URL (URLs pass as they are).
    // Another space's file id is not resolved (the value stays an id, which opens nothing).
    ctx.tap(FileValues, 'files', async (value, spaceId) => {
      if (!/^\d{1,32}$/.test(value)) return undefined;
      const f = await files.info(value);
      return f && f.space_id === spaceId ? files.url(f.id) : undefined;
    });
    registerRoutes(ctx, files, settings);
  },
  async start(ctx) {
    const kind = ctx.registry(ObjectStores).get(ctx.config.store);
    if (!kind) throw new Error(`files.store names '${ctx.config.store}', which no extension provides.`);
    if (ctx.host.distributed && !kind.shared)
      ctx.logger.warn(
        `files are kept in the '${kind.key}' store, which processes on other machines cannot read; configure files.store: s3 for several machines.`,
      );
  },
});
