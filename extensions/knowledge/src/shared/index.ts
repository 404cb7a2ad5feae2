// @tessera/ext-knowledge/shared: knowledge as other extensions see it (nodes, bot skills), and the
// vector store point.
import { defineRegistryPoint, defineService } from '@tessera/sdk';
import type { Kysely } from 'kysely';
import { z } from 'zod';

/** Coze's FormatType of datasets and documents. */
export const FormatType = { Text: 0, Table: 1, Image: 2 } as const;
/** Coze's DocumentStatus. */
export const DocumentStatus = {
  Processing: 0,
  Enable: 1,
  Disable: 2,
  Deleted: 3,
  Resegment: 4,
  Refreshing: 5,
  Failed: 9,
} as const;
/** Coze's SliceStatus. */
export const SliceStatus = { PendingVectoring: 0, FinishVectoring: 1, Deactive: 9 } as const;
/** Coze's ChunkType: automatic (0), custom separator and size (1), by headings (2). */
export const ChunkType = { Default: 0, Custom: 1, Level: 2 } as const;
/** Coze's DocumentSource: a file (0), pasted or custom content (2); web pages (1) are ours. */
export const DocumentSource = { Document: 0, Web: 1, Custom: 2 } as const;
/** Coze's retrieval SearchType: semantic 0, hybrid 1, full text 20. */
export const SearchType = { Semantic: 0, Hybrid: 1, FullText: 20 } as const;

export const ChunkStrategy = z.object({
  chunk_type: z.number().int().min(0).max(2).default(ChunkType.Default),
  separator: z.string().max(20).default('\n'),
  max_tokens: z.number().int().min(50).max(5000).default(800),
  overlap: z.number().int().min(0).max(50).default(10),
  remove_extra_spaces: z.boolean().default(true),
  remove_urls_emails: z.boolean().default(false),
  max_level: z.number().int().min(1).max(6).default(3),
  save_title: z.boolean().default(true),
});
export type ChunkStrategy = z.infer<typeof ChunkStrategy>;
/** `overlap` is a percentage of max_tokens, as Coze's form shows it. */

export interface RetrieveOptions {
  spaceId: string;
  datasetIds: string[];
  query: string;
  topK?: number;
  minScore?: number;
  searchType?: number;
  /** A reranking model of the models extension: the candidates are ordered by it, and `score` is its relevance. */
  rerankModelId?: string;
  /** Table datasets: only rows of this end user (Coze's isPersonalOnly) when set. */
  signal?: AbortSignal;
}

export interface RetrievedSlice {
  slice_id: string;
  document_id: string;
  dataset_id: string;
  document_name: string;
  content: string;
  /** 0..1: cosine similarity (semantic), a normalised BM25 (full text) or the fused rank (hybrid). */
  score: number;
  /** Which rankers found it, with its rank in each (1-based). */
  found_by: { fulltext?: number; semantic?: number; rerank?: number };
  sequence: number;
  /** Where it came from: a web page's URL, an image's URL. */
  url?: string;
}

export interface DatasetInfo {
  dataset_id: string;
  space_id: string;
  name: string;
  description: string;
  format_type: number;
  embedding_model_id: string;
}

export interface Knowledge {
  dataset(id: string): Promise<DatasetInfo | undefined>;
  list(spaceId: string): Promise<DatasetInfo[]>;
  retrieve(
    opts: RetrieveOptions,
  ): Promise<{ slices: RetrievedSlice[]; mode: 'fulltext' | 'semantic' | 'hybrid'; note?: string }>;
  /** Adds a document (a file id or URL, or text) to a text dataset and processes it; resolves with its id at once. */
  addDocument(input: {
    datasetId: string;
    userId: string;
    name?: string;
    fileId?: string;
    url?: string;
    text?: string;
  }): Promise<{ document_id: string; name: string }>;
  /** How a document's processing goes (undefined: no such document). */
  documentStatus(
    documentId: string,
  ): Promise<{ status: number; status_descript: string; progress: number } | undefined>;
  deleteDocument(documentId: string, spaceId: string): Promise<boolean>;
  /**
   * The text of a document's bytes, read as knowledge reads it (PDF, DOCX, HTML, Markdown, text; CSV and XLSX as
   * rows of cells), or undefined for a kind it does not read. A file that cannot be read throws a 400 saying why.
   */
  extractText(data: Buffer, ext: string): Promise<string | undefined>;
}
export const KnowledgeService = defineService<Knowledge>({
  id: 'knowledge.knowledge',
  owner: 'knowledge',
  description: 'Datasets, retrieval and adding documents.',
});

/** A vector of length 1 (a copy): cosine similarity is then a dot product. */
export function normalize(v: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(v);
  let n = 0;
  for (let i = 0; i < out.length; i++) n += out[i] * out[i];
  n = Math.sqrt(n) || 1;
  for (let i = 0; i < out.length; i++) out[i] /= n;
  return out;
}

/** One index of vectors for slices. Scores are cosine similarities. */
export interface VectorIndex {
  upsert(datasetId: string, items: { id: string; vector: Float32Array }[]): Promise<void>;
  remove(datasetId: string, ids: string[]): Promise<void>;
  dropDataset(datasetId: string): Promise<void>;
  search(datasetIds: string[], vector: Float32Array, k: number): Promise<{ id: string; score: number }[]>;
  /** Lets go of what it holds (worker threads, connections) when the studio stops. */
  close?(): Promise<void>;
  /**
   * A store that keeps the vectors as given can hand them back, in batches (an approximate index built on
   * top of it rebuilds from them), and says the version of a dataset's vectors (changed by every change).
   */
  vectors?(datasetId: string): AsyncIterable<{ id: string; vector: Float32Array }[]>;
  version?(datasetId: string): Promise<number>;
  /** The stored vectors of these slices (an approximate index re-ranks its candidates with them). */
  get?(datasetId: string, ids: string[]): Promise<Map<string, Float32Array>>;
}

export interface VectorStoreKind {
  /** Named by knowledge.vectorStore in the configuration. */
  key: string;
  description: string;
  /** Several studio processes can share it. */
  shared: boolean;
  create(opts: {
    dataDir: string;
    config: Record<string, unknown>;
    db: Kysely<any>;
    dialect: 'sqlite' | 'postgres';
  }): VectorIndex | Promise<VectorIndex>;
}

export const VectorStores = defineRegistryPoint<VectorStoreKind>({
  id: 'knowledge.vectorStores',
  owner: 'knowledge',
  description:
    'Where slice vectors are kept and searched: the studio database (default), or a vector engine an extension adds.',
  schema: z.object({
    key: z.string().regex(/^[a-z][a-z0-9-]*$/),
    description: z.string(),
    shared: z.boolean(),
    create: z.custom<(...a: unknown[]) => unknown>((v) => typeof v === 'function'),
  }),
  key: (s) => s.key,
});
