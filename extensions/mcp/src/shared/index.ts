// @tessera/ext-mcp/shared: MCP servers registered in a space, and the service bot skills use to list and
// call their tools.
import { defineService } from '@tessera/sdk';

export type McpTransport = 'streamable_http' | 'sse' | 'stdio';

export interface McpToolInfo {
  name: string;
  description: string;
  /** JSON Schema of the arguments. */
  input_schema: Record<string, unknown>;
}

export interface McpServerSummary {
  server_id: string;
  space_id: string;
  name: string;
  transport: McpTransport;
  tools: McpToolInfo[];
}

export interface McpToolResult {
  /** The tool's text contents joined, and its structured content when it gave one. */
  text: string;
  structured?: unknown;
  is_error: boolean;
  content: unknown[];
}

export interface McpClients {
  /** The space's MCP servers with the tools last listed. */
  servers(spaceId: string): Promise<McpServerSummary[]>;
  callTool(
    spaceId: string,
    serverId: string,
    tool: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<McpToolResult>;
}
export const McpClientsService = defineService<McpClients>({
  id: 'mcp.clients',
  owner: 'mcp',
  description: "The space's MCP servers: their tools, and calls to them.",
});
