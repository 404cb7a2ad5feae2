// The plugin resource kind as the studio's shared pages see it (home: create button, recent items).
import { IconApps } from '@arco-design/web-react/icon';
import { useQuery } from '@tanstack/react-query';
import { useApi, type RecentResource, type ResourceKind } from '@tessera/sdk/client';
import { useMemo } from 'react';
import { useSpaceId } from './space.ts';
import type { EndpointOutput } from '@tessera/sdk';
import type { ListDevPlugins } from '../shared/api.ts';

const NONE: RecentResource[] = [];

function useRecentPlugins(limit: number): { items: RecentResource[]; loading: boolean } {
  const api = useApi();
  const spaceId = useSpaceId();
  const q = useQuery({
    queryKey: ['plugins', 'list', spaceId, 'recent', limit],
    enabled: !!spaceId,
    queryFn: () =>
      api.post<EndpointOutput<typeof ListDevPlugins>>('/api/plugin_api/get_dev_plugin_list', {
        space_id: spaceId,
        page: 1,
        size: limit,
        order_by: 'update_time',
      }),
  });
  const items = useMemo(
    () =>
      q.data?.plugin_list.map((p) => ({
        id: p.plugin_id,
        name: p.name,
        description: p.desc,
        updatedAt: p.update_time * 1000,
        path: `/plugins/${p.plugin_id}?space_id=${p.space_id}`,
        icon: <IconApps style={{ fontSize: 24 }} />,
      })) ?? NONE,
    [q.data],
  );
  return { items, loading: !!spaceId && q.isPending };
}

export const pluginKind: ResourceKind = {
  kind: 'plugin',
  label: 'kind.label',
  createLabel: 'create',
  icon: IconApps,
  order: 30,
  path: '/plugins',
  createPath: '/plugins?create=1',
  useRecent: useRecentPlugins,
};
