import { z } from 'zod';

export const TableSkillSettings = z.object({
  tables: z
    .array(z.object({ database_id: z.string().min(1).max(32), name: z.string().max(64).optional() }))
    .max(10, 'A bot uses at most 10 tables.')
    .default([]),
});
export type TableSkillSettings = z.infer<typeof TableSkillSettings>;
