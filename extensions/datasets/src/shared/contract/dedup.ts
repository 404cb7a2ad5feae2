// Data jobs that find duplicate items (exact or near, by MinHash) and remove the ones a person confirms.
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';
import { BASE, Id } from './base.ts';

export const DedupJobView = z.object({
  jobID: z.string(),
  datasetID: z.string(),
  field: z.string(),
  method: z.enum(['exact', 'minhash']),
  threshold: z.number(),
  status: z.enum(['queued', 'running', 'done', 'failed', 'cancelled']),
  progress: z.number(),
  pairCount: z.number(),
  message: z.string(),
  /** The most similar pairs first (500 at most), with the field's text of each. */
  pairs: z.array(
    z.object({ itemA: z.string(), itemB: z.string(), similarity: z.number(), textA: z.string(), textB: z.string() }),
  ),
});
export type DedupJobView = z.output<typeof DedupJobView>;
export const CreateDedupJob = defineEndpoint({
  method: 'POST',
  path: `${BASE}/datasets/:datasetID/dedup_jobs`,
  summary:
    "Find duplicates among the draft's items by a text field: exact (once normalised) or near (MinHash, Jaccard similarity of word trigrams at least the threshold), as a background job",
  params: z.object({ datasetID: Id }),
  body: z.object({
    field: z.string().min(1).max(64),
    method: z.enum(['exact', 'minhash']).default('minhash'),
    threshold: z.number().min(0.3).max(1).default(0.8),
  }),
  response: z.object({ job: DedupJobView }),
});
export const GetDedupJob = defineEndpoint({
  method: 'GET',
  path: `${BASE}/datasets/:datasetID/dedup_jobs/:jobID`,
  summary: 'A dedup job: its progress and the pairs it found, for confirmation',
  params: z.object({ datasetID: Id, jobID: Id }),
  response: z.object({ job: DedupJobView }),
});
export const ConfirmDedup = defineEndpoint({
  method: 'POST',
  path: `${BASE}/datasets/:datasetID/dedup_jobs/:jobID/confirm`,
  summary: "Remove the confirmed duplicates from the draft (items of the job's pairs only; versions keep them)",
  params: z.object({ datasetID: Id, jobID: Id }),
  body: z.object({ removeItemIDs: z.array(Id).min(1).max(10_000) }),
  response: z.object({ removed: z.number() }),
});
export const CancelDedup = defineEndpoint({
  method: 'POST',
  path: `${BASE}/datasets/:datasetID/dedup_jobs/:jobID/cancel`,
  summary: 'Stop a dedup job that has not finished',
  params: z.object({ datasetID: Id, jobID: Id }),
  body: z.object({}).default({}),
  response: z.object({ job: DedupJobView }),
});
