// The voice skill's panel in the bot editor: the voice its answers are read in (heard in a click), the language it
// listens for, and whether answers play by themselves.
import { Button, Select, Space, Switch, Typography } from '@arco-design/web-react';
import { IconSound } from '@arco-design/web-react/icon';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import type { BotSkillPanelProps } from '@tessera/ext-bots/client';
import { BotVoice, ListVoices } from '@tessera/ext-audio/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

const LANGUAGES = ['', 'en', 'zh', 'ja', 'es', 'fr', 'de', 'pt'];
const label = { fontSize: 12, color: 'var(--color-text-2)', margin: '8px 0 4px' } as const;

export function VoicePanel({ value, onChange, spaceId }: BotSkillPanelProps) {
  const { t } = useTranslation('bot-voice');
  const api = useApi();
  const v = BotVoice.parse(value ?? {});
  const voices = useQuery({
    queryKey: ['audio', 'voices', spaceId],
    queryFn: () => api.call(ListVoices, { space_id: spaceId }),
  });
  const [url, setUrl] = useState('');
  const chosen = voices.data?.voices.find((x) => x.voice_id === v.voice_id) ?? voices.data?.voices[0];
  const listen = async () => {
    if (!chosen) return;
    const blob = await api.blob('/api/audio/speech', {
      space_id: spaceId,
      input: chosen.preview_text,
      voice_id: chosen.voice_id,
      response_format: 'mp3',
    });
    setUrl(URL.createObjectURL(blob));
  };
  return (
    <div data-testid="bot-voice-panel">
      <div style={label}>{t('voice')}</div>
      <Space>
        <Select
          value={v.voice_id || undefined}
          placeholder={t('defaultVoice')}
          onChange={(voice_id: string) => onChange({ ...v, voice_id })}
          loading={voices.isLoading}
          notFoundContent={t('noVoices')}
          style={{ width: 240 }}
          showSearch
          data-testid="bot-voice-voice"
        >
          {(voices.data?.voices ?? []).map((x) => (
            <Select.Option key={x.voice_id} value={x.voice_id}>
              {x.name}
            </Select.Option>
          ))}
        </Select>
        <Button icon={<IconSound />} disabled={!chosen} onClick={() => void listen()} data-testid="bot-voice-listen">
          {t('listen')}
        </Button>
        {url && <audio src={url} autoPlay />}
      </Space>
      <div style={label}>{t('language')}</div>
      <Select
        value={v.language}
        onChange={(language: string) => onChange({ ...v, language })}
        style={{ width: 240 }}
        data-testid="bot-voice-language"
      >
        {LANGUAGES.map((l) => (
          <Select.Option key={l} value={l}>
            {t(`lang.${l || 'auto'}`)}
          </Select.Option>
        ))}
      </Select>
      <Space style={{ marginTop: 10 }}>
        <Switch
          size="small"
          checked={v.autoplay}
          onChange={(autoplay) => onChange({ ...v, autoplay })}
          data-testid="bot-voice-autoplay"
        />
        <Typography.Text style={{ fontSize: 12 }}>{t('autoplay')}</Typography.Text>
      </Space>
    </div>
  );
}
