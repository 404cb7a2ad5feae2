// Reusable pieces for any form that picks a model (the LLM node's form, bots ...): import from '@tessera/ext-models/client'.
import { InputNumber, Select, Slider, Space, Tag, Typography } from '@arco-design/web-react';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import { useTranslation } from 'react-i18next';
import { ListSpaceModels } from '../shared/api.ts';
import type { ModelKind, ModelParams, ModelSelectProps } from '../shared/index.ts';

export function useSpaceModels(spaceId: string | undefined, kind?: ModelKind) {
  const api = useApi();
  return useQuery({
    queryKey: ['models', 'list', spaceId, kind],
    queryFn: () => api.call(ListSpaceModels, { space_id: spaceId!, kind, enabled_only: 'true' }),
    enabled: !!spaceId,
  });
}

/** A model picker: the enabled models the space can use (its own and the platform's); with `allowClear` it may be left empty. */
export function ModelSelect({ spaceId, kind = 'chat', value, onChange, style, allowClear }: ModelSelectProps) {
  const { t } = useTranslation('models');
  const q = useSpaceModels(spaceId, kind);
  const models = q.data?.models ?? [];
  return (
    <Select
      data-testid="model-select"
      style={{ width: 280, ...style }}
      loading={q.isLoading}
      placeholder={t('select.placeholder')}
      notFoundContent={t('select.none')}
      value={value}
      onChange={(id: string | undefined) =>
        onChange(
          id ?? '',
          models.find((m) => m.model_id === id),
        )
      }
      allowClear={allowClear}
      showSearch
      filterOption={(input, option) =>
        String((option as { props?: { extra?: string } })?.props?.extra ?? '')
          .toLowerCase()
          .includes(input.toLowerCase())
      }
    >
      {/* A deprecated model is not offered to new work; the one already chosen still shows, marked. */}
      {models
        .filter((m) => !m.deprecated || m.model_id === value)
        .map((m) => (
          <Select.Option key={m.model_id} value={m.model_id} extra={`${m.display_name} ${m.provider}`}>
            <Space size={4}>
              <span>{m.display_name}</span>
              {m.deprecated && (
                <Tag size="small" color="orange">
                  {m.successor_id
                    ? t('status.deprecatedTo', {
                        name: models.find((x) => x.model_id === m.successor_id)?.display_name ?? m.successor_id,
                      })
                    : t('status.deprecated')}
                </Tag>
              )}
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {m.provider}
                {m.scope === 'platform' ? ` · ${t('select.platform')}` : ''}
              </Typography.Text>
              {m.capabilities.function_call && <Tag size="small">fc</Tag>}
              {m.capabilities.reasoning && <Tag size="small">r</Tag>}
            </Space>
          </Select.Option>
        ))}
    </Select>
  );
}

/** Temperature, top P and max tokens. An empty field means "the model's default". */
export function ModelParamsPanel({ value, onChange }: { value: ModelParams; onChange(next: ModelParams): void }) {
  const { t } = useTranslation('models');
  const set = (k: keyof ModelParams, v: number | undefined) =>
    onChange({ ...value, [k]: v === undefined || Number.isNaN(v) ? undefined : v });
  // A value not set is the model's default: the box says so (the slider shows where that is), it is not left empty.
  return (
    <div
      className="tessera-model-params"
      data-testid="model-params"
      style={{ display: 'grid', gridTemplateColumns: '120px 1fr 90px', gap: 8, alignItems: 'center', maxWidth: 480 }}
    >
      <span>{t('params.temperature')}</span>
      <Slider
        min={0}
        max={2}
        step={0.1}
        value={value.temperature ?? 1}
        onChange={(v) => typeof v === 'number' && set('temperature', v)}
      />
      <InputNumber
        size="small"
        min={0}
        max={2}
        step={0.1}
        value={value.temperature}
        placeholder={t('params.default', { value: 1 })}
        onChange={(v) => set('temperature', v)}
        data-testid="param-temperature"
      />
      <span>{t('params.top_p')}</span>
      <Slider
        min={0}
        max={1}
        step={0.05}
        value={value.top_p ?? 1}
        onChange={(v) => typeof v === 'number' && set('top_p', v)}
      />
      <InputNumber
        size="small"
        min={0}
        max={1}
        step={0.05}
        value={value.top_p}
        placeholder={t('params.default', { value: 1 })}
        onChange={(v) => set('top_p', v)}
        data-testid="param-top-p"
      />
      <span>{t('params.max_tokens')}</span>
      <span />
      <InputNumber
        size="small"
        min={1}
        max={1_000_000}
        value={value.max_tokens}
        placeholder={t('params.modelDefault')}
        onChange={(v) => set('max_tokens', v)}
        data-testid="param-max-tokens"
      />
    </div>
  );
}
