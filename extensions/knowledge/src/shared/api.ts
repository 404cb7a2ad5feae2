// The knowledge studio calls (Coze's /api/knowledge/...: knowledge bases, documents, slices, images, the retrieval
// test): one contract for the routes, the pages and /openapi.json. The answers are in answers.ts.
import { defineEndpoint, httpUrl, imageRef } from '@tessera/sdk';
import { z } from 'zod';
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
} from './answers.ts';
import { FormatType, SearchType, SliceStatus } from './index.ts';

export const Id = z.coerce.string().min(1).max(32);
const Name = z.string().trim().min(1, 'Give the knowledge base a name.').max(100);
export const Format = z.union([z.literal(FormatType.Text), z.literal(FormatType.Table), z.literal(FormatType.Image)]);
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

export const CreateDataset = defineEndpoint({
  method: 'POST',
  path: '/api/knowledge/create',
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
});

export const ListDatasets = defineEndpoint({
  method: 'POST',
  path: '/api/knowledge/list',
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
});

export const DatasetDetail = defineEndpoint({
  method: 'POST',
  path: '/api/knowledge/detail',
  summary: 'Knowledge bases by id, with counts of documents, slices and hits',
  body: z.object({ space_id: Id, dataset_ids: z.array(Id).min(1).max(100) }),
  response: DatasetDetails,
});

export const UpdateDataset = defineEndpoint({
  method: 'POST',
  path: '/api/knowledge/update',
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
});

export const DeleteDataset = defineEndpoint({
  method: 'POST',
  path: '/api/knowledge/delete',
  summary: 'Delete a knowledge base with its documents, slices and vectors',
  body: z.object({ space_id: Id, dataset_id: Id }),
  response: NoAnswer,
});

export const DatasetRefs = defineEndpoint({
  method: 'POST',
  path: '/api/knowledge/ref_bots',
  summary: 'What uses a knowledge base: the bots and workflows of the space that name it',
  body: z.object({ space_id: Id, dataset_id: Id }),
  response: RefBots,
});

export const GetIcon = defineEndpoint({
  method: 'POST',
  path: '/api/knowledge/icon/get',
  summary: 'The default icon of a knowledge base type',
  body: z.object({ format_type: z.number().int().default(0) }),
  response: IconAnswer,
});

export const CreateDocuments = defineEndpoint({
  method: 'POST',
  path: '/api/knowledge/document/create',
  summary:
    'Add documents (uploaded files, web pages or text) to a knowledge base; each is processed in the background (follow with progress/get)',
  body: z.object({
    space_id: Id,
    dataset_id: Id,
    document_bases: z.array(DocumentInputSchema).min(1).max(50),
    chunk_strategy: z.record(z.string(), z.unknown()).optional(),
  }),
  response: DocumentInfos,
});

export const PreviewDocument = defineEndpoint({
  method: 'POST',
  path: '/api/knowledge/document/preview',
  summary: 'The chunks a document would make with a chunking strategy, before it is added',
  body: z.object({
    space_id: Id,
    dataset_id: Id.optional(),
    format_type: Format.default(FormatType.Text),
    document: DocumentInputSchema,
    chunk_strategy: z.record(z.string(), z.unknown()).optional(),
  }),
  response: Preview,
});

export const ListDocuments = defineEndpoint({
  method: 'POST',
  path: '/api/knowledge/document/list',
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
});

export const UpdateDocument = defineEndpoint({
  method: 'POST',
  path: '/api/knowledge/document/update',
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
});

export const DeleteDocuments = defineEndpoint({
  method: 'POST',
  path: '/api/knowledge/document/delete',
  summary: 'Delete documents with their slices',
  body: z.object({ space_id: Id, document_ids: z.array(Id).min(1).max(100) }),
  response: NoAnswer,
});

export const ResegmentDocuments = defineEndpoint({
  method: 'POST',
  path: '/api/knowledge/document/resegment',
  summary: 'Segment text documents again with another chunking strategy (in the background)',
  body: z.object({
    space_id: Id,
    dataset_id: Id,
    document_ids: z.array(Id).min(1).max(100),
    chunk_strategy: z.record(z.string(), z.unknown()),
  }),
  response: Resegmented,
});

export const RefreshDocument = defineEndpoint({
  method: 'POST',
  path: '/api/knowledge/document/refresh_document',
  summary: 'Fetch a web page document again and index what it says now',
  body: z.object({ space_id: Id, document_id: Id }),
  response: NoAnswer,
});

export const GetProgress = defineEndpoint({
  method: 'POST',
  path: '/api/knowledge/document/progress/get',
  summary: 'How the processing of documents goes: percent, status, and the reason when it failed',
  body: z.object({ space_id: Id, document_ids: z.array(Id).min(1).max(100) }),
  response: Progress,
});

export const ListSlices = defineEndpoint({
  method: 'POST',
  path: '/api/knowledge/slice/list',
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
});

export const CreateSlice = defineEndpoint({
  method: 'POST',
  path: '/api/knowledge/slice/create',
  summary: 'Add a slice to a text document at a position (1 = first); it is indexed at once',
  body: z.object({
    space_id: Id,
    document_id: Id,
    raw_text: z.string().trim().min(1, 'The slice is empty.').max(20_000),
    sequence: z.coerce.number().int().min(1).optional(),
  }),
  response: SliceCreated,
});

export const UpdateSlice = defineEndpoint({
  method: 'POST',
  path: '/api/knowledge/slice/update',
  summary: "Change a slice's text (indexed again) or enable/disable it (status 1 or 9)",
  body: z.object({
    space_id: Id,
    slice_id: Id,
    raw_text: z.string().trim().min(1, 'The slice is empty.').max(20_000).optional(),
    status: z.union([z.literal(SliceStatus.FinishVectoring), z.literal(SliceStatus.Deactive)]).optional(),
  }),
  response: OneSlice,
});

export const DeleteSlices = defineEndpoint({
  method: 'POST',
  path: '/api/knowledge/slice/delete',
  summary: 'Delete slices',
  body: z.object({ space_id: Id, slice_ids: z.array(Id).min(1).max(200) }),
  response: NoAnswer,
});

export const ListPhotos = defineEndpoint({
  method: 'POST',
  path: '/api/knowledge/photo/list',
  summary: 'Images of an image knowledge base with their captions: keyword, with or without caption',
  body: z.object({
    space_id: Id,
    dataset_id: Id,
    page: z.number().int().min(1).default(1),
    size: z.number().int().min(1).max(100).default(20),
    filter: z.object({ has_caption: z.boolean().optional(), keyword: z.string().max(100).optional() }).default({}),
  }),
  response: PhotoPage,
});

export const SetCaption = defineEndpoint({
  method: 'POST',
  path: '/api/knowledge/photo/caption',
  summary: "Set an image's caption (what retrieval finds it by)",
  body: z.object({ space_id: Id, document_id: Id, caption: z.string().max(4000) }),
  response: NoAnswer,
});

export const RetrieveTest = defineEndpoint({
  method: 'POST',
  path: '/api/knowledge/retrieve',
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
  response: Retrieval,
});
