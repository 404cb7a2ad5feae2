// Voices: the space's voices (the embedded one, its speech models'), each heard in a click; a text spoken in a voice
// and format (played, downloadable); speech to text from the microphone or a file.
import { Alert, Button, Input, Select, Space, Table, Tag, Typography } from '@arco-design/web-react';
import { IconSound, IconVoice } from '@arco-design/web-react/icon';
import { PageHeader } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { VoiceInfo } from '../shared/index.ts';
import { useRecorder } from './recorder.ts';
import { useSpaceId, useSpeak, useTranscribe, useVoices } from './store.ts';

const section = { margin: '20px 0 8px', fontSize: 15 } as const;

export function VoicesPage() {
  const { t } = useTranslation('audio');
  const spaceId = useSpaceId();
  const voices = useVoices(spaceId);
  const list = voices.data?.voices ?? [];
  return (
    <div className="tessera-page" data-testid="voices-page">
      <PageHeader title={t('title')} intro={t('intro')} />
      {voices.data && !list.length && (
        <Alert type="info" content={t('noVoices')} style={{ marginBottom: 12 }} data-testid="voices-none" />
      )}
      {!!list.length && <Try spaceId={spaceId} voices={list} />}
      <h3 style={section}>{t('voices')}</h3>
      <Table<VoiceInfo>
        rowKey="voice_id"
        data={list}
        loading={voices.isLoading}
        pagination={false}
        data-testid="voices-table"
        columns={[
          {
            title: t('col.name'),
            dataIndex: 'name',
            render: (v: string) => <span data-testid="voices-row">{v}</span>,
          },
          { title: t('col.language'), dataIndex: 'language_name', width: 160 },
          {
            title: t('col.provider'),
            dataIndex: 'provider',
            width: 200,
            render: (p: string) => <Tag size="small">{t(`provider.${p}`, { defaultValue: p })}</Tag>,
          },
          {
            title: '',
            width: 120,
            render: (_: unknown, v) => <Preview spaceId={spaceId} voice={v} />,
          },
        ]}
      />
      <Transcribe spaceId={spaceId} can={!!voices.data?.can_transcribe} />
    </div>
  );
}

function Preview({ spaceId, voice }: { spaceId: string; voice: VoiceInfo }) {
  const { t } = useTranslation('audio');
  const s = useSpeak(spaceId);
  return (
    <>
      <Button
        size="mini"
        icon={<IconSound />}
        loading={s.speak.isPending}
        onClick={() =>
          s.speak.mutate(
            { text: voice.preview_text, voice_id: voice.voice_id, format: 'wav' },
            { onSuccess: () => undefined },
          )
        }
        data-testid="voices-preview"
      >
        {t('listen')}
      </Button>
      {s.url && <audio src={s.url} autoPlay data-testid="voices-preview-audio" />}
    </>
  );
}

function Try({ spaceId, voices }: { spaceId: string; voices: VoiceInfo[] }) {
  const { t } = useTranslation('audio');
  const [voice, setVoice] = useState(voices[0].voice_id);
  const [text, setText] = useState('');
  const [format, setFormat] = useState('mp3');
  const s = useSpeak(spaceId);
  const chosen = voices.find((v) => v.voice_id === voice);
  return (
    <div data-testid="voices-try">
      <h3 style={section}>{t('try')}</h3>
      <Space wrap style={{ marginBottom: 8 }}>
        <Select value={voice} onChange={setVoice} style={{ width: 280 }} data-testid="voices-voice" showSearch>
          {voices.map((v) => (
            <Select.Option key={v.voice_id} value={v.voice_id}>
              {v.name}
            </Select.Option>
          ))}
        </Select>
        <Select value={format} onChange={setFormat} style={{ width: 100 }} data-testid="voices-format">
          {['mp3', 'wav', 'pcm'].map((f) => (
            <Select.Option key={f} value={f}>
              {f}
            </Select.Option>
          ))}
        </Select>
      </Space>
      <Input.TextArea
        value={text}
        onChange={setText}
        placeholder={chosen?.preview_text}
        maxLength={1024}
        showWordLimit
        autoSize={{ minRows: 2, maxRows: 6 }}
        data-testid="voices-text"
      />
      <Space style={{ marginTop: 8 }}>
        <Button
          type="primary"
          loading={s.speak.isPending}
          onClick={() => s.speak.mutate({ text: text.trim() || chosen?.preview_text || '', voice_id: voice, format })}
          data-testid="voices-speak"
        >
          {t('speak')}
        </Button>
        {s.url && (
          <>
            {format !== 'pcm' && <audio src={s.url} controls autoPlay data-testid="voices-audio" />}
            <a href={s.url} download={`speech.${format}`} data-testid="voices-download">
              {t('download')}
            </a>
          </>
        )}
      </Space>
      {s.error && <Alert type="error" content={s.error} style={{ marginTop: 8 }} />}
    </div>
  );
}

function Transcribe({ spaceId, can }: { spaceId: string; can: boolean }) {
  const { t } = useTranslation('audio');
  const rec = useRecorder();
  const tr = useTranscribe(spaceId);
  return (
    <div data-testid="voices-transcribe">
      <h3 style={section}>{t('transcribe')}</h3>
      {!can ? (
        <Typography.Text type="secondary" data-testid="voices-no-transcriber">
          {t('noTranscriber')}
        </Typography.Text>
      ) : (
        <>
          <Space wrap>
            <Button
              icon={<IconVoice />}
              status={rec.recording ? 'danger' : undefined}
              onClick={async () => {
                if (!rec.recording) return void rec.start();
                const file = await rec.stop();
                if (file) tr.mutate(file);
              }}
              data-testid="voices-record"
            >
              {rec.recording ? t('stopRecording') : t('record')}
            </Button>
            <input
              type="file"
              accept="audio/*"
              onChange={(e) => {
                const f = e.target.files?.[0];
                if (f) tr.mutate(f);
                e.target.value = '';
              }}
              data-testid="voices-file"
            />
          </Space>
          {rec.error && <Alert type="error" content={rec.error} style={{ marginTop: 8 }} />}
          {tr.isPending && <Typography.Text type="secondary">{t('transcribing')}</Typography.Text>}
          {tr.data && (
            <div style={{ marginTop: 8, whiteSpace: 'pre-wrap' }} data-testid="voices-transcript">
              {tr.data.text}
            </div>
          )}
        </>
      )}
    </div>
  );
}
