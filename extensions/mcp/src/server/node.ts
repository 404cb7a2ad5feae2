// The MCP tool node: calls one tool of an MCP server registered in the space.
import type { NodeTypeDefinition } from '@tessera/workflow-sdk';
import { z } from 'zod';
import type { McpClients } from '../shared/index.ts';

export const McpNodeSettings = z.object({
  server_id: z.string().min(1, 'Choose an MCP server and tool.'),
  tool: z.string().min(1, 'Choose an MCP server and tool.').max(200),
  server_name: z.string().max(100).default(''),
});

export function mcpNode(clients: () => McpClients): NodeTypeDefinition {
  return {
    key: 'mcp_tool',
    // An MCP tool may change something on the other side.
    repeatSafe: false,
    // The studio's own node types beyond the spec's codes take 1000 and up.
    code: 1000,
    category: 'utility',
    label: { 'en-US': 'MCP tool', 'zh-CN': 'MCP 工具' },
    description: {
      'en-US': "Calls a tool of one of the space's MCP servers; outputs its text and structured result.",
      'zh-CN': '调用空间中 MCP 服务的一个工具；输出其文本和结构化结果。',
    },
    settings: McpNodeSettings,
    outputsOf: () => [
      { name: 'text', type: 'string' },
      { name: 'result', type: 'object' },
    ],
    async execute(ctx) {
      const s = ctx.settings as z.infer<typeof McpNodeSettings>;
      const r = await ctx.span('mcp.call', { 'mcp.server_id': s.server_id, 'mcp.tool': s.tool }, () =>
        clients().callTool(ctx.spaceId, s.server_id, s.tool, ctx.inputs, ctx.signal),
      );
      if (r.is_error)
        throw new Error(`The MCP tool ${s.tool} answered with an error: ${r.text.slice(0, 500) || 'no message'}`);
      let result = r.structured;
      if (result === undefined) {
        try {
          result = JSON.parse(r.text);
        } catch {
          result = {};
        }
      }
      return {
        outputs: {
          text: r.text,
          result: result && typeof result === 'object' && !Array.isArray(result) ? result : { value: result },
        },
      };
    },
  };
}
