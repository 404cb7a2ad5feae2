// A trigger's form: its name, what starts it (a schedule, a webhook call, a studio event) and what the Start node
// receives (fixed values, or values read from what the firing brings).
import { Button, Input, Radio, Select, Typography } from '@arco-design/web-react';
import { useStudio } from '@tessera/sdk/client';
import type { FieldDecl } from '@tessera/workflow-sdk';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { zonedTime } from './zoned.ts';
import { useCronPreview, useEventSources, type SaveInput, type TriggerView } from './store.ts';

type Kind = 'cron' | 'webhook' | 'event';

interface Draft {
  name: string;
  kind: Kind;
  cron: string;
  timeZone: string;
  missed: 'skip' | 'catch_up';
  auth: 'path' | 'hmac';
  eventKey: string;
  filters: Record<string, string>;
  parameters: Record<string, string>;
  mapping: Record<string, string>;
}

const LABEL = { fontSize: 12, color: 'var(--color-text-2)', marginBottom: 4 } as const;
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
const zones = (() => {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return ['UTC'];
  }
})();

function draftOf(t: TriggerView | undefined): Draft {
  const kind: Kind = !t ? 'cron' : t.trigger_type === 0 ? 'cron' : t.event_id === 'webhook' ? 'webhook' : 'event';
  return {
    name: t?.name ?? '',
    kind,
    cron: t?.config.cron_expr ?? '0 9 * * 1-5',
    timeZone: t?.config.time_zone ?? browserZone(),
    missed: t?.config.missed ?? 'skip',
    auth: t?.config.auth ?? 'path',
    eventKey: kind === 'event' ? (t?.event_id ?? '') : '',
    filters: t?.config.filters ?? {},
    parameters: Object.fromEntries(
      Object.entries(t?.payload.parameters ?? {}).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
    ),
    mapping: t?.payload.mapping ?? {},
  };
}

