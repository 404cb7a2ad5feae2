// The knowledge API of the studio (Coze's /api/knowledge/... names): datasets, documents, slices,
// previews and retrieval tests.
import { badRequest } from '@tessera/sdk';
import { JobQueueService, ResourceReferences, containsText, type ServerContext } from '@tessera/sdk/server';
import { ModelsService } from '@tessera/ext-models/shared';
import { FilesService } from '@tessera/ext-files/shared';
import { DocumentStatus, FormatType, SliceStatus, type Knowledge, type VectorIndex } from '../shared/index.ts';
import { embedTexts } from './embed.ts';
import { PROCESS_JOB } from './process.ts';
import type { KnowledgeCore } from './service.ts';
import { now, type DatasetRow, type DocumentRow, type KnowledgeStore, type SliceRow } from './store.ts';
import { datasetView, documentView, progressView, sliceView } from './views.ts';
import {
  CreateDataset,
  CreateDocuments,
  CreateSlice,
  DatasetDetail,
  DatasetRefs,
  DeleteDataset,
  DeleteDocuments,
  DeleteSlices,
  GetIcon,
  GetProgress,
  ListDatasets,
  ListDocuments,
  ListPhotos,
  ListSlices,
  PreviewDocument,
  RefreshDocument,
  ResegmentDocuments,
  RetrieveTest,
  SetCaption,
  UpdateDataset,
  UpdateDocument,
  UpdateSlice,
} from '../shared/api.ts';

const inSpace = { space: { from: 'body' as const, field: 'space_id' } };

