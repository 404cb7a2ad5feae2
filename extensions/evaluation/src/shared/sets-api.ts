// What the evaluation sets' calls answer (/api/evaluation/v1/sets/...): sets with their columns, items and frozen
// versions. Times are Unix seconds.
import { z } from 'zod';

export const ColumnView = z.object({
  name: z.string(),
  type: z.enum(['string', 'number', 'boolean', 'json', 'messages']),
  description: z.string(),
});
export const SetView = z.object({
  set_id: z.string(),
  space_id: z.string(),
  name: z.string(),
  description: z.string(),
  columns: z.array(ColumnView),
  latest_version: z.string(),
  update_time: z.number(),
  item_count: z.number().optional(),
});
export type SetView = z.output<typeof SetView>;

export const SetCreated = z.object({ set_id: z.string() });
export const SetList = z.object({ sets: z.array(SetView) });
export const SetDetail = z.object({
  set: SetView,
  items: z.array(z.object({ item_id: z.string(), data: z.record(z.string(), z.unknown()) })),
  versions: z.array(
    z.object({ version: z.string(), description: z.string(), item_count: z.number(), create_time: z.number() }),
  ),
});
export const ItemsAdded = z.object({ added: z.number() });
export const VersionFrozen = z.object({ version: z.string() });
export const NoAnswer = z.object({});
