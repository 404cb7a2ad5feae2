// Coze's knowledge open API, as the @coze/api SDK calls it: /v1/datasets ... and
// /open_api/knowledge/document/... (whose answers carry their fields beside code and msg).
import { badRequest, httpUrl } from '@tessera/sdk';
import { containsText, type ServerContext } from '@tessera/sdk/server';
import { FilesService } from '@tessera/ext-files/shared';
import { z } from 'zod';
import {
  DatasetCreated,
  NoAnswer,
  OpenDatasetList,
  OpenDocumentPage,
  OpenDocuments,
  OpenDone,
  OpenPhotoPage,
  Progress,
} from '../shared/answers.ts';
import { DocumentSource, FormatType } from '../shared/index.ts';
import type { registerRoutes } from './routes.ts';
import type { DocumentInput, KnowledgeCore } from './service.ts';
import { now, type DatasetRow, type DocumentRow, type KnowledgeStore, knowledgeDb } from './store.ts';
import { datasetView, documentView, progressView } from './views.ts';

const Id = z.coerce.string().min(1).max(32);
const ok = <T extends object>(fields: T) => ({ code: 0, msg: '', ...fields });

export function registerOpenApi(
  ctx: ServerContext<unknown>,
  store: KnowledgeStore,
  core: KnowledgeCore,
  studio: ReturnType<typeof registerRoutes>,
) {
  const datasetSpace = async (req: { params: { dataset_id?: string }; body: { dataset_id?: string } }) =>
    (await store.dataset(String(req.params?.dataset_id ?? req.body?.dataset_id ?? ''))).space_id;
  const documentSpace = async (req: { body: { document_id?: string; document_ids?: string[] } }) => {
    const id = String(req.body?.document_id ?? req.body?.document_ids?.[0] ?? '');
    return (await store.document(id)).space_id;
  };
  const views = async (rows: DatasetRow[]) => {
    const stats = await core.stats(rows.map((r) => r.id));
    return rows.map((r) => datasetView(r, stats.get(r.id)!));
  };
  const iconOf = async (fileId: string | undefined, spaceId: string) =>
    fileId ? ((await ctx.service(FilesService).resolve(fileId, spaceId)).file?.id ?? '') : undefined;

  ctx.route({
    method: 'POST',
    path: '/v1/datasets',
    response: DatasetCreated,
    auth: { space: { from: 'body', field: 'space_id' } },
    permission: 'knowledge.write',
    summary: 'Create a knowledge base (format_type 0 text, 1 table, 2 image); file_id: an uploaded icon',
    body: z.object({
      name: z.string().trim().min(1, 'Give the knowledge base a name.').max(100),
      space_id: Id,
      format_type: z.number().int().min(0).max(2).default(0),
      description: z.string().max(2000).default(''),
      file_id: Id.optional(),
    }),
    handler: async ({ body, caller }) => {
      const d = await core.createDataset({
        spaceId: body.space_id,
        userId: caller!.userId,
        name: body.name,
        description: body.description,
        format_type: body.format_type,
        icon_uri: (await iconOf(body.file_id, body.space_id)) ?? '',
      });
      return { dataset_id: d.id };
    },
  });

  ctx.route({
    method: 'GET',
    path: '/v1/datasets',
    response: OpenDatasetList,
    auth: { space: { from: 'query', field: 'space_id' } },
    permission: 'knowledge.read',
    summary: 'Knowledge bases of a space: name (part of it), format_type, page_num, page_size',
    query: z.object({
      space_id: Id,
      name: z.string().max(100).optional(),
      format_type: z.coerce.number().int().optional(),
      page_num: z.coerce.number().int().min(1).default(1),
      page_size: z.coerce.number().int().min(1).max(300).default(10),
    }),
    handler: async ({ query }) => {
      let q = knowledgeDb(ctx).selectFrom('knowledge_dataset').where('space_id', '=', query.space_id);
      if (query.name?.trim()) q = q.where(containsText('name', query.name.trim()));
      if (query.format_type !== undefined) q = q.where('format_type', '=', query.format_type);
      const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
      const page = await q
        .selectAll()
        .orderBy('updated_at', 'desc')
        .orderBy('id', 'desc')
        .limit(query.page_size)
        .offset((query.page_num - 1) * query.page_size)
        .execute();
      return { dataset_list: await views(page), total_count: total };
    },
  });

  ctx.route({
    method: 'PUT',
    path: '/v1/datasets/:dataset_id',
    response: NoAnswer,
    auth: { space: datasetSpace },
    permission: 'knowledge.write',
    summary: "Change a knowledge base's name, description and icon (file_id)",
    params: z.object({ dataset_id: Id }),
    body: z.object({
      name: z.string().trim().min(1, 'Give the knowledge base a name.').max(100),
      description: z.string().max(2000).optional(),
      file_id: Id.optional(),
    }),
    handler: async ({ params, body }) => {
      const d = await store.dataset(params.dataset_id);
      const icon = await iconOf(body.file_id, d.space_id);
      await knowledgeDb(ctx)
        .updateTable('knowledge_dataset')
        .set({
          name: body.name,
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(icon !== undefined ? { icon_uri: icon } : {}),
          updated_at: now(),
        })
        .where('id', '=', d.id)
        .execute();
      return {};
    },
  });

  ctx.route({
    method: 'DELETE',
    path: '/v1/datasets/:dataset_id',
    response: NoAnswer,
    auth: { space: datasetSpace },
    permission: 'knowledge.write',
    summary: 'Delete a knowledge base with its documents',
    params: z.object({ dataset_id: Id }),
    handler: async ({ params }) => {
      await core.deleteDataset(await store.dataset(params.dataset_id));
      return {};
    },
  });

  ctx.route({
    method: 'POST',
    path: '/v1/datasets/:dataset_id/process',
    response: Progress,
    auth: { space: datasetSpace },
    permission: 'knowledge.read',
    summary: 'How the processing of documents goes',
    params: z.object({ dataset_id: Id }),
    body: z.object({ document_ids: z.array(Id).min(1).max(100) }),
    handler: async ({ params, body }) => {
      const d = await store.dataset(params.dataset_id);
      const docs = await studio.docsIn(body.document_ids, d.space_id);
      return { data: docs.map((x) => progressView(x)) };
    },
  });

  ctx.route({
    method: 'GET',
    path: '/v1/datasets/:dataset_id/images',
    response: OpenPhotoPage,
    auth: { space: datasetSpace },
    permission: 'knowledge.read',
    summary: 'Images of an image knowledge base: page_num, page_size, keyword, has_caption',
    params: z.object({ dataset_id: Id }),
    query: z.object({
      page_num: z.coerce.number().int().min(1).default(1),
      page_size: z.coerce.number().int().min(1).max(299).default(10),
      keyword: z.string().max(100).optional(),
      has_caption: z.enum(['true', 'false']).optional(),
    }),
    handler: async ({ params, query }) => {
      const d = await store.dataset(params.dataset_id);
      const r = await studio.photos(d.id, d.space_id, query.page_num, query.page_size, {
        keyword: query.keyword,
        has_caption: query.has_caption === undefined ? undefined : query.has_caption === 'true',
      });
      return { photo_infos: r.photo_infos, total_count: r.total };
    },
  });

  ctx.route({
    method: 'PUT',
    path: '/v1/datasets/:dataset_id/images/:document_id',
    response: NoAnswer,
    auth: { space: datasetSpace },
    permission: 'knowledge.write',
    summary: "Set an image's caption",
    params: z.object({ dataset_id: Id, document_id: Id }),
    body: z.object({ caption: z.string().max(4000) }),
    handler: async ({ params, body }) => {
      const doc = await store.document(params.document_id);
      if (doc.dataset_id !== params.dataset_id)
        throw badRequest(`The document ${params.document_id} is not in the knowledge base ${params.dataset_id}.`);
      await studio.setCaption(doc, body.caption);
      return {};
    },
  });

  // ---- documents (answers carry their fields beside code and msg)

  const SourceInfo = z.object({
    file_base64: z
      .string()
      .max(30 * 1024 * 1024)
      .optional(),
    file_type: z.string().max(16).optional(),
    web_url: httpUrl('the web page').optional(),
    document_source: z.number().int().optional(),
    source_file_id: Id.optional(),
    custom_content: z.string().max(2_000_000).optional(),
  });
  const UpdateRule = z.object({
    update_type: z.number().int().min(0).max(1).default(0),
    update_interval: z.number().int().min(0).max(30).default(0),
  });

  ctx.route({
    method: 'POST',
    path: '/open_api/knowledge/document/create',
    response: OpenDocuments,
    auth: { space: datasetSpace },
    permission: 'knowledge.write',
    rawResponse: true,
    summary:
      'Add documents: files (base64 or an uploaded file id), web pages (document_source 1) or text; processed in the background',
    body: z.object({
      dataset_id: Id,
      document_bases: z
        .array(
          z.object({
            name: z.string().max(255).default(''),
            source_info: SourceInfo,
            update_rule: UpdateRule.optional(),
            caption: z.string().max(4000).optional(),
          }),
        )
        .min(1)
        .max(20),
      chunk_strategy: z.record(z.string(), z.unknown()).optional(),
      format_type: z.number().int().optional(),
    }),
    handler: async ({ body, caller }) => {
      const d = await store.dataset(body.dataset_id);
      const files = ctx.service(FilesService);
      const inputs: DocumentInput[] = [];
      for (const b of body.document_bases) {
        const s = b.source_info;
        const rule = b.update_rule
          ? { update_type: b.update_rule.update_type, update_interval: b.update_rule.update_interval || undefined }
          : undefined;
        if (s.web_url || s.document_source === DocumentSource.Web) {
          if (!s.web_url) throw badRequest(`"${b.name}": a web page needs its web_url.`);
          inputs.push({ name: b.name, web_url: s.web_url, update_rule: rule });
        } else if (s.source_file_id) inputs.push({ name: b.name, file_id: s.source_file_id, caption: b.caption });
        else if (s.file_base64) {
          const ext = (s.file_type ?? '').replace(/^\./, '').toLowerCase();
          const name = b.name || `document.${ext || 'txt'}`;
          const f = await files.put({
            spaceId: d.space_id,
            userId: caller!.userId,
            fileName: /\.[a-z0-9]+$/i.test(name) ? name : `${name}.${ext || 'txt'}`,
            data: Buffer.from(s.file_base64, 'base64'),
          });
          inputs.push({ name: b.name || f.file_name, file_id: f.id, caption: b.caption });
        } else if (s.custom_content !== undefined) inputs.push({ name: b.name, custom_content: s.custom_content });
        else throw badRequest(`"${b.name}": give source_info.file_base64 with file_type, source_file_id, or web_url.`);
      }
      const docs = await core.addDocuments(d, caller!.userId, inputs, body.chunk_strategy);
      return ok({ document_infos: docs.map(openDocument) });
    },
  });

  ctx.route({
    method: 'POST',
    path: '/open_api/knowledge/document/update',
    response: OpenDone,
    auth: { space: documentSpace },
    permission: 'knowledge.write',
    rawResponse: true,
    summary: "Rename a document or change a web page's update rule",
    body: z.object({
      document_id: Id,
      document_name: z.string().trim().min(1).max(255).optional(),
      update_rule: UpdateRule.optional(),
    }),
    handler: async ({ body }) => {
      await store.setDocument((await store.document(body.document_id)).id, {
        ...(body.document_name ? { name: body.document_name } : {}),
        ...(body.update_rule ? { update_rule: JSON.stringify(body.update_rule) } : {}),
      });
      return ok({});
    },
  });

  ctx.route({
    method: 'POST',
    path: '/open_api/knowledge/document/delete',
    response: OpenDone,
    auth: { space: documentSpace },
    permission: 'knowledge.write',
    rawResponse: true,
    summary: 'Delete documents',
    body: z.object({ document_ids: z.array(Id).min(1).max(100) }),
    handler: async ({ body, spaceId }) => {
      for (const d of await studio.docsIn(body.document_ids, spaceId!)) await core.deleteDocument(d);
      return ok({});
    },
  });

  ctx.route({
    method: 'POST',
    path: '/open_api/knowledge/document/list',
    response: OpenDocumentPage,
    auth: { space: datasetSpace },
    permission: 'knowledge.read',
    rawResponse: true,
    summary: 'Documents of a knowledge base: page (from 1), page_size',
    body: z.object({
      dataset_id: Id,
      page: z.coerce.number().int().min(1).default(1),
      page_size: z.coerce.number().int().min(1).max(100).optional(),
      size: z.coerce.number().int().min(1).max(100).optional(),
    }),
    handler: async ({ body }) => {
      const size = body.page_size ?? body.size ?? 10;
      const q = knowledgeDb(ctx).selectFrom('knowledge_document').where('dataset_id', '=', body.dataset_id);
      const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = await q
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(size)
        .offset((body.page - 1) * size)
        .execute();
      return ok({ document_infos: rows.map(openDocument), total });
    },
  });
}

function openDocument(d: DocumentRow) {
  const v = documentView(d);
  return { ...v, tos_uri: d.file_id, format_type: Number(d.format_type ?? FormatType.Text) };
}
