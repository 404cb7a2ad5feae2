// The single agent's settings in the bot editor: the persona prompt and the model.
import { Input, InputNumber, Radio, Space, Typography } from '@arco-design/web-react';
import type { BotModeSettingsProps } from '@tessera/ext-bots/client';
import { ModelParamsPanel, ModelSelect } from '@tessera/ext-models/client';
import { useTranslation } from 'react-i18next';
import { SingleAgentSettings } from '../shared.ts';

export function SingleAgentSettingsForm({ settings, onChange, spaceId }: BotModeSettingsProps) {
  const { t } = useTranslation('bot-single-agent');
  // The saved settings with their defaults filled in (a new bot has none).
  const s = SingleAgentSettings.parse(settings ?? {});
  const set = (patch: Partial<typeof s>) => onChange({ ...s, ...patch });
  const setModel = (patch: Partial<typeof s.model>) => set({ model: { ...s.model, ...patch } });
  return (
    <div data-testid="single-agent-settings" style={{ display: 'flex', flexDirection: 'column', gap: 10 }}>
      <div>
        <Space style={{ width: '100%', justifyContent: 'space-between' }}>
          <Typography.Text type="secondary">{t('prompt')}</Typography.Text>
          <Radio.Group
            type="button"
            size="mini"
            value={s.prompt_ref ? 'library' : 'here'}
            onChange={(v) => set({ prompt_ref: v === 'library' ? { prompt_key: '', label: 'production' } : undefined })}
          >
            <Radio value="here">{t('promptHere')}</Radio>
            <Radio value="library" data-testid="bot-prompt-library">
              {t('promptLibrary')}
            </Radio>
          </Radio.Group>
        </Space>
        {s.prompt_ref ? (
          <Space direction="vertical" style={{ width: '100%' }}>
            <Space>
              <Input
                size="small"
                placeholder={t('promptKey')}
                value={s.prompt_ref.prompt_key}
                onChange={(prompt_key) => set({ prompt_ref: { ...s.prompt_ref!, prompt_key } })}
                data-testid="bot-prompt-key"
              />
              <Input
                size="small"
                placeholder={t('promptLabel')}
                value={s.prompt_ref.label ?? ''}
                onChange={(label) => set({ prompt_ref: { ...s.prompt_ref!, label: label || undefined } })}
                style={{ width: 150 }}
              />
            </Space>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('promptLibraryHelp')}
            </Typography.Text>
          </Space>
        ) : (
          <>
            <Input.TextArea
              value={s.prompt}
              maxLength={100_000}
              autoSize={{ minRows: 8, maxRows: 24 }}
              placeholder={t('promptPlaceholder')}
              onChange={(prompt) => set({ prompt })}
              data-testid="bot-prompt"
            />
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('promptHelp')}
            </Typography.Text>
          </>
        )}
      </div>
      <div>
        <Typography.Text type="secondary" style={{ display: 'block' }}>
          {t('model')}
        </Typography.Text>
        <ModelSelect
          spaceId={spaceId}
          value={s.model.model_id || undefined}
          onChange={(model_id, m) => setModel({ model_id, model_name: m?.display_name })}
          style={{ width: '100%' }}
        />
        {!s.model.model_id && (
          <Typography.Text type="warning" style={{ fontSize: 12 }} data-testid="bot-model-missing">
            {t('modelMissing')}
          </Typography.Text>
        )}
      </div>
      <ModelParamsPanel value={s.model.params} onChange={(params) => setModel({ params })} />
      <Space wrap>
        <span>{t('contextRounds')}</span>
        <InputNumber
          size="small"
          min={0}
          max={100}
          value={s.model.context_rounds}
          onChange={(v) => setModel({ context_rounds: v ?? 0 })}
          style={{ width: 90 }}
          data-testid="bot-context-rounds"
        />
        <span>{t('maxToolRounds')}</span>
        <InputNumber
          size="small"
          min={1}
          max={20}
          value={s.max_tool_rounds}
          onChange={(v) => set({ max_tool_rounds: v ?? 8 })}
          style={{ width: 90 }}
        />
      </Space>
    </div>
  );
}
