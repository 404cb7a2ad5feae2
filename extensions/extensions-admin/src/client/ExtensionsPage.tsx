import { Alert, Button, Input, Space, Table, Tag, Typography } from '@arco-design/web-react';
import { IconSearch } from '@arco-design/web-react/icon';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, Modal, toast, useApi, useStudio } from '@tessera/sdk/client';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  InstallExtension,
  ListExtensions,
  PreviewChanges,
  RemoveExtension,
  SetEnabled,
  type ChangeView,
} from '../shared/api.ts';

export interface ExtensionRow {
  id: string;
  version: string;
  state: 'started' | 'disabled' | 'failed' | 'stopped';
  source: string;
  reason?: string;
  folder?: string | null;
  /** Per language; absent: the id is the name. */
  name?: Record<string, string>;
  description?: Record<string, string>;
  contributions?: { point: string; keys: string[] }[];
  pending?: 'enable' | 'disable' | 'install' | 'remove';
}
type Preview = ChangeView;

const COLORS: Record<ExtensionRow['state'], string> = {
  started: 'green',
  disabled: 'gray',
  failed: 'red',
  stopped: 'orange',
};

/**
 * Which extensions run and why the others do not; for platform administrators also what each
 * contributes, enable/disable with the cascade shown before confirming, install from a tarball, remove.
 */
