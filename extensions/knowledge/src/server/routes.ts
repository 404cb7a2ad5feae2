// The knowledge API of the studio (Coze's /api/knowledge/... names): datasets, documents, slices,
// previews and retrieval tests.
import { badRequest, httpUrl, imageRef } from '@tessera/sdk';
import { JobQueueService, ResourceReferences, containsText, type ServerContext } from '@tessera/sdk/server';
import { ModelsService } from '@tessera/ext-models/shared';
import { FilesService } from '@tessera/ext-files/shared';
import { z } from 'zod';
import {
  DocumentStatus,
  FormatType,
  SearchType,
  SliceStatus,
  type Knowledge,
  type VectorIndex,
} from '../shared/index.ts';
import { embedTexts } from './embed.ts';
import { PROCESS_JOB } from './process.ts';
import type { KnowledgeCore } from './service.ts';
import { now, type DatasetRow, type DocumentRow, type KnowledgeStore, type SliceRow } from './store.ts';
import { datasetView, documentView, progressView, sliceView } from './views.ts';
import {
  DatasetCreated,
  DatasetDetails,
  DatasetList,
  DocumentInfos,
  DocumentPage,
  IconAnswer,
  NoAnswer,
  OneDocument,
  OneSlice,
  PhotoPage,
  Preview,
  Progress,
  RefBots,
  Resegmented,
  Retrieval,
  SliceCreated,
  SlicePage,
} from '../shared/answers.ts';

