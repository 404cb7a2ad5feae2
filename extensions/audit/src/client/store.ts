// The audit log page's state: the filters, the events of a space or of the whole studio (platform administrators),
// and the CSV download's address for the same filters.
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import { useState } from 'react';
import { ListAllAuditEvents, ListSpaceAuditEvents, type AuditFilter } from '../shared/api.ts';

export type { AuditEventView } from '../shared/api.ts';

export function useAuditLog(spaceId: string, whole: boolean) {
  const api = useApi();
  const [filter, setFilter] = useState<AuditFilter>({ action: '', actor_id: '', outcome: '', from: 0, to: 0 });
  const [page, setPage] = useState(1);
  const events = useQuery({
    queryKey: ['audit', whole ? '' : spaceId, filter, page],
    queryFn: () =>
      whole
        ? api.call(ListAllAuditEvents, { ...filter, space_id: '', page, size: 50 })
        : api.call(ListSpaceAuditEvents, { ...filter, space_id: spaceId, page, size: 50 }),
    enabled: whole || !!spaceId,
  });
  const query = new URLSearchParams(
    Object.entries({ ...filter, space_id: whole ? '' : spaceId }).map(([k, v]) => [k, String(v)]),
  );
  const csvUrl = `/api/audit/events/${whole ? 'export_all' : 'export'}?${query.toString()}`;
  return {
    events,
    filter,
    setFilter: (f: Partial<AuditFilter>) => (setFilter({ ...filter, ...f }), setPage(1)),
    page,
    setPage,
    csvUrl,
  };
}
