// Items made from traces: a search of the spans to take, and the mapping of their fields to the dataset's.
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';
import { BASE, Id } from './base.ts';

export const TraceSpanView = z.object({
  traceID: z.string(),
  spanID: z.string(),
  name: z.string(),
  input: z.string(),
  output: z.string(),
  startTime: z.number(),
});
export const SearchTracesForDataset = defineEndpoint({
  method: 'POST',
  path: `${BASE}/datasets/:datasetID/traces/search`,
  summary: "The space's recent traces (their root spans) to add to the dataset, newest first",
  params: z.object({ datasetID: Id }),
  body: z.object({
    hours: z
      .number()
      .int()
      .min(1)
      .max(24 * 30)
      .default(24),
    name: z.string().max(200).default(''),
    limit: z.number().int().min(1).max(500).default(100),
  }),
  response: z.object({ spans: z.array(TraceSpanView) }),
});
export const TraceFieldMapping = z.object({
  fieldName: z.string().min(1).max(64),
  /** input, output, or an attribute of the span. */
  traceFieldKey: z.string().min(1).max(128),
  /** A path into that value when it holds JSON ($.messages[0].content). */
  traceFieldJsonpath: z.string().max(200).default(''),
});
export type TraceFieldMapping = z.output<typeof TraceFieldMapping>;
export const ItemsFromTraces = defineEndpoint({
  method: 'POST',
  path: `${BASE}/datasets/:datasetID/items/from_traces`,
  summary:
    "Items made of spans (a trace's root without a span id) by field mappings: previewed (each item as it would be, with its problem), or added",
  params: z.object({ datasetID: Id }),
  body: z.object({
    spans: z
      .array(z.object({ traceID: z.string().min(1).max(64), spanID: z.string().max(64).optional() }))
      .min(1)
      .max(500),
    fieldMappings: z.array(TraceFieldMapping).min(1, 'Map at least one field.').max(50),
    preview: z.boolean().default(false),
  }),
  response: z.object({
    items: z.array(
      z.object({
        traceID: z.string(),
        spanID: z.string(),
        data: z.record(z.string(), z.unknown()),
        problem: z.string().optional(),
      }),
    ),
    added: z.number(),
  }),
});
