// The knowledge extension (server half): datasets of text, table and image documents; parsing and
// chunking as background jobs; full-text, vector and hybrid retrieval; the studio API and Coze's open API;
// KnowledgeService for the knowledge nodes and the bot skill. Parts: text.ts (words, chunking), parse.ts,
// store.ts (rows and the full-text index), vectors.ts (the embedded vector engine), embed.ts, search.ts,
// process.ts (the job), service.ts, routes.ts, open-api.ts, views.ts.
import { StudioStarted } from '@tessera/sdk';
import { DatabaseService, ResourceKinds, defineExtension, listResourcesOfTable } from '@tessera/sdk/server';
import { TokenPermissions } from '@tessera/ext-identity/shared';
import { FilesService } from '@tessera/ext-files/shared';
import { z } from 'zod';
import { KnowledgeService, VectorStores, type Knowledge, type VectorIndex } from '../shared/index.ts';
import { migrations } from './migrations.ts';
import { registerOpenApi } from './open-api.ts';
import { registerProcessing, resumeInterrupted } from './process.ts';
import { registerRoutes } from './routes.ts';
import { retrieve } from './search.ts';
import { makeKnowledgeCore } from './service.ts';
import { KnowledgeStore, type DatasetRow, knowledgeDb } from './store.ts';
import { embeddedVectors } from './vectors.ts';

const ConfigSchema = z.object({
  /** Which engine keeps slice vectors: 'embedded' (the studio database) or one an extension adds. */
  vectorStore: z.string().default(process.env.TESSERA_VECTOR_STORE ?? 'embedded'),
  vectorConfig: z.record(z.string(), z.unknown()).default({}),
});

/** Each studio's vector index (a process may run several studios, as tests do). */
const indexes = new WeakMap<object, Promise<VectorIndex>>();
const info = (d: DatasetRow) => ({
  dataset_id: d.id,
  space_id: d.space_id,
  name: d.name,
  description: d.description,
  format_type: Number(d.format_type),
  embedding_model_id: d.embedding_model_id,
});

export default defineExtension({
  id: 'knowledge',
  configSchema: ConfigSchema,
  register(ctx) {
    ctx.migrations(migrations);
    ctx.register(VectorStores, embeddedVectors);
    ctx.register(TokenPermissions, {
      key: 'knowledge.read',
      label: { 'en-US': 'Read knowledge bases', 'zh-CN': '读取知识库' },
      group: 'knowledge',
    });
    ctx.register(TokenPermissions, {
      key: 'knowledge.write',
      label: { 'en-US': 'Change knowledge bases', 'zh-CN': '修改知识库' },
      group: 'knowledge',
    });
    const pg = () => ctx.service(DatabaseService).dialect === 'postgres';
    const store = new KnowledgeStore(ctx, pg);
    let index: Promise<VectorIndex> | undefined;
    const vectors = () => {
      if (!index) {
        index = (async () => {
          const kind = ctx.registry(VectorStores).get(ctx.config.vectorStore);
          if (!kind)
            throw new Error(`knowledge.vectorStore names '${ctx.config.vectorStore}', which no extension provides.`);
          return kind.create({
            dataDir: ctx.host.dataDir,
            config: ctx.config.vectorConfig,
            db: knowledgeDb(ctx),
            dialect: pg() ? 'postgres' : 'sqlite',
          });
        })().catch((e) => {
          index = undefined;
          throw e;
        });
        indexes.set(ctx, index);
      }
      return index;
    };
    const core = makeKnowledgeCore(ctx, store, vectors);
    const imageUrl = async (documentId: string) => {
      const d = await store.document(documentId).catch(() => undefined);
      return d?.file_id ? ctx.service(FilesService).url(d.file_id) : undefined;
    };
    const knowledge: Knowledge = {
      async extractText(data, ext) {
        const { parseDocument, TEXT_TYPES, TABLE_TYPES } = await import('./parse.ts');
        const kind = ext.toLowerCase();
        if (!TEXT_TYPES.includes(kind) && !TABLE_TYPES.includes(kind)) return undefined;
        const p = await parseDocument(data, kind);
        return p.kind === 'text' ? p.text : [p.columns, ...p.rows].map((r) => r.join('\t')).join('\n');
      },
      dataset: async (id) => {
        const d = await store.dataset(id).catch(() => undefined);
        return d && info(d);
      },
      list: async (spaceId) =>
        (
          await knowledgeDb(ctx)
            .selectFrom('knowledge_dataset')
            .selectAll()
            .where('space_id', '=', spaceId)
            .orderBy('name')
            .execute()
        ).map(info),
      retrieve: (opts) => retrieve(ctx, store, vectors, opts, imageUrl),
      addDocument: async (input) => {
        const d = await store.dataset(input.datasetId);
        const [doc] = await core.addDocuments(d, input.userId, [
          { name: input.name, file_id: input.fileId, web_url: input.url, custom_content: input.text },
        ]);
        return { document_id: doc.id, name: doc.name };
      },
      documentStatus: async (documentId) => {
        const d = await store.document(documentId).catch(() => undefined);
        return d && { status: Number(d.status), status_descript: d.status_descript, progress: Number(d.progress) };
      },
      deleteDocument: async (documentId, spaceId) => {
        const doc = await store.document(documentId, spaceId).catch(() => undefined);
        if (!doc) return false;
        await core.deleteDocument(doc);
        return true;
      },
    };
    ctx.provide(KnowledgeService, knowledge);
    // Knowledge bases in the library (deleting one there deletes it for good, as here).
    ctx.register(ResourceKinds, {
      kind: 'knowledge',
      list: (q) => listResourcesOfTable(knowledgeDb(ctx), { kind: 'knowledge', table: 'knowledge_dataset' }, q),
      remove: async (id, spaceId) => core.deleteDataset(await store.dataset(id, spaceId)),
    });
    registerProcessing(ctx, store, vectors);
    const studio = registerRoutes(ctx, store, core, knowledge, vectors);
    registerOpenApi(ctx, store, core, studio);
  },
  async stop(ctx) {
    await (await indexes.get(ctx)?.catch(() => undefined))?.close?.();
  },
  async start(ctx) {
    // The engine may come from an extension that requires this one (so starts after it): checked once all have started.
    ctx.on(StudioStarted, () => {
      if (!ctx.registry(VectorStores).get(ctx.config.vectorStore))
        ctx.report(
          new Error(
            `knowledge.vectorStore names '${ctx.config.vectorStore}', which no extension provides (${ctx
              .registry(VectorStores)
              .list()
              .map((k) => k.key)
              .join(', ')} do); searching by vectors fails until it is set right.`,
          ),
        );
    });
    // With several processes a document may be processed elsewhere (the queue keeps its jobs): left alone.
    if (!ctx.host.distributed) {
      const n = await resumeInterrupted(ctx);
      if (n) ctx.logger.info(`knowledge: ${n} document(s) left half-processed are processed again`);
    }
  },
});
