import { z } from 'zod';

export const PluginSkillSettings = z.object({
  apis: z
    .array(
      z.object({
        plugin_id: z.string().min(1).max(32),
        api_id: z.string().min(1).max(32),
        /** The API's name when it was added (shown; the tool takes the current one). */
        name: z.string().max(100).optional(),
      }),
    )
    .max(30, 'A bot uses at most 30 plugin APIs.')
    .default([]),
});
export type PluginSkillSettings = z.infer<typeof PluginSkillSettings>;
