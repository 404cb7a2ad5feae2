// Datasets, documents and slices as the API answers them (Coze's field names).
import { ChunkStrategy, DocumentStatus } from '../shared/index.ts';
import type { DatasetView, DocumentView } from '../shared/answers.ts';
import type { DatasetRow, DocumentRow, SliceRow } from './store.ts';

export const secs = (iso: string) => Math.floor(Date.parse(iso) / 1000) || 0;

export function datasetView(
  d: DatasetRow,
  stats: {
    doc_count: number;
    slice_count: number;
    hit_count: number;
    all_file_size: number;
    processing: string[];
    failed: string[];
    bot_used_count?: number;
  },
): DatasetView {
  return {
    dataset_id: d.id,
    id: d.id,
    name: d.name,
    description: d.description,
    space_id: d.space_id,
    icon_uri: d.icon_uri,
    icon_url: d.icon_uri,
    format_type: Number(d.format_type),
    status: Number(d.status),
    creator_id: d.creator_id,
    create_time: secs(d.created_at),
    update_time: secs(d.updated_at),
    doc_count: stats.doc_count,
    slice_count: stats.slice_count,
    hit_count: stats.hit_count,
    all_file_size: String(stats.all_file_size),
    bot_used_count: stats.bot_used_count ?? 0,
    processing_file_list: stats.processing,
    processing_file_id_list: [],
    failed_file_list: stats.failed,
    file_list: [],
    can_edit: true,
    chunk_strategy: d.chunk_strategy ? ChunkStrategy.parse(JSON.parse(d.chunk_strategy)) : undefined,
    embedding_model_id: d.embedding_model_id,
    project_id: '',
  };
}

export function documentView(d: DocumentRow): DocumentView {
  return {
    document_id: d.id,
    name: d.name,
    dataset_id: d.dataset_id,
    space_id: d.space_id,
    create_time: secs(d.created_at),
    update_time: secs(d.updated_at),
    creator_id: d.creator_id,
    slice_count: Number(d.slice_count),
    type: d.type,
    size: Number(d.size),
    char_count: Number(d.char_count),
    status: Number(d.status),
    status_descript: d.status_descript,
    progress: Number(d.progress),
    hit_count: Number(d.hit_count),
    source_type: Number(d.source_type),
    format_type: Number(d.format_type),
    table_meta: JSON.parse(d.table_meta || '[]'),
    web_url: d.web_url,
    file_id: d.file_id,
    update_rule: JSON.parse(d.update_rule || '{}'),
    update_type: JSON.parse(d.update_rule || '{}').update_type ?? 0,
    update_interval: JSON.parse(d.update_rule || '{}').update_interval ?? 0,
    chunk_strategy: ChunkStrategy.parse(JSON.parse(d.chunk_strategy || '{}')),
    editable_append_content: true,
  };
}

export function progressView(d: DocumentRow, url?: string) {
  const busy = [DocumentStatus.Processing, DocumentStatus.Resegment, DocumentStatus.Refreshing].includes(
    Number(d.status) as 0,
  );
  return {
    document_id: d.id,
    document_name: d.name,
    progress: busy ? Math.min(99, Number(d.progress)) : 100,
    status: Number(d.status),
    status_descript: d.status_descript,
    remaining_time: busy ? Math.max(1, Math.round((100 - Number(d.progress)) / 20)) : 0,
    size: Number(d.size),
    type: d.type,
    url: url ?? d.web_url,
  };
}

export function sliceView(s: SliceRow) {
  return {
    slice_id: s.id,
    content: s.content,
    raw_text: s.content,
    status: Number(s.status),
    hit_count: String(s.hit_count),
    char_count: String(s.char_count),
    sequence: String(s.sequence),
    document_id: s.document_id,
    chunk_info: s.chunk_info,
  };
}
