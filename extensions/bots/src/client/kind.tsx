// The bot resource kind as the studio's shared pages see it (home: create button, recent items).
import { useQuery } from '@tanstack/react-query';
import { useApi, type RecentResource, type ResourceKind } from '@tessera/sdk/client';
import { IconRobot } from '@arco-design/web-react/icon';
import { useMemo } from 'react';
import { BotIcon } from './BotIcon.tsx';
import { useSpaceId } from './space.ts';
import type { EndpointOutput } from '@tessera/sdk';
import type { ListBots } from '../shared/api.ts';

const NONE: RecentResource[] = [];

function useRecentBots(limit: number): { items: RecentResource[]; loading: boolean } {
  const api = useApi();
  const spaceId = useSpaceId();
  const q = useQuery({
    queryKey: ['bots', 'list', spaceId, 'recent', limit],
    enabled: !!spaceId,
    queryFn: () =>
      api.post<EndpointOutput<typeof ListBots>>('/api/draftbot/get_draft_bot_list', {
        space_id: spaceId,
        page_index: 1,
        page_size: limit,
        order_by: 'update_time',
      }),
  });
  const items = useMemo(
    () =>
      q.data?.bot_draft_list.map((b) => ({
        id: b.bot_id,
        name: b.name,
        description: b.description,
        updatedAt: b.update_time * 1000,
        path: `/bots/${b.bot_id}?space_id=${b.space_id}`,
        icon: <BotIcon bot={b} size={28} />,
      })) ?? NONE,
    [q.data],
  );
  return { items, loading: !!spaceId && q.isPending };
}

export const botKind: ResourceKind = {
  kind: 'bot',
  label: 'kind.label',
  createLabel: 'create',
  icon: IconRobot,
  order: 10,
  path: '/bots',
  createPath: '/bots?create=1',
  useRecent: useRecentBots,
};
