import { z } from 'zod';

export const McpSkillSettings = z.object({
  tools: z
    .array(
      z.object({
        server_id: z.string().min(1).max(32),
        tool: z.string().min(1).max(200),
      }),
    )
    .max(30, 'A bot uses at most 30 MCP tools.')
    .default([]),
});
export type McpSkillSettings = z.infer<typeof McpSkillSettings>;
