// The MCP extension's studio calls (one contract for the routes, the pages and /openapi.json): a space's MCP servers (secrets masked), their tools, a tool's trial,
// and the workflows and bots served as MCP servers. Times are Unix seconds.
import { defineEndpoint, isHttpUrl } from '@tessera/sdk';
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

// ------------------------------------------------------------------ the calls

const Id = z.string().min(1).max(32);
const Pair = z.object({ name: z.string().trim().min(1).max(200), value: z.string().max(8000) });
const Transport = z.enum(['streamable_http', 'sse', 'stdio']);
/** An MCP server's settings as the studio sends them. */
export const ServerFields = z.object({
  name: z.string().trim().min(1, 'Give the server a name.').max(100),
  description: z.string().max(2000),
  transport: Transport,
  url: z
    .string()
    .trim()
    .max(2000)
    .refine((v) => !v || isHttpUrl(v), 'Give the server URL as an http:// or https:// address.'),
  headers: z.array(Pair).max(50),
  command: z.string().trim().max(2000),
  args: z.array(z.string().max(2000)).max(100),
  env: z.array(Pair).max(100),
});

export const CreateServer = defineEndpoint({
  method: 'POST',
  path: '/api/mcp/server/create',
  summary:
    'Register an MCP server: streamable HTTP or SSE URL with headers, or (platform administrators) a stdio command; its tools are listed at once',
  body: ServerFields.partial({
    description: true,
    url: true,
    headers: true,
    command: true,
    args: true,
    env: true,
  }).extend({ space_id: Id }),
  response: McpServerView,
});

export const UpdateServer = defineEndpoint({
  method: 'POST',
  path: '/api/mcp/server/update',
  summary: 'Change an MCP server (a header or environment value sent as **** keeps the saved one)',
  body: ServerFields.partial().extend({ space_id: Id, server_id: Id }),
  response: McpServerView,
});

export const DeleteServer = defineEndpoint({
  method: 'POST',
  path: '/api/mcp/server/delete',
  summary: 'Remove an MCP server from the space',
  body: z.object({ space_id: Id, server_id: Id }),
  response: NoAnswer,
});

export const ListServers = defineEndpoint({
  method: 'POST',
  path: '/api/mcp/server/list',
  summary: 'MCP servers of a space with their tools (as last listed)',
  body: z.object({ space_id: Id, name: z.string().max(100).optional() }),
  response: McpServers,
});

export const ListServerTools = defineEndpoint({
  method: 'POST',
  path: '/api/mcp/server/tools',
  summary: "List an MCP server's tools again (connects to it)",
  body: z.object({ space_id: Id, server_id: Id }),
  response: McpTools,
});

export const CallServerTool = defineEndpoint({
  method: 'POST',
  path: '/api/mcp/server/call_tool',
  summary: 'Try a tool of an MCP server with given arguments',
  body: z.object({
    space_id: Id,
    server_id: Id,
    tool: z.string().min(1).max(200),
    arguments: z.record(z.string(), z.unknown()).default({}),
  }),
  response: McpToolTrial,
});

export const ExposeWorkflow = defineEndpoint({
  method: 'POST',
  path: '/api/mcp/workflow/expose',
  summary: 'Expose a published workflow as an MCP server (or stop); answers its endpoint',
  body: z.object({ space_id: Id, workflow_id: Id, exposed: z.boolean() }),
  response: Exposed,
});

export const ListExposedWorkflows = defineEndpoint({
  method: 'POST',
  path: '/api/mcp/workflow/list_exposed',
  summary: 'The workflows of a space exposed as MCP servers, with their endpoints',
  body: z.object({ space_id: Id }),
  response: ExposedWorkflows,
});

export const ExposeBot = defineEndpoint({
  method: 'POST',
  path: '/api/mcp/bot/expose',
  summary: 'Serve a bot published to the API as an MCP server (or stop); answers its endpoint',
  body: z.object({ space_id: Id, bot_id: Id, exposed: z.boolean() }),
  response: Exposed,
});

export const ListExposedBots = defineEndpoint({
  method: 'POST',
  path: '/api/mcp/bot/list_exposed',
  summary: 'The bots of a space served as MCP servers, with their endpoints',
  body: z.object({ space_id: Id }),
  response: ExposedBots,
});
