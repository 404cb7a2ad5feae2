// What the knowledge pages read from the server, and the space they work in.
import type { CurrentSpace } from '@tessera/ext-spaces/shared';
import { useSyncExternalStore } from 'react';

export interface Dataset {
  dataset_id: string;
  space_id: string;
  name: string;
  description: string;
  format_type: number;
  doc_count: number;
  slice_count: number;
  hit_count: number;
  update_time: number;
  processing_file_list: string[];
  failed_file_list: string[];
  embedding_model_id: string;
}

export interface DocumentInfo {
  document_id: string;
  name: string;
  type: string;
  size: number;
  char_count: number;
  slice_count: number;
  hit_count: number;
  status: number;
  status_descript: string;
  progress: number;
  source_type: number;
  format_type: number;
  web_url: string;
  update_time: number;
  table_meta: { id: string; column_name: string; is_semantic: boolean; sequence: string; column_type: number }[];
}

export interface Slice {
  slice_id: string;
  content: string;
  status: number;
  hit_count: string;
  char_count: string;
  sequence: string;
  document_id: string;
}

export interface Retrieved {
  slice_id: string;
  document_id: string;
  document_name: string;
  content: string;
  score: number;
  found_by: { fulltext?: number; semantic?: number; rerank?: number };
  url?: string;
}

export interface ChunkStrategy {
  chunk_type: number;
  separator: string;
  max_tokens: number;
  overlap: number;
  remove_extra_spaces: boolean;
  remove_urls_emails: boolean;
  max_level: number;
  save_title: boolean;
}
export const DEFAULT_STRATEGY: ChunkStrategy = {
  chunk_type: 0,
  separator: '\\n\\n',
  max_tokens: 800,
  overlap: 10,
  remove_extra_spaces: true,
  remove_urls_emails: false,
  max_level: 3,
  save_title: true,
};

/** Coze's DocumentStatus: processing 0, ready 1, disabled 2, resegmenting 4, refreshing 5, failed 9. */
export const BUSY = [0, 4, 5];
export const FORMAT_KEYS: Record<number, string> = { 0: 'text', 1: 'table', 2: 'image' };
export const ACCEPT: Record<number, string> = {
  0: '.pdf,.docx,.md,.markdown,.txt,.html,.htm',
  1: '.csv,.xlsx',
  2: '.png,.jpg,.jpeg,.webp,.gif',
};

let service: CurrentSpace | undefined;
export function setCurrentSpace(s: CurrentSpace) {
  service = s;
}
export function useSpaceId(): string | null {
  return useSyncExternalStore(service!.subscribe, service!.get, service!.get);
}
