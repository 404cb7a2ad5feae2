// What the knowledge calls answer (Coze's /api/knowledge/... field names): knowledge bases, documents, processing
// progress and slices. Times are Unix seconds; some counts are strings, as Coze answers them.
import { z } from 'zod';
import { ChunkStrategy } from './index.ts';

/** A table column of a table knowledge base (which columns are searched). */
export const TableColumnView = z.object({
  id: z.string(),
  column_name: z.string(),
  is_semantic: z.boolean(),
  sequence: z.string(),
  column_type: z.number(),
  desc: z.string().optional(),
});

export const DatasetView = z.object({
  dataset_id: z.string(),
  id: z.string(),
  name: z.string(),
  description: z.string(),
  space_id: z.string(),
  icon_uri: z.string(),
  icon_url: z.string(),
  /** 0 text, 1 table, 2 images */
  format_type: z.number(),
  status: z.number(),
  creator_id: z.string(),
  create_time: z.number(),
  update_time: z.number(),
  doc_count: z.number(),
  slice_count: z.number(),
  hit_count: z.number(),
  all_file_size: z.string(),
  bot_used_count: z.number(),
  processing_file_list: z.array(z.string()),
  processing_file_id_list: z.array(z.string()),
  failed_file_list: z.array(z.string()),
  file_list: z.array(z.string()),
  can_edit: z.boolean(),
  chunk_strategy: ChunkStrategy.optional(),
  embedding_model_id: z.string(),
  project_id: z.string(),
});
export type DatasetView = z.output<typeof DatasetView>;

export const DocumentView = z.object({
  document_id: z.string(),
  name: z.string(),
  dataset_id: z.string(),
  space_id: z.string(),
  create_time: z.number(),
  update_time: z.number(),
  creator_id: z.string(),
  slice_count: z.number(),
  type: z.string(),
  size: z.number(),
  char_count: z.number(),
  status: z.number(),
  status_descript: z.string(),
  progress: z.number(),
  hit_count: z.number(),
  source_type: z.number(),
  format_type: z.number(),
  /** A table document's columns */
  table_meta: z.array(TableColumnView),
  web_url: z.string(),
  file_id: z.string(),
  /** How a web page is fetched again (update_type, update_interval) */
  update_rule: z.record(z.string(), z.unknown()),
  update_type: z.number(),
  update_interval: z.number(),
  chunk_strategy: ChunkStrategy,
  editable_append_content: z.boolean(),
});
export type DocumentView = z.output<typeof DocumentView>;

export const ProgressView = z.object({
  document_id: z.string(),
  document_name: z.string(),
  progress: z.number(),
  status: z.number(),
  status_descript: z.string(),
  remaining_time: z.number(),
  size: z.number(),
  type: z.string(),
  url: z.string(),
});

export const SliceView = z.object({
  slice_id: z.string(),
  content: z.string(),
  raw_text: z.string(),
  status: z.number(),
  hit_count: z.string(),
  char_count: z.string(),
  sequence: z.string(),
  document_id: z.string(),
  chunk_info: z.string(),
});

export const DatasetCreated = z.object({ dataset_id: z.string() });
export const DatasetList = z.object({ dataset_list: z.array(DatasetView), total: z.number() });
/** dataset_id → the knowledge base */
export const DatasetDetails = z.object({ dataset_details: z.record(z.string(), DatasetView) });
const Reference = z.object({ kind: z.string(), id: z.string(), name: z.string(), space_id: z.string() });
export const RefBots = z.object({ bots: z.array(Reference), references: z.array(Reference) });
export const IconAnswer = z.object({ icon: z.object({ uri: z.string(), url: z.string() }) });
export const DocumentInfos = z.object({ document_infos: z.array(DocumentView) });
export const DocumentPage = z.object({ document_infos: z.array(DocumentView), total: z.number() });
export const OneDocument = z.object({ document_info: DocumentView });
export const Resegmented = z.object({
  document_infos: z.array(z.object({ document_id: z.string(), name: z.string() })),
});
export const Progress = z.object({ data: z.array(ProgressView) });
export const SlicePage = z.object({ slices: z.array(SliceView), total: z.string(), hasmore: z.boolean() });
export const SliceCreated = z.object({ slice_id: z.string() });
export const OneSlice = z.object({ slice: SliceView });
export const NoAnswer = z.object({});

/** The chunks a document would make (the first ones), and a table's columns and sheets. */
export const Preview = z.object({
  total: z.number(),
  chunks: z.array(z.object({ sequence: z.number(), content: z.string(), char_count: z.number() })),
  table_meta: z.array(TableColumnView).optional(),
  sheets: z.array(z.object({ id: z.number(), name: z.string(), rows: z.number() })).optional(),
});

const PhotoView = z.object({
  name: z.string(),
  document_id: z.string(),
  url: z.string(),
  caption: z.string(),
  create_time: z.number(),
  update_time: z.number(),
  creator_id: z.string(),
  type: z.string(),
  size: z.number(),
  status: z.number(),
  source_type: z.number(),
});
export const PhotoPage = z.object({ photo_infos: z.array(PhotoView), total: z.number() });

/** The slices a question finds, with their scores and the searches that found them. */
export const Retrieval = z.object({
  slices: z.array(
    z.object({
      slice_id: z.string(),
      document_id: z.string(),
      dataset_id: z.string(),
      document_name: z.string(),
      content: z.string(),
      score: z.number(),
      found_by: z.object({
        fulltext: z.number().optional(),
        semantic: z.number().optional(),
        rerank: z.number().optional(),
      }),
      sequence: z.number(),
      url: z.string().optional(),
    }),
  ),
  mode: z.enum(['fulltext', 'semantic', 'hybrid']),
  note: z.string().optional(),
  took_ms: z.number(),
});

// ---- the open API (Coze's /v1/datasets ...; the document calls answer their fields beside code and msg)

export const OpenDatasetList = z.object({ dataset_list: z.array(DatasetView), total_count: z.number() });
export const OpenPhotoPage = z.object({ photo_infos: z.array(PhotoView), total_count: z.number() });
const OpenDocument = DocumentView.extend({ tos_uri: z.string(), format_type: z.number() });
export const OpenDone = z.object({ code: z.number(), msg: z.string() });
export const OpenDocuments = OpenDone.extend({ document_infos: z.array(OpenDocument) });
export const OpenDocumentPage = OpenDocuments.extend({ total: z.number() });
