// The plugin section of the node catalogue (one entry per published API), the Api node's card and
// form, and the OAuth interrupt in the run panel.
import { IconApps } from '@arco-design/web-react/icon';
import { useQuery } from '@tanstack/react-query';
import { lazyView, useApi } from '@tessera/sdk/client';
import type { CatalogueItem, CatalogueSection, InterruptView, NodeTypeClient } from '@tessera/ext-workflow/client';
import { useMemo } from 'react';
import { paramsToFields, ParameterType, type APIParameter } from '../shared/index.ts';
import type { EndpointOutput } from '@tessera/sdk';
import type { ListPlaygroundPlugins } from '../shared/api.ts';

// The node's form and the OAuth interrupt load when first drawn.
const ApiNodeForm = lazyView(() => import('./nodeViews.tsx').then((m) => m.ApiNodeForm));
const OAuthInterrupt = lazyView(() => import('./nodeViews.tsx').then((m) => m.OAuthInterrupt));

export interface Published {
  id: string;
  name: string;
  version_name: string;
  plugin_apis: {
    api_id: string;
    name: string;
    desc: string;
    parameters: APIParameter[];
    response_params: APIParameter[];
  }[];
}

const FIELD_TYPE: Record<number, 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array'> = {
  [ParameterType.String]: 'string',
  [ParameterType.Integer]: 'integer',
  [ParameterType.Number]: 'number',
  [ParameterType.Bool]: 'boolean',
  [ParameterType.Object]: 'object',
  [ParameterType.Array]: 'array',
};
const NONE: CatalogueItem[] = [];

export function usePublishedPlugins(spaceId: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['plugins', 'published', spaceId],
    enabled: !!spaceId,
    queryFn: () =>
      api.post<EndpointOutput<typeof ListPlaygroundPlugins>>('/api/plugin_api/get_playground_plugin_list', {
        space_id: spaceId,
      }),
  });
}

function usePluginItems(spaceId: string) {
  const q = usePublishedPlugins(spaceId);
  const items = useMemo(
    () =>
      q.data?.plugin_list.flatMap((p) =>
        p.plugin_apis.map<CatalogueItem>((a) => ({
          key: `${p.id}:${a.api_id}`,
          label: a.name,
          description: a.desc,
          group: p.name,
          nodeType: 'plugin',
          param: () => ({
            title: a.name,
            inputs: a.parameters
              .filter((x) => !x.global_disable)
              .map((x) => ({
                name: x.name,
                type: FIELD_TYPE[x.type] ?? 'string',
                value: { kind: 'literal' as const, value: x.type === ParameterType.String ? '' : null },
              })),
            outputs: paramsToFields(a.response_params),
            settings: { plugin_id: p.id, api_id: a.api_id, api_name: a.name, plugin_name: p.name, plugin_version: '' },
          }),
        })),
      ) ?? NONE,
    [q.data],
  );
  return { items, loading: q.isPending };
}

export const pluginSection: CatalogueSection = {
  key: 'plugins',
  label: 'plugins:catalogue.title',
  order: 10,
  useItems: usePluginItems,
  managePath: '/plugins',
};

export const apiNodeClient: NodeTypeClient = {
  key: 'plugin',
  icon: IconApps,
  color: '#3491fa',
  summary: (node) => {
    const s = node.node_param.settings as { plugin_name?: string; api_name?: string };
    return s.plugin_name ? `${s.plugin_name} / ${s.api_name ?? ''}` : undefined;
  },
  Form: ApiNodeForm,
};

export const oauthInterrupt: InterruptView = { type: 7, Component: OAuthInterrupt };
