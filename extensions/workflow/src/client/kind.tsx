// The workflow resource kind as the studio's shared pages see it (home: create button, recent items).
import { useQuery } from '@tanstack/react-query';
import { useApi, type RecentResource, type ResourceKind } from '@tessera/sdk/client';
import { IconBranch } from '@arco-design/web-react/icon';
import { useMemo } from 'react';
import { OrderBy, SortDirection, WorkflowMode } from '@tessera/workflow-sdk';
import { WorkflowIcon } from './icons.tsx';
import { useSpaceId } from './space.ts';
import type { EndpointOutput } from '@tessera/sdk';
import type { ListWorkflows } from '../shared/api.ts';

const NONE: RecentResource[] = [];

function useRecentWorkflows(limit: number): { items: RecentResource[]; loading: boolean } {
  const api = useApi();
  const spaceId = useSpaceId();
  const q = useQuery({
    queryKey: ['workflow', 'recent', spaceId, limit],
    enabled: !!spaceId,
    queryFn: () =>
      api.post<EndpointOutput<typeof ListWorkflows>>('/api/workflow_api/workflow_list', {
        space_id: spaceId,
        page: 1,
        size: limit,
        flow_mode: WorkflowMode.All,
        order_by: OrderBy.UpdateTime,
        sort_type: SortDirection.Desc,
      }),
  });
  const items = useMemo(
    () =>
      q.data?.workflow_list.map((w) => ({
        id: w.workflow_id,
        name: w.name,
        description: w.desc,
        updatedAt: w.update_time * 1000,
        path: `/workflows/${w.workflow_id}?space_id=${w.space_id}`,
        icon: <WorkflowIcon item={w} size={28} />,
      })) ?? NONE,
    [q.data],
  );
  return { items, loading: !!spaceId && q.isPending };
}

export const workflowKind: ResourceKind = {
  kind: 'workflow',
  label: 'kind.label',
  createLabel: 'create',
  icon: IconBranch,
  order: 20,
  path: '/workflows',
  createPath: '/workflows?create=1',
  useRecent: useRecentWorkflows,
};
