// The API apps page: the space's apps; one opened shows its callback address (checked when saved), its signing
// secret (shown once), the events it takes, and its deliveries with the receiver's answers.
import { Alert, Button, Checkbox, Input, Popconfirm, Tag } from '@arco-design/web-react';
import { EmptyState, PageHeader, SidePanel, useFormat, useStudio, ListRow } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSpaceId } from './space.ts';
import { useApiApps, useDeliveries, type ApiAppView } from './store.ts';

const STATUS_COLOR: Record<string, string> = { succeeded: 'green', failed: 'red', retrying: 'orange', pending: 'gray' };

export function ApiAppsPage() {
  const { t } = useTranslation('api-apps');
  const spaceId = useSpaceId();
  const apps = useApiApps(spaceId ?? '');
  const [name, setName] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  if (!spaceId) return null;
  const list = apps.list.data ?? [];
  const opened = list.find((a) => a.id === open);
  return (
    <div className="tessera-page" data-testid="api-apps-page">
      <PageHeader title={t('title')} intro={t('intro')} />
      <div style={{ display: 'flex', gap: 8, marginBottom: 16, maxWidth: 520 }}>
        <Input
          value={name}
          onChange={setName}
          placeholder={t('namePlaceholder')}
          maxLength={100}
          data-testid="api-app-name"
        />
        <Button
          type="primary"
          disabled={!name.trim()}
          loading={apps.create.isPending}
          onClick={() => apps.create.mutate(name, { onSuccess: (r) => (setName(''), setOpen(r.api_app.id)) })}
          data-testid="api-app-create"
        >
          {t('create')}
        </Button>
      </div>
      {!apps.list.isLoading && !list.length && <EmptyState description={t('empty')} testId="api-apps-empty" />}
      {list.map((a) => (
        <ListRow key={a.id} testId="api-app">
          <a onClick={() => setOpen(a.id)} style={{ cursor: 'pointer', fontWeight: 500 }} data-testid="api-app-open">
            {a.name}
          </a>
          <span
            style={{
              color: 'var(--color-text-3)',
              fontSize: 12,
              flex: 1,
              overflow: 'hidden',
              textOverflow: 'ellipsis',
            }}
          >
            {a.callback_url || t('noAddress')}
          </span>
          <span style={{ fontSize: 12 }}>{t('eventCount', { count: a.event_types.length })}</span>
        </ListRow>
      ))}
      {opened && (
        <SidePanel visible title={opened.name} onCancel={() => setOpen(null)} size="medium" data-testid="api-app-panel">
          <AppDetail app={opened} spaceId={spaceId} apps={apps} onDeleted={() => setOpen(null)} />
        </SidePanel>
      )}
    </div>
  );
}

