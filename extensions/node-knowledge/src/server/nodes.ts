// Knowledge nodes (spec codes: retrieve 6, write 27, delete 60) on the space's knowledge bases.
import type { NodeRunContext, NodeTypeDefinition } from '@tessera/workflow-sdk';
import { DocumentStatus, SearchType, type Knowledge } from '@tessera/ext-knowledge/shared';
import { z } from 'zod';

export const RetrieveSettings = z.object({
  dataset_list: z.array(z.string().min(1)).min(1, 'Choose at least one knowledge base.').max(20),
  top_k: z.number().int().min(1).max(50).default(5),
  min_score: z.number().min(0).max(1).default(0),
  /** Coze's SearchType: semantic 0, hybrid 1, full text 20. */
  strategy: z
    .union([z.literal(SearchType.Semantic), z.literal(SearchType.Hybrid), z.literal(SearchType.FullText)])
    .default(SearchType.Hybrid),
  /** Coze's useRerank: a reranking model of the space orders what was found. */
  rerank_model_id: z.string().max(32).default(''),
});
export const WriteSettings = z.object({
  dataset_id: z.string().min(1, 'Choose a knowledge base to write to.'),
  /** Wait until the document is indexed (later nodes find it), up to `wait_seconds`. */
  wait_seconds: z.number().int().min(0).max(600).default(120),
});
export const DeleteSettings = z.object({ dataset_id: z.string().default('') });

const label = (en: string, zh: string) => ({ 'en-US': en, 'zh-CN': zh });
const text = (v: unknown) =>
  v === undefined || v === null
    ? ''
    : typeof v === 'string'
      ? v
      : typeof v === 'object'
        ? JSON.stringify(v)
        : String(v);

export function knowledgeNodes(knowledge: () => Knowledge): NodeTypeDefinition[] {
  const own = async (ctx: NodeRunContext, id: string) => {
    const d = await knowledge().dataset(id);
    if (!d || d.space_id !== ctx.spaceId)
      throw new Error(`The knowledge base ${id} is not in this space (was it deleted?).`);
    return d;
  };
  return [
    {
      key: 'knowledge_retrieve',
      code: 6,
      category: 'data',
      label: label('Knowledge retrieval', '知识库检索'),
      description: label(
        'Finds the slices of the chosen knowledge bases that best match the query.',
        '在选定的知识库中，根据输入召回最匹配的内容。',
      ),
      settings: RetrieveSettings,
      outputsOf: () => [{ name: 'outputList', type: 'array', items: 'object' }],
      async execute(ctx) {
        const s = ctx.settings as z.infer<typeof RetrieveSettings>;
        for (const id of s.dataset_list) await own(ctx, id);
        const query = text(ctx.inputs.Query ?? ctx.inputs.query);
        if (!query.trim()) return { outputs: { outputList: [] } };
        const r = await knowledge().retrieve({
          spaceId: ctx.spaceId,
          datasetIds: s.dataset_list,
          query,
          topK: s.top_k,
          minScore: s.min_score,
          searchType: s.strategy,
          rerankModelId: s.rerank_model_id || undefined,
          signal: ctx.signal,
        });
        ctx.log(`${r.mode}: ${r.slices.length} slice(s)${r.note ? ` (${r.note})` : ''}`);
        return {
          outputs: {
            outputList: r.slices.map((x) => ({
              output: x.content,
              score: x.score,
              document_name: x.document_name,
              document_id: x.document_id,
              slice_id: x.slice_id,
              ...(x.url ? { url: x.url } : {}),
            })),
          },
        };
      },
    },
    {
      key: 'knowledge_write',
      repeatSafe: false,
      code: 27,
      category: 'data',
      label: label('Knowledge writing', '知识库写入'),
      description: label(
        'Adds a document (an uploaded file, a web page URL or text) to a text knowledge base.',
        '向文本知识库添加文档（上传的文件、网页地址或文本）。',
      ),
      settings: WriteSettings,
      outputsOf: () => [
        { name: 'documentId', type: 'string' },
        { name: 'fileName', type: 'string' },
        { name: 'fileUrl', type: 'string' },
      ],
      async execute(ctx) {
        const s = ctx.settings as z.infer<typeof WriteSettings>;
        await own(ctx, s.dataset_id);
        const v = ctx.inputs.knowledge ?? ctx.inputs.file ?? ctx.inputs.text;
        const ref =
          typeof v === 'object' && v !== null
            ? text(
                (v as { file_id?: string; id?: string; url?: string }).file_id ??
                  (v as { id?: string }).id ??
                  (v as { url?: string }).url,
              )
            : text(v);
        if (!ref.trim()) throw new Error('Give the node a file, a URL or text in its input "knowledge".');
        const input = /^\d{6,32}$/.test(ref.trim())
          ? { fileId: ref.trim() }
          : /^https?:\/\//i.test(ref.trim())
            ? { url: ref.trim() }
            : { text: ref, name: ref.trim().slice(0, 40) };
        const doc = await knowledge().addDocument({ datasetId: s.dataset_id, userId: ctx.userId, ...input });
        const until = Date.now() + s.wait_seconds * 1000;
        for (;;) {
          const p = await knowledge().documentStatus(doc.document_id);
          if (!p || p.status === DocumentStatus.Enable) break;
          if (p.status === DocumentStatus.Failed)
            throw new Error(`The document "${doc.name}" could not be added: ${p.status_descript}`);
          if (Date.now() > until || ctx.signal.aborted) {
            ctx.log('still processing; it is indexed in the background');
            break;
          }
          await new Promise((r) => setTimeout(r, 100));
        }
        return {
          outputs: { documentId: doc.document_id, fileName: doc.name, fileUrl: 'url' in input ? input.url : '' },
        };
      },
    },
    {
      key: 'knowledge_delete',
      repeatSafe: false,
      code: 60,
      category: 'data',
      label: label('Knowledge delete', '知识库删除'),
      description: label('Deletes a document from a knowledge base of the space.', '删除空间知识库中的一个文档。'),
      settings: DeleteSettings,
      outputsOf: () => [{ name: 'isSuccess', type: 'boolean' }],
      async execute(ctx) {
        const id = text(ctx.inputs.documentID ?? ctx.inputs.document_id).trim();
        if (!id) throw new Error('Give the node the document id in its input "documentID".');
        return { outputs: { isSuccess: await knowledge().deleteDocument(id, ctx.spaceId) } };
      },
    },
  ];
}
