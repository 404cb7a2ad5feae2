// The workflow editor's Triggers panel: the workflow's triggers, each opened or closed, tested, changed, deleted, with
// its firings; a new one made here. A webhook trigger's secret is shown once, right after it was made.
import { Alert, Button, Input, Popconfirm, Switch, Tag, Typography } from '@arco-design/web-react';
import { isRecord, useStudio } from '@tessera/sdk/client';
import type { EditorPanelProps } from '@tessera/ext-workflow/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Firings } from './Firings.tsx';
import { TriggerForm } from './TriggerForm.tsx';
import { zonedTime } from './zoned.ts';
import { useEventSources, useTriggers, type FreshSecret, type TriggerView } from './store.ts';

export function TriggersPanel({ spaceId, workflowId, latestVersion, inputs }: EditorPanelProps) {
  const { t } = useTranslation('triggers');
  const triggers = useTriggers(spaceId, workflowId);
  const [editing, setEditing] = useState<TriggerView | 'new' | null>(null);
  const list = triggers.list.data ?? [];
  return (
    <div data-testid="triggers-panel" style={{ padding: 16, display: 'flex', flexDirection: 'column', gap: 12 }}>
      <div style={{ display: 'flex', alignItems: 'center' }}>
        <Typography.Title heading={6} style={{ margin: 0, flex: 1 }}>
          {t('panel.title')}
        </Typography.Title>
        {!editing && (
          <Button type="primary" size="small" onClick={() => setEditing('new')} data-testid="trigger-new">
            {t('panel.new')}
          </Button>
        )}
      </div>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('panel.intro')}
      </Typography.Text>
      {!latestVersion && <Alert type="info" content={t('panel.unpublished')} data-testid="triggers-unpublished" />}
      {triggers.fresh && <SecretBox fresh={triggers.fresh} onClose={triggers.dismissSecret} />}
      {editing && (
        <TriggerForm
          spaceId={spaceId}
          inputs={inputs}
          trigger={editing === 'new' ? undefined : editing}
          saving={triggers.save.isPending}
          onCancel={() => setEditing(null)}
          onSave={(input) => triggers.save.mutate(input, { onSuccess: () => setEditing(null) })}
        />
      )}
      {!editing && !list.length && !triggers.list.isLoading && (
        <div style={{ color: 'var(--color-text-3)', fontSize: 13 }} data-testid="triggers-empty">
          {t('panel.empty')}
        </div>
      )}
      {!editing &&
        list.map((x) => (
          <TriggerItem
            key={x.trigger_id}
            trigger={x}
            spaceId={spaceId}
            workflowId={workflowId}
            canOpen={!!latestVersion}
            triggers={triggers}
            onEdit={() => setEditing(x)}
          />
        ))}
    </div>
  );
}