function AppDetail({
  app,
  spaceId,
  apps,
  onDeleted,
}: {
  app: ApiAppView;
  spaceId: string;
  apps: ReturnType<typeof useApiApps>;
  onDeleted(): void;
}) {
  const { t } = useTranslation('api-apps');
  const { language } = useStudio();
  const [url, setUrl] = useState(app.callback_url);
  const secret = apps.secret?.appId === app.id ? apps.secret.token : null;
  const label = { fontSize: 12, color: 'var(--color-text-2)', margin: '14px 0 4px' } as const;
  return (
    <div>
      {secret && (
        <Alert
          type="warning"
          closable
          onClose={apps.dismissSecret}
          title={t('secretTitle')}
          content={
            <div style={{ fontSize: 12 }}>
              {t('secretOnce')}{' '}
              <code data-testid="api-app-secret" style={{ wordBreak: 'break-all' }}>
                {secret}
              </code>
              <div style={{ marginTop: 4 }}>{t('signing')}</div>
            </div>
          }
        />
      )}
      <div style={label}>{t('callback')}</div>
      <div style={{ display: 'flex', gap: 8 }}>
        <Input
          value={url}
          onChange={setUrl}
          placeholder="https://example.com/tessera-events"
          data-testid="api-app-url"
        />
        <Button
          type="primary"
          loading={apps.update.isPending}
          disabled={url === app.callback_url}
          onClick={() => apps.update.mutate({ id: app.id, callbackUrl: url })}
          data-testid="api-app-url-save"
        >
          {t('save')}
        </Button>
      </div>
      <div style={{ fontSize: 12, color: 'var(--color-text-3)', marginTop: 4 }}>{t('callbackHint')}</div>
      <div style={label}>{t('events')}</div>
      <div style={{ display: 'flex', flexDirection: 'column', gap: 4 }} data-testid="api-app-events">
        {(apps.types.data ?? []).map((e) => (
          <Checkbox
            key={e.event_type}
            checked={app.event_types.includes(e.event_type)}
            onChange={(on) => apps.subscribe.mutate({ id: app.id, type: e.event_type, on })}
            data-testid={`api-app-event-${e.event_type}`}
          >
            {e.name[language] ?? e.name['en-US']}{' '}
            <code style={{ fontSize: 11, color: 'var(--color-text-3)' }}>{e.event_type}</code>
          </Checkbox>
        ))}
      </div>
      <div style={{ display: 'flex', gap: 8, marginTop: 14 }}>
        <Button
          size="small"
          onClick={() => apps.update.mutate({ id: app.id, regenerate: true })}
          data-testid="api-app-regenerate"
        >
          {t('regenerate')}
        </Button>
        <Popconfirm title={t('deleteConfirm')} onOk={() => apps.remove.mutate(app.id, { onSuccess: onDeleted })}>
          <Button size="small" status="danger" data-testid="api-app-delete">
            {t('delete')}
          </Button>
        </Popconfirm>
      </div>
      <Deliveries spaceId={spaceId} app={app} />
    </div>
  );
}

function Deliveries({ spaceId, app }: { spaceId: string; app: ApiAppView }) {
  const { t } = useTranslation('api-apps');
  const format = useFormat();
  const { deliveries, redeliver, ping } = useDeliveries(spaceId, app.id);
  const list = deliveries.data?.deliveries ?? [];
  return (
    <div style={{ marginTop: 18 }}>
      <div style={{ display: 'flex', alignItems: 'center' }}>
        <strong style={{ flex: 1 }}>{t('deliveries')}</strong>
        <Button
          size="small"
          disabled={!app.callback_url}
          loading={ping.isPending}
          onClick={() => ping.mutate()}
          data-testid="api-app-ping"
        >
          {t('ping')}
        </Button>
      </div>
      {!list.length && (
        <div style={{ color: 'var(--color-text-3)', fontSize: 12, marginTop: 8 }}>{t('noDeliveries')}</div>
      )}
      {list.map((d) => (
        <div
          key={d.delivery_id}
          data-testid="api-app-delivery"
          data-status={d.status}
          style={{ borderTop: '1px solid var(--color-border-1)', padding: '6px 0', fontSize: 12 }}
        >
          <div style={{ display: 'flex', gap: 6, alignItems: 'center', flexWrap: 'wrap' }}>
            <span style={{ whiteSpace: 'nowrap' }}>{format.dateTime(d.create_time * 1000)}</span>
            <code>{d.event_type}</code>
            <Tag size="small" color={STATUS_COLOR[d.status]}>
              {t(`status.${d.status}`)}
            </Tag>
            <span>{t('attempts', { count: d.attempts })}</span>
            {d.status === 'retrying' && (
              <span>{t('nextAttempt', { time: format.dateTime(d.next_attempt_time * 1000) })}</span>
            )}
            <span style={{ flex: 1 }} />
            <Button
              size="mini"
              loading={redeliver.isPending && redeliver.variables === d.delivery_id}
              onClick={() => redeliver.mutate(d.delivery_id)}
              data-testid="api-app-redeliver"
            >
              {t('redeliver')}
            </Button>
          </div>
          {d.history.slice(-3).map((h) => (
            <div
              key={h.attempt}
              style={{ color: h.error ? 'rgb(var(--danger-6))' : 'var(--color-text-3)', marginTop: 2 }}
            >
              #{h.attempt} · {h.status_code || '—'} · {h.duration_ms} ms {h.error && `· ${h.error}`}{' '}
              {h.response && `· ${h.response.slice(0, 120)}`}
            </div>
          ))}
        </div>
      ))}
    </div>
  );
}
