// The speech nodes' forms: the voice, format and pace of text to speech; the language speech to text listens for.
import { Select, Slider, Space, Typography } from '@arco-design/web-react';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import type { NodeFormProps } from '@tessera/ext-workflow/client';
import { ListVoices } from '@tessera/ext-audio/shared';
import { useTranslation } from 'react-i18next';

export function SpeakForm({ node, onSettings, spaceId }: NodeFormProps) {
  const { t } = useTranslation('node-speech');
  const api = useApi();
  const s = node.node_param.settings as { voice_id?: string; voice_name?: string; format?: string; speed?: number };
  const set = (patch: Record<string, unknown>) => onSettings({ ...s, ...patch });
  const voices = useQuery({
    queryKey: ['audio', 'voices', spaceId],
    queryFn: () => api.call(ListVoices, { space_id: spaceId }),
  });
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={8} data-testid="speech-speak-form">
      <Typography.Text type="secondary">{t('voice')}</Typography.Text>
      <Select
        value={s.voice_id || undefined}
        placeholder={t('firstVoice')}
        allowClear
        showSearch
        loading={voices.isLoading}
        onChange={(voice_id: string | undefined) =>
          set({
            voice_id: voice_id ?? '',
            voice_name: voices.data?.voices.find((v) => v.voice_id === voice_id)?.name ?? '',
          })
        }
        data-testid="speech-voice"
      >
        {(voices.data?.voices ?? []).map((v) => (
          <Select.Option key={v.voice_id} value={v.voice_id}>
            {v.name}
          </Select.Option>
        ))}
      </Select>
      <Typography.Text type="secondary">{t('format')}</Typography.Text>
      <Select value={s.format ?? 'mp3'} onChange={(format) => set({ format })} style={{ width: 120 }}>
        <Select.Option value="mp3">mp3</Select.Option>
        <Select.Option value="wav">wav</Select.Option>
      </Select>
      <Typography.Text type="secondary">{t('speed', { speed: (s.speed ?? 1).toFixed(1) })}</Typography.Text>
      <Slider min={0.5} max={2} step={0.1} value={s.speed ?? 1} onChange={(v) => set({ speed: v })} />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('speakHelp')}
      </Typography.Text>
    </Space>
  );
}

const LANGUAGES = ['', 'en', 'zh', 'ja', 'es', 'fr', 'de', 'pt'];
export function ListenForm({ node, onSettings }: NodeFormProps) {
  const { t } = useTranslation('node-speech');
  const s = node.node_param.settings as { language?: string };
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={8} data-testid="speech-listen-form">
      <Typography.Text type="secondary">{t('language')}</Typography.Text>
      <Select value={s.language ?? ''} onChange={(language) => onSettings({ ...s, language })} style={{ width: 200 }}>
        {LANGUAGES.map((l) => (
          <Select.Option key={l} value={l}>
            {t(`lang.${l || 'auto'}`)}
          </Select.Option>
        ))}
      </Select>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('listenHelp')}
      </Typography.Text>
    </Space>
  );
}
