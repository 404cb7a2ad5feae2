import { notFound } from '@tessera/sdk';
import { defineExtension } from '@tessera/sdk/server';
import { NodeTypes } from '@tessera/ext-workflow/shared';
import { McpClientsService, type McpServerSummary } from '../shared/index.ts';
import { callTool } from './client.ts';
import { migrations } from './migrations.ts';
import { mcpNode } from './node.ts';
import { makeStore, registerRoutes, type ServerRow } from './routes.ts';

export default defineExtension({
  id: 'mcp',
  register(ctx) {
    ctx.migrations(migrations);
    const store = makeStore(ctx);
    registerRoutes(ctx, store);
    const clients = {
      async servers(spaceId: string): Promise<McpServerSummary[]> {
        const rows = (await ctx.db
          .selectFrom('mcp_server')
          .selectAll()
          .where('space_id', '=', spaceId)
          .orderBy('name')
          .execute()) as ServerRow[];
        return rows.map((r) => ({
          server_id: r.id,
          space_id: r.space_id,
          name: r.name,
          transport: r.transport,
          tools: JSON.parse(r.tools),
        }));
      },
      async callTool(
        spaceId: string,
        serverId: string,
        tool: string,
        args: Record<string, unknown>,
        signal?: AbortSignal,
      ) {
        const r = await store.get(serverId, spaceId).catch(() => {
          throw notFound(`The MCP server ${serverId} is not in this space (was it removed?).`);
        });
        return callTool(store.target(r), store.outbound, tool, args, signal);
      },
    };
    ctx.provide(McpClientsService, clients);
    ctx.register(
      NodeTypes,
      mcpNode(() => clients),
    );
  },
});
