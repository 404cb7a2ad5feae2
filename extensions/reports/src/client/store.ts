// The reports' state: a report being made (and whether the caller made one already), and the administrators' list
// with their answers.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import { useState } from 'react';
import { HandleReport, QueryReports, ReportTimes, SubmitReport, type ReportView } from '../shared/api.ts';

export type { ReportView } from '../shared/api.ts';
export { REASONS } from '../shared/api.ts';

export function useReporting(objectType: ReportView['object_type'], objectId: string, objectName: string) {
  const api = useApi();
  const qc = useQueryClient();
  const times = useQuery({
    queryKey: ['report-times', objectType, objectId],
    queryFn: () => api.call(ReportTimes, { object_type: objectType, object_id: objectId }),
  });
  const submit = useMutation({
    mutationFn: (v: { reason: ReportView['reason']; detail: string }) =>
      api.call(SubmitReport, { object_type: objectType, object_id: objectId, object_name: objectName, ...v }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['report-times', objectType, objectId] }),
  });
  return { times, submit };
}

export function useReportQueue() {
  const api = useApi();
  const qc = useQueryClient();
  const [status, setStatus] = useState(1);
  const list = useQuery({
    queryKey: ['reports', status],
    queryFn: () => api.call(QueryReports, { status, object_type: '', page: 1, size: 100 }),
  });
  const handle = useMutation({
    mutationFn: (v: { id: string; action: 'resolve' | 'dismiss'; all: boolean; note: string }) =>
      api.call(HandleReport, { report_id: v.id, action: v.action, all: v.all, note: v.note }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['reports'] }),
  });
  return { status, setStatus, list, handle };
}