/** A typed value from what was typed for a Start field (numbers, booleans and JSON for objects and arrays). */
function valueOf(field: FieldDecl | undefined, text: string): unknown {
  if (!field || field.type === 'string') return text;
  if (field.type === 'integer' || field.type === 'number') return Number(text);
  if (field.type === 'boolean') return text === 'true';
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function toInput(d: Draft, inputs: FieldDecl[], trigger?: TriggerView): Omit<SaveInput, 'space_id' | 'workflow_id'> {
  const filled = (o: Record<string, string>) => Object.entries(o).filter(([, v]) => v.trim() !== '');
  return {
    trigger_id: trigger?.trigger_id,
    name: d.name,
    trigger_type: d.kind === 'cron' ? 0 : 1,
    event_id: d.kind === 'cron' ? '' : d.kind === 'webhook' ? 'webhook' : d.eventKey,
    config:
      d.kind === 'cron'
        ? { cron_expr: d.cron, time_zone: d.timeZone, missed: d.missed }
        : d.kind === 'webhook'
          ? { auth: d.auth }
          : { filters: Object.fromEntries(filled(d.filters)) },
    payload: {
      parameters: Object.fromEntries(
        filled(d.parameters).map(([k, v]) => [
          k,
          valueOf(
            inputs.find((f) => f.name === k),
            v,
          ),
        ]),
      ),
      mapping: Object.fromEntries(filled(d.mapping)),
    },
  };
}

export function TriggerForm({
  spaceId,
  inputs,
  trigger,
  saving,
  onSave,
  onCancel,
}: {
  spaceId: string;
  inputs: FieldDecl[];
  trigger?: TriggerView;
  saving: boolean;
  onSave(input: Omit<SaveInput, 'space_id' | 'workflow_id'>): void;
  onCancel(): void;
}) {
  const { t } = useTranslation('triggers');
  const { language } = useStudio();
  const [d, setD] = useState<Draft>(() => draftOf(trigger));
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setD((x) => ({ ...x, [k]: v }));
  const preview = useCronPreview(spaceId, d.kind === 'cron' ? d.cron : '', d.timeZone);
  const sources = useEventSources(spaceId);
  const source = sources.data?.find((s) => s.key === d.eventKey);
  const label = (l: Record<string, string>) => l[language] ?? l['en-US'] ?? '';
  const fromHint = d.kind === 'webhook' ? 'body.city' : d.kind === 'event' ? 'workflow_id' : 'fire_time';
  return (
    <div data-testid="trigger-form" style={{ display: 'flex', flexDirection: 'column', gap: 10 }}>
      <label>
        <div style={LABEL}>{t('form.name')}</div>
        <Input value={d.name} onChange={(v) => set('name', v)} maxLength={100} data-testid="trigger-name" />
      </label>
      <Radio.Group type="button" value={d.kind} onChange={(v: Kind) => set('kind', v)} disabled={!!trigger}>
        {(['cron', 'webhook', 'event'] as const).map((k) => (
          <Radio key={k} value={k} data-testid={`trigger-kind-${k}`}>
            {t(`kind.${k}`)}
          </Radio>
        ))}
      </Radio.Group>
      {d.kind === 'cron' && (
        <>
          <label>
            <div style={LABEL}>{t('form.cron')}</div>
            <Input
              value={d.cron}
              onChange={(v) => set('cron', v)}
              data-testid="trigger-cron"
              placeholder="0 9 * * 1-5"
            />
          </label>
          <label>
            <div style={LABEL}>{t('form.timeZone')}</div>
            <Select
              showSearch
              value={d.timeZone}
              onChange={(v: string) => set('timeZone', v)}
              data-testid="trigger-timezone"
            >
              {zones.map((z) => (
                <Select.Option key={z} value={z}>
                  {z}
                </Select.Option>
              ))}
            </Select>
          </label>
          {preview.error ? (
            <Typography.Text type="error" data-testid="trigger-cron-error">
              {preview.error}
            </Typography.Text>
          ) : (
            <div data-testid="trigger-cron-preview" style={{ fontSize: 12, color: 'var(--color-text-3)' }}>
              {t('form.nextTimes')}{' '}
              {preview.times
                .slice(0, 3)
                .map((s) => zonedTime(language, d.timeZone, s))
                .join(' · ')}
            </div>
          )}
          <label>
            <div style={LABEL}>{t('form.missed')}</div>
            <Select value={d.missed} onChange={(v: Draft['missed']) => set('missed', v)} data-testid="trigger-missed">
              <Select.Option value="skip">{t('form.missedSkip')}</Select.Option>
              <Select.Option value="catch_up">{t('form.missedCatchUp')}</Select.Option>
            </Select>
          </label>
        </>
      )}
      {d.kind === 'webhook' && (
        <Radio.Group value={d.auth} onChange={(v: Draft['auth']) => set('auth', v)} direction="vertical">
          <Radio value="path" data-testid="trigger-auth-path">
            {t('form.authPath')}
          </Radio>
          <Radio value="hmac" data-testid="trigger-auth-hmac">
            {t('form.authHmac')}
          </Radio>
        </Radio.Group>
      )}
      {d.kind === 'event' && (
        <>
          <label>
            <div style={LABEL}>{t('form.event')}</div>
            <Select
              value={d.eventKey || undefined}
              onChange={(v: string) => set('eventKey', v)}
              data-testid="trigger-event"
            >
              {(sources.data ?? []).map((s) => (
                <Select.Option key={s.key} value={s.key}>
                  {label(s.label)}
                </Select.Option>
              ))}
            </Select>
          </label>
          {source?.filters.map((f) => (
            <label key={f.key}>
              <div style={LABEL}>{t('form.filter', { name: label(f.label) })}</div>
              {f.choices ? (
                <Select
                  allowClear
                  value={d.filters[f.key] || undefined}
                  onChange={(v?: string) => set('filters', { ...d.filters, [f.key]: v ?? '' })}
                  data-testid={`trigger-filter-${f.key}`}
                >
                  {f.choices.map((c) => (
                    <Select.Option key={c} value={c}>
                      {t(`choice.${c}`, { defaultValue: c })}
                    </Select.Option>
                  ))}
                </Select>
              ) : (
                <Input
                  value={d.filters[f.key] ?? ''}
                  onChange={(v) => set('filters', { ...d.filters, [f.key]: v })}
                  data-testid={`trigger-filter-${f.key}`}
                />
              )}
            </label>
          ))}
        </>
      )}
      {inputs.length > 0 && (
        <div>
          <div style={LABEL}>{t('form.inputs')}</div>
          <div style={{ fontSize: 12, color: 'var(--color-text-3)', marginBottom: 6 }}>{t('form.inputsHint')}</div>
          {inputs.map((f) => (
            <div
              key={f.name}
              style={{ display: 'grid', gridTemplateColumns: '110px 1fr 1fr', gap: 6, marginBottom: 6 }}
            >
              <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', alignSelf: 'center' }} title={f.name}>
                {f.name}
              </span>
              <Input
                size="small"
                placeholder={t('form.fixed')}
                value={d.parameters[f.name] ?? ''}
                onChange={(v) => set('parameters', { ...d.parameters, [f.name]: v })}
                data-testid={`trigger-param-${f.name}`}
              />
              <Input
                size="small"
                placeholder={t('form.from', { example: fromHint })}
                value={d.mapping[f.name] ?? ''}
                onChange={(v) => set('mapping', { ...d.mapping, [f.name]: v })}
                data-testid={`trigger-map-${f.name}`}
              />
            </div>
          ))}
        </div>
      )}
      <div style={{ display: 'flex', gap: 8, justifyContent: 'flex-end' }}>
        <Button onClick={onCancel}>{t('form.cancel')}</Button>
        <Button
          type="primary"
          loading={saving}
          disabled={!d.name.trim() || (d.kind === 'event' && !d.eventKey)}
          onClick={() => onSave(toInput(d, inputs, trigger))}
          data-testid="trigger-save"
        >
          {t('form.save')}
        </Button>
      </div>
    </div>
  );
}
