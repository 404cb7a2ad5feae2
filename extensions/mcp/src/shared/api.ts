// What the MCP extension's studio calls answer: a space's MCP servers (secrets masked), their tools, a tool's trial,
// and the workflows and bots served as MCP servers. Times are Unix seconds.
import { z } from 'zod';

const Tool = z.object({ name: z.string(), description: z.string(), input_schema: z.record(z.string(), z.unknown()) });
const Masked = z.array(z.object({ name: z.string(), value: z.string() }));

export const McpServerView = z.object({
  server_id: z.string(),
  space_id: z.string(),
  name: z.string(),
  description: z.string(),
  transport: z.enum(['streamable_http', 'sse', 'stdio']),
  url: z.string(),
  command: z.string(),
  args: z.array(z.string()),
  /** Names with **** for values: send **** back to keep a saved one. */
  headers: Masked,
  env: Masked,
  tools: z.array(Tool),
  tools_time: z.number().nullable(),
  /** Why the last listing of its tools failed (null: it worked). */
  last_error: z.string().nullable(),
  creator_id: z.string(),
  create_time: z.number(),
  update_time: z.number(),
});
export type McpServerView = z.output<typeof McpServerView>;

export const McpServers = z.object({ servers: z.array(McpServerView) });
export const McpTools = z.object({ tools: z.array(Tool) });
export const McpToolTrial = z.object({
  text: z.string(),
  structured: z.unknown(),
  is_error: z.boolean(),
  content: z.array(z.object({ type: z.string(), text: z.string().optional() }).passthrough()),
  duration_ms: z.number(),
});
export const Exposed = z.object({ exposed: z.boolean(), endpoint: z.string(), tool_name: z.string() });
export const ExposedWorkflows = z.object({
  items: z.array(
    z.object({
      workflow_id: z.string(),
      name: z.string(),
      latest_version: z.string(),
      tool_name: z.string(),
      endpoint: z.string(),
      create_time: z.number(),
    }),
  ),
});
export const ExposedBots = z.object({
  items: z.array(
    z.object({
      bot_id: z.string(),
      name: z.string(),
      tool_name: z.string(),
      endpoint: z.string(),
      create_time: z.number(),
    }),
  ),
});
export const NoAnswer = z.object({});
