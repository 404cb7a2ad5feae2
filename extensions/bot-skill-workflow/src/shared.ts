import { z } from 'zod';

export const WorkflowSkillSettings = z.object({
  workflows: z
    .array(
      z.object({
        workflow_id: z.string().min(1).max(32),
        /** The workflow's name when it was added (shown; the tool takes the current one). */
        name: z.string().max(100).optional(),
      }),
    )
    .max(20, 'A bot uses at most 20 workflows.')
    .default([]),
});
export type WorkflowSkillSettings = z.infer<typeof WorkflowSkillSettings>;
