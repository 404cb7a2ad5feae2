// Usage figures for a page: a period and a filter in, the days and totals (and the breakdowns) out.
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import { Analytics, AnalyticsDetails } from '../shared/api.ts';

export interface UsageFilter {
  spaceId: string;
  days: number;
  kind?: 'workflow' | 'bot';
  resourceId?: string;
}

const range = (days: number) => {
  const to = new Date();
  const from = new Date(to.getTime() - (days - 1) * 86_400_000);
  return { from: from.toISOString().slice(0, 10), to: to.toISOString().slice(0, 10) };
};

export function useUsage(f: UsageFilter) {
  const api = useApi();
  return useQuery({
    queryKey: ['usage', f],
    queryFn: () =>
      api.call(Analytics, { space_id: f.spaceId, ...range(f.days), kind: f.kind, resource_id: f.resourceId }),
  });
}

export function useUsageDetails(f: UsageFilter, groupBy: 'resource' | 'connector') {
  const api = useApi();
  return useQuery({
    queryKey: ['usage-details', f, groupBy],
    queryFn: async () =>
      (await api.call(AnalyticsDetails, { space_id: f.spaceId, ...range(f.days), kind: f.kind, group_by: groupBy }))
        .rows,
  });
}
