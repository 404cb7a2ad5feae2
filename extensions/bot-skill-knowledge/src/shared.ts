import { z } from 'zod';

export const KnowledgeSkillSettings = z.object({
  datasets: z
    .array(z.object({ dataset_id: z.string().min(1).max(32), name: z.string().max(100).optional() }))
    .max(20, 'A bot uses at most 20 knowledge bases.')
    .default([]),
  /** 'auto': looked up every turn before the model answers; 'tool': the model looks up when it decides to. */
  recall: z.enum(['auto', 'tool']).default('auto'),
  /** Coze's SearchType: semantic 0, hybrid 1, full text 20. */
  search_type: z.union([z.literal(0), z.literal(1), z.literal(20)]).default(1),
  top_k: z.number().int().min(1).max(20).default(3),
  min_score: z.number().min(0).max(1).default(0),
  /** A reranking model that orders what was found ('' = none). */
  rerank_model_id: z.string().max(32).default(''),
  /** When nothing is found: say so (true), or let the model answer from what it knows. */
  no_recall_reply: z.boolean().default(false),
});
export type KnowledgeSkillSettings = z.infer<typeof KnowledgeSkillSettings>;