function TriggerItem({
  trigger: x,
  spaceId,
  workflowId,
  canOpen,
  triggers,
  onEdit,
}: {
  trigger: TriggerView;
  spaceId: string;
  workflowId: string;
  canOpen: boolean;
  triggers: ReturnType<typeof useTriggers>;
  onEdit(): void;
}) {
  const { t } = useTranslation('triggers');
  const [showFirings, setShowFirings] = useState(false);
  const [sample, setSample] = useState(x.event_id === 'webhook' ? '{"body": {}}' : '{}');
  const kind = x.trigger_type === 0 ? 'cron' : x.event_id === 'webhook' ? 'webhook' : 'event';
  const sampleData = (() => {
    try {
      const v: unknown = JSON.parse(sample);
      return isRecord(v) ? v : undefined;
    } catch {
      return undefined;
    }
  })();
  return (
    <div
      data-testid="trigger-item"
      data-trigger-id={x.trigger_id}
      style={{
        border: '1px solid var(--color-border-2)',
        borderRadius: 4,
        padding: 10,
        display: 'flex',
        flexDirection: 'column',
        gap: 6,
      }}
    >
      <div style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
        <strong style={{ flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis' }}>{x.name}</strong>
        <Tag size="small">{t(`kind.${kind}`)}</Tag>
        <Switch
          size="small"
          checked={x.status === 1}
          disabled={!canOpen && x.status !== 1}
          loading={triggers.operate.isPending && triggers.operate.variables?.trigger.trigger_id === x.trigger_id}
          onChange={(open) => triggers.operate.mutate({ trigger: x, open })}
          aria-label={t('item.open')}
          data-testid="trigger-open"
        />
      </div>
      <Summary trigger={x} spaceId={spaceId} />
      {kind !== 'cron' && (
        <Input.TextArea
          value={sample}
          onChange={setSample}
          autoSize={{ minRows: 1, maxRows: 4 }}
          style={{ fontFamily: 'monospace', fontSize: 12 }}
          aria-label={t('item.sample')}
          placeholder={t('item.sample')}
          data-testid="trigger-sample"
        />
      )}
      <div style={{ display: 'flex', gap: 6, flexWrap: 'wrap' }}>
        <Button
          size="mini"
          loading={triggers.test.isPending && triggers.test.variables?.id === x.trigger_id}
          disabled={!sampleData}
          onClick={() =>
            triggers.test.mutate(
              { id: x.trigger_id, data: sampleData ?? {} },
              { onSuccess: () => setShowFirings(true) },
            )
          }
          data-testid="trigger-test"
        >
          {t('item.test')}
        </Button>
        <Button size="mini" onClick={onEdit} data-testid="trigger-edit">
          {t('item.edit')}
        </Button>
        <Button size="mini" onClick={() => setShowFirings(!showFirings)} data-testid="trigger-firings-toggle">
          {showFirings ? t('item.hideFirings') : t('item.firings')}
        </Button>
        <Popconfirm title={t('item.deleteConfirm')} onOk={() => triggers.remove.mutate(x.trigger_id)}>
          <Button size="mini" status="danger" data-testid="trigger-delete">
            {t('item.delete')}
          </Button>
        </Popconfirm>
      </div>
      {showFirings && <Firings spaceId={spaceId} workflowId={workflowId} triggerId={x.trigger_id} />}
    </div>
  );
}

/** What starts it, in a line: the schedule and its next time, the webhook's address, or the event and its filters. */
function Summary({ trigger: x, spaceId }: { trigger: TriggerView; spaceId: string }) {
  const { t } = useTranslation('triggers');
  const { language } = useStudio();
  const sources = useEventSources(spaceId);
  const style = { fontSize: 12, color: 'var(--color-text-2)', wordBreak: 'break-all' as const };
  if (x.trigger_type === 0)
    return (
      <div style={style} data-testid="trigger-summary">
        <code>{x.config.cron_expr}</code> · {x.config.time_zone}
        {x.next_fire_time > 0 && (
          <> · {t('item.next', { time: zonedTime(language, x.config.time_zone, x.next_fire_time) })}</>
        )}
      </div>
    );
  if (x.webhook)
    return (
      <div style={style} data-testid="trigger-summary">
        POST {x.webhook.url}
        {x.webhook.auth === 'path' ? '/…' : ''} · {t(`auth.${x.webhook.auth}`)} ·{' '}
        {t('item.secretHint', { hint: x.webhook.secret_hint })}
      </div>
    );
  const source = sources.data?.find((s) => s.key === x.event_id);
  const filters = Object.entries(x.config.filters ?? {});
  return (
    <div style={style} data-testid="trigger-summary">
      {source ? (source.label[language] ?? source.label['en-US']) : x.event_id}
      {filters.length > 0 && <> · {filters.map(([k, v]) => `${k} = ${v}`).join(', ')}</>}
    </div>
  );
}

/** The secret of a webhook trigger just made: shown this once, with the address to call and a signed example. */
function SecretBox({ fresh, onClose }: { fresh: FreshSecret; onClose(): void }) {
  const { t } = useTranslation('triggers');
  const copy = (text: string) => void navigator.clipboard?.writeText(text).catch(() => undefined);
  return (
    <Alert
      type="warning"
      closable
      onClose={onClose}
      data-testid="trigger-secret"
      title={t('secret.title')}
      content={
        <div style={{ display: 'flex', flexDirection: 'column', gap: 6, fontSize: 12 }}>
          <span>{t('secret.once')}</span>
          <div>
            {t('secret.url')}{' '}
            <code data-testid="trigger-secret-url" style={{ wordBreak: 'break-all' }}>
              {fresh.webhook_url}
            </code>{' '}
            <Button size="mini" onClick={() => copy(fresh.webhook_url)}>
              {t('secret.copy')}
            </Button>
          </div>
          <div>
            {t('secret.secret')}{' '}
            <code data-testid="trigger-secret-value" style={{ wordBreak: 'break-all' }}>
              {fresh.secret}
            </code>{' '}
            <Button size="mini" onClick={() => copy(fresh.secret)}>
              {t('secret.copy')}
            </Button>
          </div>
          <span>{t('secret.hmac')}</span>
        </div>
      }
    />
  );
}