export function ExtensionsPage() {
  const { t } = useTranslation('extensions-admin');
  const api = useApi();
  const qc = useQueryClient();
  // Platform administrators get the full list and the actions; everyone else what runs and why not.
  const q = useQuery({
    queryKey: ['extensions-admin'],
    queryFn: async (): Promise<{ admin: boolean; rows: ExtensionRow[] }> => {
      try {
        return {
          admin: true,
          rows: (
            await api.call(ListExtensions, undefined, {
              handled: (e) => e.status === 403 || e.status === 401,
            })
          ).extensions,
        };
      } catch (e) {
        if (!ApiError.is(e) || (e.status !== 403 && e.status !== 401)) throw e;
        return { admin: false, rows: (await api.get<{ extensions: ExtensionRow[] }>('/api/extensions')).extensions };
      }
    },
  });
  const isAdmin = !!q.data?.admin;
  const [asking, setAsking] = useState<{ id: string; enable: boolean; changes: Preview[] } | undefined>();
  const [busy, setBusy] = useState(false);
  const file = useRef<HTMLInputElement>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: ['extensions-admin'] });

  const toggle = async (row: ExtensionRow, enable: boolean) => {
    const { changes } = await api.call(PreviewChanges, {
      changes: { [row.id]: enable },
    });
    setAsking({ id: row.id, enable, changes });
  };
  const confirm = async () => {
    if (!asking) return;
    setBusy(true);
    try {
      await api.call(SetEnabled, { changes: { [asking.id]: asking.enable } });
      toast.success(t('applied'));
      setAsking(undefined);
      await refresh();
    } finally {
      setBusy(false);
    }
  };
  const install = async (f: File) => {
    setBusy(true);
    try {
      const bytes = new Uint8Array(await f.arrayBuffer());
      let binary = '';
      for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      const r = await api.call(InstallExtension, {
        file_name: f.name,
        content_base64: btoa(binary),
      });
      toast.success(t(r.replaced ? 'replaced' : 'installed', { id: r.id, version: r.version }));
      await refresh();
    } finally {
      setBusy(false);
      if (file.current) file.current.value = '';
    }
  };
  const remove = async (row: ExtensionRow) => {
    await api.call(RemoveExtension, { id: row.id });
    toast.success(t('removed', { id: row.id }));
    await refresh();
  };

  const { language } = useStudio();
  const text = useCallback((v: Record<string, string> | undefined) => v?.[language] ?? v?.['en-US'], [language]);
  const [search, setSearch] = useState('');
  const all = q.data?.rows;
  // Found by name (in the language shown), id or description.
  const rows = useMemo(() => {
    const words = search.trim().toLowerCase();
    return (all ?? []).filter(
      (r) => !words || [r.id, text(r.name), text(r.description)].some((x) => x?.toLowerCase().includes(words)),
    );
  }, [all, search, text]);
  const pending = rows.filter((r) => r.pending);
  return (
    <div data-testid="extensions-page">
      {isAdmin && (
        <Space style={{ marginBottom: 12 }} wrap>
          <input
            ref={file}
            type="file"
            accept=".tgz,.tar.gz,application/gzip"
            style={{ display: 'none' }}
            data-testid="extensions-install-input"
            onChange={(e) => e.target.files?.[0] && void install(e.target.files[0])}
          />
          <Button type="primary" loading={busy} onClick={() => file.current?.click()} data-testid="extensions-install">
            {t('install')}
          </Button>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('installHint')}
          </Typography.Text>
        </Space>
      )}
      <Input
        allowClear
        prefix={<IconSearch />}
        placeholder={t('search')}
        value={search}
        onChange={setSearch}
        style={{ maxWidth: 360, marginBottom: 12 }}
        data-testid="extensions-search"
      />
      {pending.length > 0 && (
        <Alert
          type="warning"
          style={{ marginBottom: 12 }}
          content={t('pendingBanner', { count: pending.length })}
          data-testid="extensions-pending"
        />
      )}
      <Table<ExtensionRow>
        data-testid="extensions-table"
        rowKey={(r) => `${r.id}:${r.folder ?? ''}`}
        loading={q.isLoading}
        pagination={false}
        data={rows}
        noDataElement={<Typography.Text type="secondary">{t('noMatch')}</Typography.Text>}
        expandedRowRender={isAdmin ? (r) => <Contributions row={r} /> : undefined}
        columns={[
          {
            title: t('id'),
            dataIndex: 'id',
            render: (id: string, r) => (
              <div data-testid={`ext-${id}`}>
                <Space size={6} wrap>
                  <Typography.Text style={{ fontWeight: 500 }} data-testid={`ext-name-${id}`}>
                    {text(r.name) ?? id}
                  </Typography.Text>
                  {text(r.name) && (
                    <Typography.Text type="secondary" style={{ fontSize: 12, fontFamily: 'monospace' }}>
                      {id}
                    </Typography.Text>
                  )}
                </Space>
                {text(r.description) && (
                  <div style={{ fontSize: 12, color: 'var(--color-text-3)', maxWidth: 520 }}>{text(r.description)}</div>
                )}
              </div>
            ),
          },
          { title: t('version'), dataIndex: 'version' },
          { title: t('source'), dataIndex: 'source', render: (s: string) => t(`sources.${s}`) },
          {
            title: t('state'),
            dataIndex: 'state',
            render: (s: ExtensionRow['state'], r) => (
              <Space size={4}>
                <Tag color={COLORS[s]} data-testid={`ext-state-${r.id}`} data-state={s}>
                  {t(`states.${s}`)}
                </Tag>
                {r.pending && (
                  <Tag color="orangered" data-testid={`ext-pending-${r.id}`} data-pending={r.pending}>
                    {t(`pending.${r.pending}`)}
                  </Tag>
                )}
              </Space>
            ),
          },
          {
            title: t('reason'),
            dataIndex: 'reason',
            render: (reason: string | undefined, r) => (
              <span style={{ fontSize: 12, overflowWrap: 'anywhere' }}>
                {reason ?? ''}
                {r.folder && r.source === 'runtime' ? (
                  <div style={{ color: 'var(--color-text-3)' }}>{r.folder}</div>
                ) : null}
              </span>
            ),
          },
          ...(isAdmin
            ? [
                {
                  title: t('actions'),
                  dataIndex: 'actions',
                  render: (_: unknown, r: ExtensionRow) => {
                    const runsNext =
                      r.pending === 'disable' ? false : r.pending === 'enable' ? true : r.state === 'started';
                    const canToggle =
                      r.source !== 'test' &&
                      r.pending !== 'install' &&
                      r.pending !== 'remove' &&
                      (r.state !== 'failed' || r.version !== '');
                    return (
                      <Space size={4}>
                        {canToggle && (
                          <Button
                            size="mini"
                            status={runsNext ? 'warning' : undefined}
                            onClick={() => void toggle(r, !runsNext)}
                            data-testid={`ext-toggle-${r.id}`}
                          >
                            {runsNext ? t('disable') : t('enable')}
                          </Button>
                        )}
                        {r.source === 'runtime' && r.pending !== 'remove' && r.folder && (
                          <Button
                            size="mini"
                            status="danger"
                            onClick={() => void remove(r)}
                            data-testid={`ext-remove-${r.id}`}
                          >
                            {t('remove')}
                          </Button>
                        )}
                      </Space>
                    );
                  },
                },
              ]
            : []),
        ]}
      />
      <Modal
        visible={!!asking}
        title={asking ? t(asking.enable ? 'confirmEnable' : 'confirmDisable', { id: asking.id }) : ''}
        onCancel={() => setAsking(undefined)}
        onOk={() => void confirm()}
        confirmLoading={busy}
        okText={t('confirm')}
        data-testid="extensions-cascade"
      >
        {asking && (
          <div>
            <Typography.Paragraph>{t('cascadeIntro')}</Typography.Paragraph>
            {asking.changes.length === 0 ? (
              <Typography.Paragraph type="secondary">{t('noChange')}</Typography.Paragraph>
            ) : (
              <ul style={{ paddingLeft: 18 }}>
                {asking.changes.map((c) => (
                  <li key={c.id} data-testid="cascade-item" data-id={c.id} data-change={c.change}>
                    <b>{c.id}</b> {t(c.change === 'disable' ? 'willStop' : 'willRun')}{' '}
                    <span style={{ color: 'var(--color-text-3)' }}>({c.reason})</span>
                  </li>
                ))}
              </ul>
            )}
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('nextStart')}
            </Typography.Text>
          </div>
        )}
      </Modal>
    </div>
  );
}

function Contributions({ row }: { row: ExtensionRow }) {
  const { t } = useTranslation('extensions-admin');
  if (!row.contributions?.length) return <Typography.Text type="secondary">{t('noContributions')}</Typography.Text>;
  return (
    <div data-testid={`ext-contributions-${row.id}`} style={{ fontSize: 12 }}>
      {row.contributions.map((c) => (
        <div key={c.point} style={{ marginBottom: 4 }}>
          <Typography.Text code>{c.point}</Typography.Text> {c.keys.join(', ')}
        </div>
      ))}
    </div>
  );
}
