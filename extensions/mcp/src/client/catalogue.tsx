// The MCP section of the node catalogue (one entry per tool of the space's servers) and the MCP tool
// node's card and form.
import { IconCommand } from '@arco-design/web-react/icon';
import { useQuery } from '@tanstack/react-query';
import { lazyView, useApi } from '@tessera/sdk/client';
import type { CatalogueItem, CatalogueSection, NodeTypeClient } from '@tessera/ext-workflow/client';
import { useMemo } from 'react';
import type { EndpointOutput } from '@tessera/sdk';
import type { ListServers } from '../shared/api.ts';

const NONE: CatalogueItem[] = [];
const TYPES = new Set(['string', 'integer', 'number', 'boolean', 'object', 'array']);

// The node's form loads when first drawn.
const McpNodeForm = lazyView(() => import('./nodeForm.tsx').then((m) => m.McpNodeForm));

export function useServers(spaceId: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['mcp', 'servers', spaceId],
    enabled: !!spaceId,
    queryFn: () => api.post<EndpointOutput<typeof ListServers>>('/api/mcp/server/list', { space_id: spaceId }),
  });
}

function useToolItems(spaceId: string) {
  const q = useServers(spaceId);
  const items = useMemo(
    () =>
      q.data?.servers.flatMap((s) =>
        s.tools.map<CatalogueItem>((tool) => ({
          key: `${s.server_id}:${tool.name}`,
          label: tool.name,
          description: tool.description,
          group: s.name,
          nodeType: 'mcp_tool',
          param: () => {
            const props = (tool.input_schema.properties ?? {}) as Record<string, { type?: string }>;
            return {
              title: tool.name,
              inputs: Object.entries(props).map(([name, p]) => ({
                name,
                type: (TYPES.has(String(p.type)) ? p.type : 'string') as 'string',
                value: {
                  kind: 'literal' as const,
                  value: p.type === 'string' || !TYPES.has(String(p.type)) ? '' : null,
                },
              })),
              settings: { server_id: s.server_id, tool: tool.name, server_name: s.name },
            };
          },
        })),
      ) ?? NONE,
    [q.data],
  );
  return { items, loading: q.isPending };
}

export const mcpSection: CatalogueSection = {
  key: 'mcp',
  label: 'mcp:catalogue.title',
  order: 20,
  useItems: useToolItems,
  managePath: '/mcp',
};

export const mcpNodeClient: NodeTypeClient = {
  key: 'mcp_tool',
  icon: IconCommand,
  color: '#722ed1',
  summary: (node) => {
    const s = node.node_param.settings as { server_name?: string; tool?: string };
    return s.tool ? `${s.server_name ?? ''} / ${s.tool}` : undefined;
  },
  Form: McpNodeForm,
};
