// What routes, the open API, nodes and skills share: datasets, adding documents, deleting, previews.
import { badRequest, forbidden } from '@tessera/sdk';
import { JobQueueService, type ServerContext } from '@tessera/sdk/server';
import { FilesService } from '@tessera/ext-files/shared';
import { sql } from 'kysely';
import { ChunkStrategy, DocumentSource, DocumentStatus, FormatType, type VectorIndex } from '../shared/index.ts';
import { IMAGE_TYPES, TABLE_TYPES, TEXT_TYPES } from './parse.ts';
import { PROCESS_JOB, chunksOf, readSource } from './process.ts';
import { now, type DatasetRow, type DocumentRow, type KnowledgeStore } from './store.ts';

export interface DocumentInput {
  name?: string;
  /** An uploaded file of the dataset's space. */
  file_id?: string;
  /** A web page fetched through the outbound guard. */
  web_url?: string;
  /** Text given by hand (text datasets), or rows (table datasets, a JSON list of objects). */
  custom_content?: string;
  caption?: string;
  table_meta?: unknown[];
  update_rule?: { update_type?: number; update_interval?: number };
  /** Table files: the sheet (from 0), the header row and the first data row (from 0). */
  table_sheet?: { sheet_id?: number; header_line_idx?: number; start_line_idx?: number };
}

