// A project's history (rollback to a version) and its publish records.
import { Button, Empty, Popconfirm, Space, Spin, Tag, Typography } from '@arco-design/web-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SidePanel, toast, useApi, useFormat, useConnectorView, ConnectorPanel } from '@tessera/sdk/client';
import { useTranslation } from 'react-i18next';
import { ResultsTable } from './PublishModal.tsx';
import { ListPublishConnectors, ListPublishRecords, ProjectHistory, RollbackProject } from '../shared/api.ts';

export function HistoryDrawer({
  projectId,
  visible,
  onClose,
}: {
  projectId: string;
  visible: boolean;
  onClose(): void;
}) {
  const { t } = useTranslation('projects');
  const api = useApi();
  const qc = useQueryClient();
  const format = useFormat();
  const q = useQuery({
    queryKey: ['projects', 'history', projectId],
    enabled: visible,
    queryFn: () => api.call(ProjectHistory, { project_id: projectId }),
  });
  const rollback = useMutation({
    mutationFn: (history_id: string) =>
      api.call(RollbackProject, {
        project_id: projectId,
        history_id,
      }),
    onSuccess: async (r) => {
      toast.success(r.missing.length ? t('rolledBackMissing', { n: r.missing.length }) : t('rolledBack'));
      await qc.invalidateQueries({ queryKey: ['projects'] });
    },
  });
  return (
    <SidePanel size="small" visible={visible} title={t('history')} onCancel={onClose}>
      {q.isLoading && <Spin />}
      {(q.data?.history ?? []).map((h, i) => (
        <div
          key={h.history_id}
          data-testid="project-history-item"
          style={{ borderBottom: '1px solid var(--color-border-1)', padding: '8px 0' }}
        >
          <Space style={{ width: '100%', justifyContent: 'space-between' }}>
            <span>
              <Tag size="small">{t(`action.${h.action}`, { defaultValue: h.action })}</Tag> {h.snapshot.name} ·{' '}
              {t('count', { n: h.snapshot.members.length })}
            </span>
            {i > 0 && (
              <Popconfirm title={t('rollbackTitle')} onOk={() => rollback.mutate(h.history_id)}>
                <Button size="mini" type="text" data-testid="project-rollback">
                  {t('rollback')}
                </Button>
              </Popconfirm>
            )}
          </Space>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {format.dateTime(h.create_time * 1000)}
          </Typography.Text>
        </div>
      ))}
    </SidePanel>
  );
}

export function RecordsDrawer({
  projectId,
  visible,
  onClose,
}: {
  projectId: string;
  visible: boolean;
  onClose(): void;
}) {
  const { t } = useTranslation('projects');
  const api = useApi();
  const format = useFormat();
  const q = useQuery({
    queryKey: ['projects', 'records', projectId],
    enabled: visible,
    queryFn: () => api.call(ListPublishRecords, { project_id: projectId }),
  });
  const live = q.data?.records.find((r) => r.status !== 3);
  // The connectors' names as their extensions give them (a channel this page does not know of is named too).
  const { i18n } = useTranslation();
  const connectors = useQuery({
    queryKey: ['projects', 'connectors', projectId],
    enabled: visible,
    queryFn: () => api.call(ListPublishConnectors, { project_id: projectId }),
  });
  const nameOf = (id: string) => {
    const n = connectors.data?.connectors.find((c) => c.id === id)?.name;
    return t(`connector.${id}`, { defaultValue: n?.[i18n.language] ?? n?.['en-US'] ?? id });
  };
  // How a site embeds the published chat-flows, from the chat page and Web SDK connector's extension (if here).
  const embedShown = !!useConnectorView('999');
  const embeddable =
    embedShown && live?.connectors.includes('999')
      ? live.results.filter((r) => r.res_type === 'workflow' && r.status === 'published')
      : [];
  return (
    <SidePanel visible={visible} title={t('records')} onCancel={onClose}>
      {q.data && !q.data.records.length && <Empty description={t('noRecords')} />}
      {live && (
        // The last publication that published something is what answers, on the connectors it went to.
        <div style={{ marginBottom: 12 }} data-testid="project-live">
          <Typography.Text type="secondary">{t('liveNow')}</Typography.Text>
          <div>
            {live.connectors.length ? (
              live.connectors.map((c) => (
                <Tag key={c} color="green" style={{ marginRight: 4 }} data-testid="project-live-connector">
                  {nameOf(c)}: {live.version}
                </Tag>
              ))
            ) : (
              <Typography.Text type="secondary">{t('noConnectors')}</Typography.Text>
            )}
          </div>
        </div>
      )}
      {embedShown && embeddable.length > 0 && (
        <div style={{ marginBottom: 16 }}>
          <Typography.Text bold>{t('embedTitle')}</Typography.Text>
          <Typography.Paragraph type="secondary" style={{ marginBottom: 4 }}>
            {t('embedHelp')}
          </Typography.Paragraph>
          {embeddable.map((r) => (
            <ConnectorPanel
              key={r.res_id}
              connector="999"
              target={{ kind: 'workflow', id: r.res_id, project_id: projectId }}
              title={r.name}
            />
          ))}
        </div>
      )}
      {(q.data?.records ?? []).map((r) => (
        <div key={r.record_id} data-testid="project-record" style={{ marginBottom: 16 }}>
          <Space>
            <Tag color="green">{r.version}</Tag>
            <Typography.Text>{t(`publishStatus.${r.status}`)}</Typography.Text>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {format.dateTime(r.create_time * 1000)}
            </Typography.Text>
          </Space>
          <ResultsTable results={r.results} />
        </div>
      ))}
    </SidePanel>
  );
}
