// Processing a document as a background job: read its source (an uploaded file, a web page through the
// outbound guard, text given by hand), parse, chunk, index (full text, then vectors when the dataset has
// an embedding model), with progress kept on the document. A document the studio stopped processing is
// taken up again at the next start; a failure leaves the reason on the document.
import { badRequest, messageOf, parseStoredJson } from '@tessera/sdk';
import { JobQueueService, OutboundHttpService, describeOutboundError, type ServerContext } from '@tessera/sdk/server';
import { FilesService } from '@tessera/ext-files/shared';
import { z } from 'zod';
import {
  ChunkStrategy,
  DocumentSource,
  DocumentStatus,
  FormatType,
  SliceStatus,
  type VectorIndex,
} from '../shared/index.ts';
import { embedTexts } from './embed.ts';
import { htmlText, parseDocument, type Parsed } from './parse.ts';
import { type DocumentRow, type KnowledgeStore, knowledgeDb } from './store.ts';
import { chunk } from './text.ts';

/** A custom table document's rows, and which sheet of a spreadsheet is read from which line, as stored. */
const CustomRows = z.array(z.record(z.string(), z.unknown()));
const SheetSettings = z
  .object({
    sheet_id: z.number().optional(),
    header_line_idx: z.number().optional(),
    start_line_idx: z.number().optional(),
  })
  .loose();

export const PROCESS_JOB = 'knowledge.process';
const EMBED_BATCH = 64;
const MAX_PAGE_BYTES = 5 * 1024 * 1024;

export interface TableColumn {
  id: string;
  column_name: string;
  is_semantic: boolean;
  sequence: string;
  column_type: number;
  desc?: string;
}

/** The text of a web page, its main content only. */
export async function fetchPage(
  ctx: ServerContext<unknown>,
  url: string,
  signal?: AbortSignal,
): Promise<{ text: string; title?: string }> {
  let res: Response;
  try {
    res = await ctx.service(OutboundHttpService).fetch(url, {
      timeoutMs: 20_000,
      maxBytes: MAX_PAGE_BYTES,
      headers: { accept: 'text/html,application/xhtml+xml,text/plain;q=0.8' },
      signal,
    });
  } catch (e) {
    throw badRequest(`The page ${url} cannot be fetched: ${describeOutboundError(e, url)}`);
  }
  if (!res.ok) throw badRequest(`The page ${url} answered ${res.status} ${res.statusText}.`);
  const type = res.headers.get('content-type') ?? '';
  const body = await res.text();
  if (type.includes('text/plain')) return { text: body };
  if (!type.includes('html')) throw badRequest(`The page ${url} is ${type || 'not HTML'}; add it as a file instead.`);
  return htmlText(body);
}

/** What a document's source holds, parsed. */
export async function readSource(
  ctx: ServerContext<unknown>,
  doc: Pick<
    DocumentRow,
    'source_type' | 'file_id' | 'web_url' | 'type' | 'custom_content' | 'format_type' | 'caption' | 'table_sheet'
  >,
  signal?: AbortSignal,
): Promise<Parsed> {
  if (Number(doc.format_type) === FormatType.Image) return { kind: 'text', text: doc.caption };
  if (Number(doc.source_type) === DocumentSource.Web)
    return { kind: 'text', ...(await fetchPage(ctx, doc.web_url, signal)) };
  if (Number(doc.source_type) === DocumentSource.Custom) {
    if (Number(doc.format_type) === FormatType.Table) {
      const rows = parseStoredJson(doc.custom_content ?? '[]', "a table document's rows", CustomRows);
      const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
      return { kind: 'table', columns, rows: rows.map((r) => columns.map((c) => String(r[c] ?? ''))) };
    }
    return { kind: 'text', text: doc.custom_content ?? '' };
  }
  const data = await ctx.service(FilesService).read(doc.file_id);
  const sheet = parseStoredJson(doc.table_sheet || '{}', "a document's sheet settings", SheetSettings);
  return parseDocument(data, doc.type, {
    sheet: sheet.sheet_id,
    headerLine: sheet.header_line_idx,
    startLine: sheet.start_line_idx,
  });
}

/** Chunks of a parsed document: text by the strategy; a table row by row (its semantic columns indexed). */
export function chunksOf(
  doc: DocumentRow,
  parsed: Parsed,
): { chunks: { content: string; index: string }[]; tableMeta?: TableColumn[] } {
  const strategy = ChunkStrategy.parse(JSON.parse(doc.chunk_strategy || '{}'));
  if (parsed.kind === 'table') {
    const known = JSON.parse(doc.table_meta || '[]') as TableColumn[];
    const meta: TableColumn[] = parsed.columns.map(
      (name, i) =>
        known.find((k) => k.column_name === name) ?? {
          id: String(i + 1),
          column_name: name,
          is_semantic: i === 0,
          sequence: String(i),
          column_type: 1,
        },
    );
    const semantic = meta.filter((m) => m.is_semantic);
    const indexed = semantic.length ? semantic : meta;
    return {
      tableMeta: meta,
      chunks: parsed.rows.map((r) => {
        const row = Object.fromEntries(parsed.columns.map((c, i) => [c, r[i] ?? '']));
        return { content: JSON.stringify(row), index: indexed.map((m) => row[m.column_name] ?? '').join('\n') };
      }),
    };
  }
  if (Number(doc.format_type) === FormatType.Image)
    return {
      chunks: parsed.text.trim() ? [{ content: parsed.text.trim(), index: `${doc.name}\n${parsed.text}` }] : [],
    };
  return { chunks: chunk(parsed.text, strategy).map((c) => ({ content: c.content, index: c.content })) };
}