export function makeKnowledgeCore(
  ctx: ServerContext<unknown>,
  store: KnowledgeStore,
  vectors: () => Promise<VectorIndex>,
) {
  const allowed = (format: number) =>
    format === FormatType.Table ? TABLE_TYPES : format === FormatType.Image ? IMAGE_TYPES : TEXT_TYPES;

  async function stats(ids: string[]) {
    const out = new Map<
      string,
      {
        doc_count: number;
        slice_count: number;
        hit_count: number;
        all_file_size: number;
        processing: string[];
        failed: string[];
      }
    >();
    for (const id of ids)
      out.set(id, { doc_count: 0, slice_count: 0, hit_count: 0, all_file_size: 0, processing: [], failed: [] });
    if (!ids.length) return out;
    const docs = await store.db
      .selectFrom('knowledge_document')
      .select(['dataset_id', 'name', 'status', 'slice_count', 'hit_count', 'size'])
      .where('dataset_id', 'in', ids)
      .execute();
    for (const d of docs) {
      const s = out.get(d.dataset_id)!;
      s.doc_count++;
      s.slice_count += Number(d.slice_count);
      s.hit_count += Number(d.hit_count);
      s.all_file_size += Number(d.size);
      const st = Number(d.status);
      if (st === DocumentStatus.Failed) s.failed.push(d.name);
      else if (st !== DocumentStatus.Enable && st !== DocumentStatus.Disable) s.processing.push(d.name);
    }
    return out;
  }

  async function createDataset(input: {
    spaceId: string;
    userId: string;
    name: string;
    description?: string;
    format_type: number;
    icon_uri?: string;
    embedding_model_id?: string;
    chunk_strategy?: unknown;
  }) {
    const taken = await store.db
      .selectFrom('knowledge_dataset')
      .select('id')
      .where('space_id', '=', input.spaceId)
      .where(sql`lower(name)`, '=', input.name.trim().toLowerCase())
      .executeTakeFirst();
    if (taken) throw badRequest(`This space already has a knowledge base named "${input.name}". Choose another name.`);
    const id = ctx.host.newId();
    const t = now();
    await store.db
      .insertInto('knowledge_dataset')
      .values({
        id,
        space_id: input.spaceId,
        name: input.name.trim(),
        description: input.description ?? '',
        icon_uri: input.icon_uri ?? '',
        format_type: input.format_type,
        status: 1,
        embedding_model_id: input.embedding_model_id ?? '',
        chunk_strategy: input.chunk_strategy ? JSON.stringify(ChunkStrategy.parse(input.chunk_strategy)) : '',
        creator_id: input.userId,
        created_at: t,
        updated_at: t,
      })
      .execute();
    return store.dataset(id);
  }

  async function addDocuments(
    dataset: DatasetRow,
    userId: string,
    inputs: DocumentInput[],
    strategyIn?: unknown,
  ): Promise<DocumentRow[]> {
    if (!inputs.length) throw badRequest('Add at least one document.');
    const format = Number(dataset.format_type);
    const strategy = ChunkStrategy.parse(
      strategyIn ?? (dataset.chunk_strategy ? JSON.parse(dataset.chunk_strategy) : {}),
    );
    if (!dataset.chunk_strategy)
      await store.db
        .updateTable('knowledge_dataset')
        .set({ chunk_strategy: JSON.stringify(strategy) })
        .where('id', '=', dataset.id)
        .execute();
    const files = ctx.service(FilesService);
    const rows: DocumentRow[] = [];
    for (const input of inputs) {
      const t = now();
      const base = {
        id: ctx.host.newId(),
        dataset_id: dataset.id,
        space_id: dataset.space_id,
        format_type: format,
        file_id: '',
        web_url: '',
        type: '',
        size: 0,
        char_count: 0,
        slice_count: 0,
        hit_count: 0,
        status: DocumentStatus.Processing,
        status_descript: '',
        progress: 0,
        chunk_strategy: JSON.stringify(strategy),
        table_meta: JSON.stringify(input.table_meta ?? []),
        custom_content: null as string | null,
        caption: input.caption ?? '',
        update_rule: JSON.stringify(input.update_rule ?? {}),
        table_sheet: JSON.stringify(input.table_sheet ?? {}),
        creator_id: userId,
        created_at: t,
        updated_at: t,
      };
      if (input.file_id) {
        const f = await files.info(input.file_id);
        if (!f) throw badRequest(`There is no uploaded file ${input.file_id}.`);
        // A file of the dataset's space, or one the person adding it uploaded (the open API puts uploads in their personal space).
        if (f.space_id !== dataset.space_id && f.creator_id !== userId)
          throw forbidden(`The file ${input.file_id} belongs to another space.`);
        if (!allowed(format).includes(f.ext))
          throw badRequest(
            `"${f.file_name}" is ${f.ext.toUpperCase()}; this knowledge base takes ${allowed(format)
              .map((x) => x.toUpperCase())
              .join(', ')}.`,
          );
        rows.push({
          ...base,
          name: (input.name || f.file_name).slice(0, 255),
          source_type: DocumentSource.Document,
          file_id: f.id,
          type: f.ext,
          size: f.bytes,
        });
      } else if (input.web_url) {
        if (format !== FormatType.Text) throw badRequest('Web pages go into text knowledge bases.');
        let url: URL;
        try {
          url = new URL(input.web_url);
        } catch {
          throw badRequest(`"${input.web_url}" is not a URL.`);
        }
        if (!/^https?:$/.test(url.protocol)) throw badRequest('Give an http or https URL.');
        rows.push({
          ...base,
          name: (input.name || url.hostname + url.pathname).slice(0, 255),
          source_type: DocumentSource.Web,
          web_url: url.toString(),
          type: 'html',
        });
      } else if (input.custom_content !== undefined) {
        if (format === FormatType.Image) throw badRequest('Image knowledge bases take image files.');
        if (format === FormatType.Table) {
          let rowsIn: unknown;
          try {
            rowsIn = JSON.parse(input.custom_content);
          } catch {
            rowsIn = undefined;
          }
          if (!Array.isArray(rowsIn) || !rowsIn.every((r) => r && typeof r === 'object' && !Array.isArray(r)))
            throw badRequest('Rows for a table knowledge base are a JSON list of objects: [{"column": "value"}, ...].');
        } else if (!input.custom_content.trim()) throw badRequest('The text is empty.');
        rows.push({
          ...base,
          name: (input.name || 'Text').slice(0, 255),
          source_type: DocumentSource.Custom,
          custom_content: input.custom_content,
          type: format === FormatType.Table ? 'json' : 'txt',
          size: Buffer.byteLength(input.custom_content),
        });
      } else throw badRequest('Each document needs a file_id, a web_url or custom_content.');
    }
    for (const r of rows) await store.db.insertInto('knowledge_document').values(r).execute();
    await store.db.updateTable('knowledge_dataset').set({ updated_at: now() }).where('id', '=', dataset.id).execute();
    const jobs = ctx.service(JobQueueService);
    for (const r of rows) await jobs.enqueue(PROCESS_JOB, { document_id: r.id });
    return rows;
  }

  async function deleteDocument(doc: DocumentRow) {
    const ids = await store.deleteDocumentSlices(doc.id);
    if (ids.length) await (await vectors()).remove(doc.dataset_id, ids);
    await store.db.deleteFrom('knowledge_document').where('id', '=', doc.id).execute();
  }

  async function deleteDataset(d: DatasetRow) {
    const docs = await store.db.selectFrom('knowledge_document').selectAll().where('dataset_id', '=', d.id).execute();
    for (const doc of docs) {
      await store.deleteDocumentSlices(doc.id);
      await store.db.deleteFrom('knowledge_document').where('id', '=', doc.id).execute();
    }
    await (await vectors()).dropDataset(d.id);
    await store.db.deleteFrom('knowledge_dataset').where('id', '=', d.id).execute();
  }

  async function resegment(docs: DocumentRow[], strategyIn: unknown) {
    const strategy = JSON.stringify(ChunkStrategy.parse(strategyIn ?? {}));
    const jobs = ctx.service(JobQueueService);
    for (const d of docs) {
      if (Number(d.format_type) !== FormatType.Text)
        throw badRequest(`"${d.name}" is not a text document; only text documents are segmented.`);
      await store.setDocument(d.id, {
        chunk_strategy: strategy,
        status: DocumentStatus.Resegment,
        progress: 0,
        status_descript: '',
      });
      await jobs.enqueue(PROCESS_JOB, { document_id: d.id });
    }
  }

  /** The chunks a document would make, before it is added (at most `limit` shown). */
  async function preview(
    dataset: Pick<DatasetRow, 'space_id' | 'format_type'>,
    input: DocumentInput,
    strategyIn: unknown,
    limit = 50,
  ) {
    const strategy = ChunkStrategy.parse(strategyIn ?? {});
    const format = Number(dataset.format_type);
    let probe: Pick<
      DocumentRow,
      'source_type' | 'file_id' | 'web_url' | 'type' | 'custom_content' | 'format_type' | 'caption' | 'table_sheet'
    >;
    const table_sheet = JSON.stringify(input.table_sheet ?? {});
    if (input.file_id) {
      const f = await ctx.service(FilesService).info(input.file_id);
      if (!f || f.space_id !== dataset.space_id)
        throw badRequest(`There is no uploaded file ${input.file_id} in this space.`);
      if (!allowed(format).includes(f.ext))
        throw badRequest(
          `"${f.file_name}" is ${f.ext.toUpperCase()}; this knowledge base takes ${allowed(format)
            .map((x) => x.toUpperCase())
            .join(', ')}.`,
        );
      probe = {
        source_type: DocumentSource.Document,
        file_id: f.id,
        web_url: '',
        type: f.ext,
        custom_content: null,
        format_type: format,
        caption: '',
        table_sheet,
      };
    } else if (input.web_url)
      probe = {
        source_type: DocumentSource.Web,
        file_id: '',
        web_url: input.web_url,
        type: 'html',
        custom_content: null,
        format_type: format,
        caption: '',
        table_sheet,
      };
    else
      probe = {
        source_type: DocumentSource.Custom,
        file_id: '',
        web_url: '',
        type: 'txt',
        custom_content: input.custom_content ?? '',
        format_type: format,
        caption: input.caption ?? '',
        table_sheet,
      };
    const parsed = await readSource(ctx, probe);
    const { chunks, tableMeta } = chunksOf(
      {
        ...(probe as DocumentRow),
        name: input.name ?? '',
        chunk_strategy: JSON.stringify(strategy),
        table_meta: JSON.stringify(input.table_meta ?? []),
      },
      parsed,
    );
    return {
      total: chunks.length,
      chunks: chunks
        .slice(0, limit)
        .map((c, i) => ({ sequence: i + 1, content: c.content, char_count: [...c.content].length })),
      table_meta: tableMeta,
      ...(parsed.kind === 'table' ? { sheets: parsed.sheets ?? [] } : {}),
    };
  }

  return { stats, createDataset, addDocuments, deleteDocument, deleteDataset, resegment, preview };
}
export type KnowledgeCore = ReturnType<typeof makeKnowledgeCore>;
