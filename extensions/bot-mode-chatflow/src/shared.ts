import { z } from 'zod';

export const ChatflowSettings = z.object({
  /** The ChatFlow that answers (flow_mode 3). */
  workflow_id: z.string().max(32).default(''),
  workflow_name: z.string().max(100).optional(),
});
export type ChatflowSettings = z.infer<typeof ChatflowSettings>;