export function registerProcessing(
  ctx: ServerContext<unknown>,
  store: KnowledgeStore,
  vectors: () => Promise<VectorIndex>,
) {
  const progress = (id: string, p: number) => store.setDocument(id, { progress: Math.round(p) });

  async function embedSlices(doc: DocumentRow, modelId: string, slices: { id: string; index: string }[], from: number) {
    const index = await vectors();
    for (let i = 0; i < slices.length; i += EMBED_BATCH) {
      const batch = slices.slice(i, i + EMBED_BATCH);
      const vecs = await embedTexts(
        ctx,
        doc.space_id,
        modelId,
        batch.map((s) => s.index.slice(0, 8000)),
      );
      await index.upsert(
        doc.dataset_id,
        batch.map((s, j) => ({ id: s.id, vector: vecs[j] })),
      );
      await store.setSliceStatus(
        batch.map((s) => s.id),
        SliceStatus.FinishVectoring,
      );
      await progress(doc.id, from + ((100 - from) * Math.min(slices.length, i + EMBED_BATCH)) / slices.length - 1);
    }
  }

  ctx.job({
    name: PROCESS_JOB,
    concurrency: 2,
    async handler(payload: { document_id: string }) {
      const doc = await store.document(payload.document_id).catch(() => undefined);
      if (
        !doc ||
        ![DocumentStatus.Processing, DocumentStatus.Resegment, DocumentStatus.Refreshing].includes(
          Number(doc.status) as 0,
        )
      )
        return;
      try {
        await progress(doc.id, 5);
        const parsed = await readSource(ctx, doc);
        await progress(doc.id, 30);
        const { chunks, tableMeta } = chunksOf(doc, parsed);
        if (!chunks.length && Number(doc.format_type) !== FormatType.Image)
          throw badRequest('The document holds no text to index.');
        const old = (
          await store.db.selectFrom('knowledge_slice').select('id').where('document_id', '=', doc.id).execute()
        ).map((r) => r.id);
        const slices = await store.replaceSlices(doc, chunks);
        if (old.length) await (await vectors()).remove(doc.dataset_id, old);
        await store.setDocument(doc.id, {
          progress: 60,
          ...(tableMeta ? { table_meta: JSON.stringify(tableMeta) } : {}),
          ...(parsed.kind === 'text' && parsed.title && Number(doc.source_type) === DocumentSource.Web && !doc.name
            ? { name: parsed.title.slice(0, 255) }
            : {}),
        });
        await store.recount(doc.id);
        const dataset = await store.dataset(doc.dataset_id);
        if (dataset.embedding_model_id && slices.length) await embedSlices(doc, dataset.embedding_model_id, slices, 60);
        await store.setDocument(doc.id, { status: DocumentStatus.Enable, progress: 100, status_descript: '' });
        const rule = JSON.parse(doc.update_rule || '{}') as { update_type?: number; update_interval?: number };
        if (Number(doc.source_type) === DocumentSource.Web && rule.update_type === 1 && rule.update_interval) {
          await ctx
            .service(JobQueueService)
            .enqueue(
              REFRESH_JOB,
              { document_id: doc.id },
              { delayMs: rule.update_interval * 86_400_000, jobId: `knowledge-refresh-${doc.id}-${Date.now()}` },
            );
        }
      } catch (e) {
        const why = messageOf(e);
        ctx.logger.warn(`knowledge document ${doc.id} failed: ${why}`);
        await store.setDocument(doc.id, {
          status: DocumentStatus.Failed,
          status_descript: why.slice(0, 2000),
          progress: 100,
        });
      }
    },
  });

  // A web page kept fresh by its update rule.
  ctx.job({
    name: REFRESH_JOB,
    concurrency: 1,
    async handler(payload: { document_id: string }) {
      const doc = await store.document(payload.document_id).catch(() => undefined);
      if (!doc || Number(doc.status) !== DocumentStatus.Enable) return;
      await store.setDocument(doc.id, { status: DocumentStatus.Refreshing, progress: 0 });
      await ctx.service(JobQueueService).enqueue(PROCESS_JOB, { document_id: doc.id });
    },
  });
}
export const REFRESH_JOB = 'knowledge.refresh';

/** Documents a stopped process left half-done are processed again. */
export async function resumeInterrupted(ctx: ServerContext<unknown>) {
  const left = await knowledgeDb(ctx)
    .selectFrom('knowledge_document')
    .select('id')
    .where('status', 'in', [DocumentStatus.Processing, DocumentStatus.Resegment, DocumentStatus.Refreshing])
    .execute();
  for (const d of left) await ctx.service(JobQueueService).enqueue(PROCESS_JOB, { document_id: d.id });
  return left.length;
}