const Id = z.coerce.string().min(1).max(32);
const Name = z.string().trim().min(1, 'Give the knowledge base a name.').max(100);
const inSpace = { space: { from: 'body' as const, field: 'space_id' } };
const Format = z.union([z.literal(FormatType.Text), z.literal(FormatType.Table), z.literal(FormatType.Image)]);
export const DocumentInputSchema = z.object({
  name: z.string().max(255).optional(),
  file_id: Id.optional(),
  web_url: httpUrl('the web page').optional(),
  custom_content: z.string().max(2_000_000).optional(),
  caption: z.string().max(4000).optional(),
  table_meta: z.array(z.record(z.string(), z.unknown())).max(100).optional(),
  update_rule: z
    .object({
      update_type: z.number().int().min(0).max(1).default(0),
      update_interval: z.number().int().min(1).max(30).optional(),
    })
    .optional(),
  table_sheet: z
    .object({
      sheet_id: z.coerce.number().int().min(0).max(100).default(0),
      header_line_idx: z.coerce.number().int().min(0).max(1000).default(0),
      start_line_idx: z.coerce.number().int().min(0).max(100_000).optional(),
    })
    .optional(),
});

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
      ? ((await store.db
          .selectFrom('knowledge_document')
          .selectAll()
          .where('id', 'in', ids)
          .where('space_id', '=', spaceId)
          .execute()) as DocumentRow[])
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
    method: 'POST',
    path: '/api/knowledge/create',
    auth: inSpace,
    summary:
      'Create a knowledge base (text 0, table 1, image 2), with an embedding model for semantic search or none (full text)',
    body: z.object({
      space_id: Id,
      name: Name,
      description: z.string().max(2000).default(''),
      format_type: Format.default(FormatType.Text),
      icon_uri: imageRef().default(''),
      embedding_model_id: z.string().max(32).default(''),
      chunk_strategy: z.record(z.string(), z.unknown()).optional(),
    }),
    response: DatasetCreated,
    handler: async ({ body, caller }) => {
      if (body.embedding_model_id) await checkModel(body.space_id, body.embedding_model_id);
      const d = await core.createDataset({ spaceId: body.space_id, userId: caller!.userId, ...body });
      return { dataset_id: d.id };
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/knowledge/list',
    auth: inSpace,
    summary: 'Knowledge bases of a space: search by name, type, sort, paging',
    body: z.object({
      space_id: Id,
      filter: z
        .object({
          name: z.string().max(100).optional(),
          format_type: z.number().int().optional(),
          dataset_ids: z.array(Id).max(100).optional(),
        })
        .default({}),
      page: z.number().int().min(1).default(1),
      size: z.number().int().min(1).max(100).default(20),
      order_field: z.number().int().min(1).max(2).default(2),
      order_type: z.number().int().min(1).max(2).default(1),
    }),
    response: DatasetList,
    handler: async ({ body }) => {
      let q = store.db.selectFrom('knowledge_dataset').where('space_id', '=', body.space_id);
      if (body.filter.name?.trim()) q = q.where(containsText('name', body.filter.name.trim()));
      if (body.filter.format_type !== undefined) q = q.where('format_type', '=', body.filter.format_type);
      if (body.filter.dataset_ids?.length) q = q.where('id', 'in', body.filter.dataset_ids);
      const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = (await q
        .selectAll()
        .orderBy(body.order_field === 1 ? 'created_at' : 'updated_at', body.order_type === 2 ? 'asc' : 'desc')
        .orderBy('id', 'desc')
        .limit(body.size)
        .offset((body.page - 1) * body.size)
        .execute()) as DatasetRow[];
      return { dataset_list: await views(rows), total };
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/knowledge/detail',
    auth: inSpace,
    summary: 'Knowledge bases by id, with counts of documents, slices and hits',
    body: z.object({ space_id: Id, dataset_ids: z.array(Id).min(1).max(100) }),
    response: DatasetDetails,
    handler: async ({ body }) => {
      const rows = (await store.db
        .selectFrom('knowledge_dataset')
        .selectAll()
        .where('space_id', '=', body.space_id)
        .where('id', 'in', body.dataset_ids)
        .execute()) as DatasetRow[];
      return { dataset_details: Object.fromEntries((await views(rows, true)).map((v) => [v.dataset_id, v])) };
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/knowledge/update',
    auth: inSpace,
    summary: 'Rename a knowledge base, change its description, icon or embedding model (documents are embedded again)',
    body: z.object({
      space_id: Id,
      dataset_id: Id,
      name: Name.optional(),
      description: z.string().max(2000).optional(),
      icon_uri: imageRef().optional(),
      embedding_model_id: z.string().max(32).optional(),
    }),
    response: NoAnswer,
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
        const docs = (await store.db
          .selectFrom('knowledge_document')
          .selectAll()
          .where('dataset_id', '=', d.id)
          .where('status', '=', DocumentStatus.Enable)
          .execute()) as DocumentRow[];
        for (const doc of docs) await core.resegment([doc], JSON.parse(doc.chunk_strategy));
      }
      return {};
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/knowledge/delete',
    auth: inSpace,
    summary: 'Delete a knowledge base with its documents, slices and vectors',
    body: z.object({ space_id: Id, dataset_id: Id }),
    response: NoAnswer,
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
    method: 'POST',
    path: '/api/knowledge/ref_bots',
    auth: inSpace,
    summary: 'What uses a knowledge base: the bots and workflows of the space that name it',
    body: z.object({ space_id: Id, dataset_id: Id }),
    response: RefBots,
    handler: async ({ body }) => {
      const d = await store.dataset(body.dataset_id, body.space_id);
      const refs = await referencesOf(d.id, d.space_id);
      return { bots: refs.filter((r) => r.kind === 'bot'), references: refs };
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/knowledge/icon/get',
    auth: 'user',
    summary: 'The default icon of a knowledge base type',
    body: z.object({ format_type: z.number().int().default(0) }),
    response: IconAnswer,
    handler: async ({ body }) => {
      const uri = `/static/knowledge/${body.format_type === FormatType.Table ? 'table' : body.format_type === FormatType.Image ? 'image' : 'text'}.svg`;
      return { icon: { uri, url: uri } };
    },
  });

  // ---- documents

  ctx.route({
    method: 'POST',
    path: '/api/knowledge/document/create',
    auth: inSpace,
    summary:
      'Add documents (uploaded files, web pages or text) to a knowledge base; each is processed in the background (follow with progress/get)',
    body: z.object({
      space_id: Id,
      dataset_id: Id,
      document_bases: z.array(DocumentInputSchema).min(1).max(50),
      chunk_strategy: z.record(z.string(), z.unknown()).optional(),
    }),
    response: DocumentInfos,
    handler: async ({ body, caller }) => {
      const d = await store.dataset(body.dataset_id, body.space_id);
      const docs = await core.addDocuments(d, caller!.userId, body.document_bases, body.chunk_strategy);
      return { document_infos: docs.map(documentView) };
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/knowledge/document/preview',
    response: Preview,
    auth: inSpace,
    summary: 'The chunks a document would make with a chunking strategy, before it is added',
    body: z.object({
      space_id: Id,
      dataset_id: Id.optional(),
      format_type: Format.default(FormatType.Text),
      document: DocumentInputSchema,
      chunk_strategy: z.record(z.string(), z.unknown()).optional(),
    }),
    handler: async ({ body }) => {
      const d = body.dataset_id
        ? await store.dataset(body.dataset_id, body.space_id)
        : { space_id: body.space_id, format_type: body.format_type };
      return core.preview(d, body.document, body.chunk_strategy);
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/knowledge/document/list',
    auth: inSpace,
    summary: 'Documents of a knowledge base with status and progress: search by name, paging',
    body: z.object({
      space_id: Id,
      dataset_id: Id,
      document_ids: z.array(Id).max(100).optional(),
      keyword: z.string().max(100).optional(),
      page: z.number().int().min(1).default(1),
      size: z.number().int().min(1).max(100).default(50),
    }),
    response: DocumentPage,
    handler: async ({ body }) => {
      await store.dataset(body.dataset_id, body.space_id);
      let q = store.db.selectFrom('knowledge_document').where('dataset_id', '=', body.dataset_id);
      if (body.keyword?.trim()) q = q.where(containsText('name', body.keyword.trim()));
      if (body.document_ids?.length) q = q.where('id', 'in', body.document_ids);
      const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = (await q
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(body.size)
        .offset((body.page - 1) * body.size)
        .execute()) as DocumentRow[];
      return { document_infos: rows.map(documentView), total };
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/knowledge/document/update',
    auth: inSpace,
    summary: "Rename a document, change a table document's columns (which are searched), or a web page's update rule",
    body: z.object({
      space_id: Id,
      document_id: Id,
      document_name: z.string().trim().min(1).max(255).optional(),
      table_meta: z
        .array(
          z.object({
            id: z.coerce.string(),
            column_name: z.string(),
            is_semantic: z.boolean(),
            sequence: z.coerce.string().default('0'),
            column_type: z.number().int().default(1),
            desc: z.string().max(300).optional(),
          }),
        )
        .max(100)
        .optional(),
      update_rule: z
        .object({
          update_type: z.number().int().min(0).max(1),
          update_interval: z.number().int().min(1).max(30).optional(),
        })
        .optional(),
    }),
    response: OneDocument,
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
    method: 'POST',
    path: '/api/knowledge/document/delete',
    auth: inSpace,
    summary: 'Delete documents with their slices',
    body: z.object({ space_id: Id, document_ids: z.array(Id).min(1).max(100) }),
    response: NoAnswer,
    handler: async ({ body }) => {
      for (const d of await docsIn(body.document_ids, body.space_id)) await core.deleteDocument(d);
      return {};
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/knowledge/document/resegment',
    auth: inSpace,
    summary: 'Segment text documents again with another chunking strategy (in the background)',
    body: z.object({
      space_id: Id,
      dataset_id: Id,
      document_ids: z.array(Id).min(1).max(100),
      chunk_strategy: z.record(z.string(), z.unknown()),
    }),
    response: Resegmented,
    handler: async ({ body }) => {
      await store.dataset(body.dataset_id, body.space_id);
      const docs = await docsIn(body.document_ids, body.space_id);
      await core.resegment(docs, body.chunk_strategy);
      return { document_infos: docs.map((d) => ({ document_id: d.id, name: d.name })) };
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/knowledge/document/refresh_document',
    auth: inSpace,
    summary: 'Fetch a web page document again and index what it says now',
    body: z.object({ space_id: Id, document_id: Id }),
    response: NoAnswer,
    handler: async ({ body }) => {
      const doc = await store.document(body.document_id, body.space_id);
      if (!doc.web_url) throw badRequest(`"${doc.name}" is not a web page.`);
      await store.setDocument(doc.id, { status: DocumentStatus.Refreshing, progress: 0, status_descript: '' });
      await process(doc.id);
      return {};
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/knowledge/document/progress/get',
    auth: inSpace,
    summary: 'How the processing of documents goes: percent, status, and the reason when it failed',
    body: z.object({ space_id: Id, document_ids: z.array(Id).min(1).max(100) }),
    response: Progress,
    handler: async ({ body }) => ({
      data: (await docsIn(body.document_ids, body.space_id)).map((d) => progressView(d)),
    }),
  });

  // ---- slices

  ctx.route({
    method: 'POST',
    path: '/api/knowledge/slice/list',
    auth: inSpace,
    summary: 'Slices of a document (or a knowledge base): keyword, sort, paging',
    body: z.object({
      space_id: Id,
      document_id: Id.optional(),
      dataset_id: Id.optional(),
      keyword: z.string().max(200).optional(),
      sequence: z.coerce.number().int().min(0).default(0),
      page_size: z.coerce.number().int().min(1).max(200).default(50),
      sort_field: z.enum(['sequence', 'hit_count', 'char_count', 'updated_at']).default('sequence'),
      is_asc: z.boolean().default(true),
    }),
    response: SlicePage,
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
      const rows = (await q
        .selectAll()
        .orderBy(body.sort_field, body.is_asc ? 'asc' : 'desc')
        .orderBy('sequence')
        .limit(body.page_size)
        .offset(body.sequence)
        .execute()) as SliceRow[];
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
    method: 'POST',
    path: '/api/knowledge/slice/create',
    auth: inSpace,
    summary: 'Add a slice to a text document at a position (1 = first); it is indexed at once',
    body: z.object({
      space_id: Id,
      document_id: Id,
      raw_text: z.string().trim().min(1, 'The slice is empty.').max(20_000),
      sequence: z.coerce.number().int().min(1).optional(),
    }),
    response: SliceCreated,
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
    method: 'POST',
    path: '/api/knowledge/slice/update',
    auth: inSpace,
    summary: "Change a slice's text (indexed again) or enable/disable it (status 1 or 9)",
    body: z.object({
      space_id: Id,
      slice_id: Id,
      raw_text: z.string().trim().min(1, 'The slice is empty.').max(20_000).optional(),
      status: z.union([z.literal(SliceStatus.FinishVectoring), z.literal(SliceStatus.Deactive)]).optional(),
    }),
    response: OneSlice,
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
    method: 'POST',
    path: '/api/knowledge/slice/delete',
    auth: inSpace,
    summary: 'Delete slices',
    body: z.object({ space_id: Id, slice_ids: z.array(Id).min(1).max(200) }),
    response: NoAnswer,
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
    method: 'POST',
    path: '/api/knowledge/photo/list',
    response: PhotoPage,
    auth: inSpace,
    summary: 'Images of an image knowledge base with their captions: keyword, with or without caption',
    body: z.object({
      space_id: Id,
      dataset_id: Id,
      page: z.number().int().min(1).default(1),
      size: z.number().int().min(1).max(100).default(20),
      filter: z.object({ has_caption: z.boolean().optional(), keyword: z.string().max(100).optional() }).default({}),
    }),
    handler: async ({ body }) => photos(body.dataset_id, body.space_id, body.page, body.size, body.filter),
  });

  ctx.route({
    method: 'POST',
    path: '/api/knowledge/photo/caption',
    auth: inSpace,
    summary: "Set an image's caption (what retrieval finds it by)",
    body: z.object({ space_id: Id, document_id: Id, caption: z.string().max(4000) }),
    response: NoAnswer,
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
    const rows = (await q
      .selectAll()
      .orderBy('created_at', 'desc')
      .limit(size)
      .offset((page - 1) * size)
      .execute()) as DocumentRow[];
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
    method: 'POST',
    path: '/api/knowledge/retrieve',
    response: Retrieval,
    auth: inSpace,
    summary:
      'Try retrieval: the slices a question finds in knowledge bases, with scores and which search found them (optionally ordered by a reranking model)',
    body: z.object({
      space_id: Id,
      dataset_ids: z.array(Id).min(1, 'Choose a knowledge base.').max(20),
      query: z.string().trim().min(1, 'Ask something.').max(2000),
      top_k: z.number().int().min(1).max(50).default(5),
      min_score: z.number().min(0).max(1).default(0),
      search_type: z.number().int().default(SearchType.Hybrid),
      rerank_model_id: z.string().max(32).optional(),
    }),
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