export function registerRoutes(
  ctx: ServerContext<unknown>,
  store: KnowledgeStore,
  core: KnowledgeCore,
  knowledge: Knowledge,
  vectors: () => Promise<VectorIndex>,
) {
  const checkModel = async (spaceId: string, modelId: string) => {
    const models = ctx.optionalService(ModelsService);
    if (!models) throw badRequest('Embedding models need the models extension, which is not running.');
    const m = await models.get(spaceId, modelId);
    if (m.kind !== 'embedding')
      throw badRequest(`${m.display_name || m.model_name} is a chat model; choose an embedding model.`);
  };
  const process = (documentId: string) =>
    ctx.service(JobQueueService).enqueue(PROCESS_JOB, { document_id: documentId });
  const views = async (rows: DatasetRow[], withRefs = false) => {
    const stats = await core.stats(rows.map((r) => r.id));
    return Promise.all(
      rows.map(async (r) =>
        datasetView(r, {
          ...stats.get(r.id)!,
          ...(withRefs
            ? { bot_used_count: (await referencesOf(r.id, r.space_id)).filter((x) => x.kind === 'bot').length }
            : {}),
        }),
      ),
    );
  };
  /** A document of the space, through its dataset. */
  const docsIn = async (ids: string[], spaceId: string) => {
    const docs = ids.length
      ? await store.db
          .selectFrom('knowledge_document')
          .selectAll()
          .where('id', 'in', ids)
          .where('space_id', '=', spaceId)
          .execute()
      : [];
    if (docs.length !== new Set(ids).size) throw badRequest('Some of these documents are not in this space.');
    return docs;
  };
  const sliceIn = async (id: string, spaceId: string): Promise<SliceRow> => {
    const s = await store.slice(id);
    await store.document(s.document_id, spaceId);
    return s;
  };

  ctx.route({
    ...CreateDataset,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      if (body.embedding_model_id) await checkModel(body.space_id, body.embedding_model_id);
      const d = await core.createDataset({ spaceId: body.space_id, userId: caller!.userId, ...body });
      return { dataset_id: d.id };
    },
  });

  ctx.route({
    ...ListDatasets,
    auth: inSpace,
    handler: async ({ body }) => {
      let q = store.db.selectFrom('knowledge_dataset').where('space_id', '=', body.space_id);
      if (body.filter.name?.trim()) q = q.where(containsText('name', body.filter.name.trim()));
      if (body.filter.format_type !== undefined) q = q.where('format_type', '=', body.filter.format_type);
      if (body.filter.dataset_ids?.length) q = q.where('id', 'in', body.filter.dataset_ids);
      const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = await q
        .selectAll()
        .orderBy(body.order_field === 1 ? 'created_at' : 'updated_at', body.order_type === 2 ? 'asc' : 'desc')
        .orderBy('id', 'desc')
        .limit(body.size)
        .offset((body.page - 1) * body.size)
        .execute();
      return { dataset_list: await views(rows), total };
    },
  });

  ctx.route({
    ...DatasetDetail,
    auth: inSpace,
    handler: async ({ body }) => {
      const rows = await store.db
        .selectFrom('knowledge_dataset')
        .selectAll()
        .where('space_id', '=', body.space_id)
        .where('id', 'in', body.dataset_ids)
        .execute();
      return { dataset_details: Object.fromEntries((await views(rows, true)).map((v) => [v.dataset_id, v])) };
    },
  });

  ctx.route({
    ...UpdateDataset,
    auth: inSpace,
    handler: async ({ body }) => {
      const d = await store.dataset(body.dataset_id, body.space_id);
      if (body.name && body.name.toLowerCase() !== d.name.toLowerCase()) {
        const taken = await store.db
          .selectFrom('knowledge_dataset')
          .select('id')
          .where('space_id', '=', d.space_id)
          .where('id', '<>', d.id)
          .where('name', '=', body.name)
          .executeTakeFirst();
        if (taken)
          throw badRequest(`This space already has a knowledge base named "${body.name}". Choose another name.`);
      }
      const modelChanged = body.embedding_model_id !== undefined && body.embedding_model_id !== d.embedding_model_id;
      if (modelChanged && body.embedding_model_id) await checkModel(d.space_id, body.embedding_model_id);
      await store.db
        .updateTable('knowledge_dataset')
        .set({
          ...(body.name ? { name: body.name } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(body.icon_uri !== undefined ? { icon_uri: body.icon_uri } : {}),
          ...(modelChanged ? { embedding_model_id: body.embedding_model_id } : {}),
          updated_at: now(),
        })
        .where('id', '=', d.id)
        .execute();
      if (modelChanged) {
        // Vectors of another model do not compare: drop them and embed every document again.
        await (await vectors()).dropDataset(d.id);
        const docs = await store.db
          .selectFrom('knowledge_document')
          .selectAll()
          .where('dataset_id', '=', d.id)
          .where('status', '=', DocumentStatus.Enable)
          .execute();
        for (const doc of docs) await core.resegment([doc], JSON.parse(doc.chunk_strategy));
      }
      return {};
    },
  });

  ctx.route({
    ...DeleteDataset,
    auth: inSpace,
    handler: async ({ body }) => {
      await core.deleteDataset(await store.dataset(body.dataset_id, body.space_id));
      return {};
    },
  });

  /** The bots and workflows of the space that use a knowledge base (each kind's finder answers for its own). */
  const referencesOf = async (id: string, spaceId: string) =>
    (
      await Promise.all(
        ctx
          .registry(ResourceReferences)
          .list()
          .map((f) => f.find({ id, spaceId }).catch(() => [])),
      )
    ).flat();

  ctx.route({
    ...DatasetRefs,
    auth: inSpace,
    handler: async ({ body }) => {
      const d = await store.dataset(body.dataset_id, body.space_id);
      const refs = await referencesOf(d.id, d.space_id);
      return { bots: refs.filter((r) => r.kind === 'bot'), references: refs };
    },
  });

  ctx.route({
    ...GetIcon,
    auth: 'user',
    handler: async ({ body }) => {
      const uri = `/static/knowledge/${body.format_type === FormatType.Table ? 'table' : body.format_type === FormatType.Image ? 'image' : 'text'}.svg`;
      return { icon: { uri, url: uri } };
    },
  });

  // ---- documents

  ctx.route({
    ...CreateDocuments,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const d = await store.dataset(body.dataset_id, body.space_id);
      const docs = await core.addDocuments(d, caller!.userId, body.document_bases, body.chunk_strategy);
      return { document_infos: docs.map(documentView) };
    },
  });

  ctx.route({
    ...PreviewDocument,
    auth: inSpace,
    handler: async ({ body }) => {
      const d = body.dataset_id
        ? await store.dataset(body.dataset_id, body.space_id)
        : { space_id: body.space_id, format_type: body.format_type };
      return core.preview(d, body.document, body.chunk_strategy);
    },
  });

  ctx.route({
    ...ListDocuments,
    auth: inSpace,
    handler: async ({ body }) => {
      await store.dataset(body.dataset_id, body.space_id);
      let q = store.db.selectFrom('knowledge_document').where('dataset_id', '=', body.dataset_id);
      if (body.keyword?.trim()) q = q.where(containsText('name', body.keyword.trim()));
      if (body.document_ids?.length) q = q.where('id', 'in', body.document_ids);
      const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = await q
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(body.size)
        .offset((body.page - 1) * body.size)
        .execute();
      return { document_infos: rows.map(documentView), total };
    },
  });

  ctx.route({
    ...UpdateDocument,
    auth: inSpace,
    handler: async ({ body }) => {
      const doc = await store.document(body.document_id, body.space_id);
      await store.setDocument(doc.id, {
        ...(body.document_name ? { name: body.document_name } : {}),
        ...(body.table_meta ? { table_meta: JSON.stringify(body.table_meta) } : {}),
        ...(body.update_rule ? { update_rule: JSON.stringify(body.update_rule) } : {}),
      });
      // Other columns searched: the rows are indexed again.
      if (body.table_meta && Number(doc.format_type) === FormatType.Table) {
        await store.setDocument(doc.id, { status: DocumentStatus.Resegment, progress: 0 });
        await process(doc.id);
      }
      return { document_info: documentView(await store.document(doc.id)) };
    },
  });

  ctx.route({
    ...DeleteDocuments,
    auth: inSpace,
    handler: async ({ body }) => {
      for (const d of await docsIn(body.document_ids, body.space_id)) await core.deleteDocument(d);
      return {};
    },
  });

  ctx.route({
    ...ResegmentDocuments,
    auth: inSpace,
    handler: async ({ body }) => {
      await store.dataset(body.dataset_id, body.space_id);
      const docs = await docsIn(body.document_ids, body.space_id);
      await core.resegment(docs, body.chunk_strategy);
      return { document_infos: docs.map((d) => ({ document_id: d.id, name: d.name })) };
    },
  });

  ctx.route({
    ...RefreshDocument,
    auth: inSpace,
    handler: async ({ body }) => {
      const doc = await store.document(body.document_id, body.space_id);
      if (!doc.web_url) throw badRequest(`"${doc.name}" is not a web page.`);
      await store.setDocument(doc.id, { status: DocumentStatus.Refreshing, progress: 0, status_descript: '' });
      await process(doc.id);
      return {};
    },
  });

  ctx.route({
    ...GetProgress,
    auth: inSpace,
    handler: async ({ body }) => ({
      data: (await docsIn(body.document_ids, body.space_id)).map((d) => progressView(d)),
    }),
  });

  // ---- slices

  ctx.route({
    ...ListSlices,
    auth: inSpace,
    handler: async ({ body }) => {
      if (!body.document_id && !body.dataset_id)
        throw badRequest('Name the document (document_id) or the knowledge base (dataset_id).');
      let q = store.db.selectFrom('knowledge_slice');
      if (body.document_id) {
        await store.document(body.document_id, body.space_id);
        q = q.where('document_id', '=', body.document_id);
      } else {
        await store.dataset(body.dataset_id!, body.space_id);
        q = q.where('dataset_id', '=', body.dataset_id!);
      }
      if (body.keyword?.trim()) q = q.where(containsText('content', body.keyword.trim()));
      const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = await q
        .selectAll()
        .orderBy(body.sort_field, body.is_asc ? 'asc' : 'desc')
        .orderBy('sequence')
        .limit(body.page_size)
        .offset(body.sequence)
        .execute();
      return { slices: rows.map(sliceView), total: String(total), hasmore: body.sequence + rows.length < total };
    },
  });

  const reembed = async (doc: DocumentRow, slices: { id: string; index: string }[]) => {
    const d = await store.dataset(doc.dataset_id);
    if (!d.embedding_model_id || !slices.length) return;
    const vecs = await embedTexts(
      ctx,
      d.space_id,
      d.embedding_model_id,
      slices.map((s) => s.index),
    );
    await (
      await vectors()
    ).upsert(
      d.id,
      slices.map((s, i) => ({ id: s.id, vector: vecs[i] })),
    );
    await store.setSliceStatus(
      slices.map((s) => s.id),
      SliceStatus.FinishVectoring,
    );
  };

  ctx.route({
    ...CreateSlice,
    auth: inSpace,
    handler: async ({ body }) => {
      const doc = await store.document(body.document_id, body.space_id);
      if (Number(doc.format_type) !== FormatType.Text)
        throw badRequest('Slices are added by hand to text documents only.');
      const s = await store.addSlice(doc, body.raw_text, body.sequence);
      await reembed(doc, [{ id: s.id, index: s.content }]);
      return { slice_id: s.id };
    },
  });

  ctx.route({
    ...UpdateSlice,
    auth: inSpace,
    handler: async ({ body }) => {
      const s = await sliceIn(body.slice_id, body.space_id);
      const doc = await store.document(s.document_id);
      if (body.raw_text !== undefined && body.raw_text !== s.content) {
        await store.updateSlice(s, body.raw_text);
        await reembed(doc, [{ id: s.id, index: body.raw_text }]);
      }
      if (body.status !== undefined) {
        const enabled = body.status !== SliceStatus.Deactive;
        const v = await store.db
          .selectFrom('knowledge_vector')
          .select('slice_id')
          .where('slice_id', '=', s.id)
          .executeTakeFirst();
        await store.setSliceStatus(
          [s.id],
          enabled ? (v ? SliceStatus.FinishVectoring : SliceStatus.PendingVectoring) : SliceStatus.Deactive,
        );
      }
      return { slice: sliceView(await store.slice(s.id)) };
    },
  });

  ctx.route({
    ...DeleteSlices,
    auth: inSpace,
    handler: async ({ body }) => {
      const slices = await Promise.all(body.slice_ids.map((id) => sliceIn(id, body.space_id)));
      await store.deleteSlices(slices.map((s) => s.id));
      for (const ds of new Set(slices.map((s) => s.dataset_id)))
        await (
          await vectors()
        ).remove(
          ds,
          slices.filter((s) => s.dataset_id === ds).map((s) => s.id),
        );
      return {};
    },
  });

  // ---- images

  ctx.route({
    ...ListPhotos,
    auth: inSpace,
    handler: async ({ body }) => photos(body.dataset_id, body.space_id, body.page, body.size, body.filter),
  });

  ctx.route({
    ...SetCaption,
    auth: inSpace,
    handler: async ({ body }) => {
      await setCaption(await store.document(body.document_id, body.space_id), body.caption);
      return {};
    },
  });

  async function photos(
    datasetId: string,
    spaceId: string,
    page: number,
    size: number,
    filter: { has_caption?: boolean; keyword?: string },
  ) {
    const d = await store.dataset(datasetId, spaceId);
    if (Number(d.format_type) !== FormatType.Image) throw badRequest('This is not an image knowledge base.');
    let q = store.db.selectFrom('knowledge_document').where('dataset_id', '=', d.id);
    if (filter.has_caption !== undefined)
      q = filter.has_caption ? q.where('caption', '<>', '') : q.where('caption', '=', '');
    if (filter.keyword?.trim())
      q = q.where((eb) =>
        eb.or([containsText('caption', filter.keyword!.trim()), containsText('name', filter.keyword!.trim())]),
      );
    const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
    const rows = await q
      .selectAll()
      .orderBy('created_at', 'desc')
      .limit(size)
      .offset((page - 1) * size)
      .execute();
    const files = ctx.service(FilesService);
    return {
      photo_infos: await Promise.all(
        rows.map(async (r) => ({
          name: r.name,
          document_id: r.id,
          url: r.file_id ? await files.url(r.file_id) : '',
          caption: r.caption,
          create_time: Math.floor(Date.parse(r.created_at) / 1000),
          update_time: Math.floor(Date.parse(r.updated_at) / 1000),
          creator_id: r.creator_id,
          type: r.type,
          size: Number(r.size),
          status: Number(r.status),
          source_type: Number(r.source_type),
        })),
      ),
      total,
    };
  }

  async function setCaption(doc: DocumentRow, caption: string) {
    if (Number(doc.format_type) !== FormatType.Image) throw badRequest(`"${doc.name}" is not an image.`);
    await store.setDocument(doc.id, { caption, status: DocumentStatus.Processing, progress: 0 });
    await process(doc.id);
  }

  // ---- retrieval test

  ctx.route({
    ...RetrieveTest,
    auth: inSpace,
    handler: async ({ body, signal }) => {
      const t0 = performance.now();
      const r = await knowledge.retrieve({
        spaceId: body.space_id,
        datasetIds: body.dataset_ids,
        query: body.query,
        topK: body.top_k,
        minScore: body.min_score,
        searchType: body.search_type,
        rerankModelId: body.rerank_model_id || undefined,
        signal,
      });
      return { ...r, took_ms: Math.round((performance.now() - t0) * 10) / 10 };
    },
  });

  return { photos, setCaption, docsIn };
}
