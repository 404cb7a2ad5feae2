// The file box beside a bot's message box: a drawer with the user's files with the bot (upload, search by words and
// kind, describe, summarize as it is written, put photos in albums, delete) and their albums.
import { messageOf } from '@tessera/sdk';
import {
  Alert,
  Button,
  Drawer,
  Empty,
  Input,
  Popconfirm,
  Select,
  Space,
  Tabs,
  Tag,
  Tooltip,
  Typography,
} from '@arco-design/web-react';
import { IconFolder } from '@arco-design/web-react/icon';
import type { BotSkillPanelProps, ChatComposerActionProps } from '@tessera/ext-bots/client';
import { ListRow, useFormat } from '@tessera/sdk/client';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FileKind, KIND_NAMES, type BoxFile } from '../shared/index.ts';
import { useBox, useBoxEnabled } from './store.ts';

export function FileBoxButton({ spaceId, botId, draft }: ChatComposerActionProps) {
  const { t } = useTranslation('filebox');
  const enabled = useBoxEnabled(botId, draft);
  const [open, setOpen] = useState(false);
  if (!enabled) return null;
  return (
    <>
      <Tooltip content={t('open')}>
        <Button icon={<IconFolder />} aria-label={t('open')} onClick={() => setOpen(true)} data-testid="filebox-open" />
      </Tooltip>
      <Drawer
        visible={open}
        width={560}
        title={t('title')}
        footer={null}
        onCancel={() => setOpen(false)}
        unmountOnExit
        data-testid="filebox-drawer"
      >
        <FileBox spaceId={spaceId} botId={botId} />
      </Drawer>
    </>
  );
}

function FileBox({ spaceId, botId }: { spaceId: string; botId: string }) {
  const { t } = useTranslation('filebox');
  const box = useBox(spaceId, botId);
  const input = useRef<HTMLInputElement>(null);
  const [album, setAlbum] = useState('');
  return (
    <Tabs defaultActiveTab="files">
      <Tabs.TabPane key="files" title={t('files')}>
        <Space wrap style={{ marginBottom: 10 }}>
          <Input.Search
            allowClear
            placeholder={t('search')}
            onSearch={box.setQuery}
            style={{ width: 220 }}
            data-testid="filebox-search"
          />
          <Select
            value={box.kind ?? 0}
            onChange={(k: number) => box.setKind(k || undefined)}
            style={{ width: 130 }}
            data-testid="filebox-kind"
          >
            <Select.Option value={0}>{t('allKinds')}</Select.Option>
            {[FileKind.Image, FileKind.Audio, FileKind.Video, FileKind.Document, FileKind.Other].map((k) => (
              <Select.Option key={k} value={k}>
                {t(`kind.${KIND_NAMES[k]}`)}
              </Select.Option>
            ))}
          </Select>
          <Button
            type="primary"
            loading={box.upload.isPending}
            onClick={() => input.current?.click()}
            data-testid="filebox-upload"
          >
            {t('upload')}
          </Button>
          <input
            ref={input}
            type="file"
            multiple
            hidden
            onChange={(e) => {
              const list = Array.from(e.target.files ?? []);
              if (list.length) box.upload.mutate(list);
              e.target.value = '';
            }}
            data-testid="filebox-file-input"
          />
        </Space>
        {box.upload.isError && <Alert type="error" content={messageOf(box.upload.error)} />}
        {!box.files.isLoading && !box.files.data?.files.length && <Empty description={t('empty')} />}
        {(box.files.data?.files ?? []).map((f) => (
          <FileRow key={f.id} f={f} box={box} albums={box.albums.data?.albums ?? []} />
        ))}
      </Tabs.TabPane>
      <Tabs.TabPane key="albums" title={t('albums')}>
        <Space style={{ marginBottom: 10 }}>
          <Input
            value={album}
            onChange={setAlbum}
            placeholder={t('albumName')}
            maxLength={100}
            data-testid="filebox-album-name"
          />
          <Button
            disabled={!album.trim()}
            loading={box.createAlbum.isPending}
            onClick={() => box.createAlbum.mutate(album.trim(), { onSuccess: () => setAlbum('') })}
            data-testid="filebox-album-create"
          >
            {t('createAlbum')}
          </Button>
        </Space>
        {(box.albums.data?.albums ?? []).map((a) => (
          <ListRow key={a.album_id} testId="filebox-album">
            {a.cover_url ? (
              <img src={a.cover_url} alt="" style={{ width: 40, height: 40, objectFit: 'cover', borderRadius: 4 }} />
            ) : (
              <IconFolder />
            )}
            <strong>{a.album_name}</strong>
            <span style={{ flex: 1, color: 'var(--color-text-3)' }} data-testid="filebox-album-count">
              {t('photos', { count: a.photo_count })}
            </span>
            <Popconfirm title={t('deleteAlbum')} onOk={() => box.removeAlbum.mutate(a.album_id)}>
              <Button size="mini" status="danger">
                {t('delete')}
              </Button>
            </Popconfirm>
          </ListRow>
        ))}
      </Tabs.TabPane>
    </Tabs>
  );
}

function FileRow({
  f,
  box,
  albums,
}: {
  f: BoxFile;
  box: ReturnType<typeof useBox>;
  albums: { album_id: string; album_name: string }[];
}) {
  const { t } = useTranslation('filebox');
  const fmt = useFormat();
  const [summary, setSummary] = useState('');
  const [summarizing, setSummarizing] = useState(false);
  const [error, setError] = useState('');
  const shown = summary || f.summary;
  return (
    <div data-testid="filebox-file" style={{ borderBottom: '1px solid var(--color-border-1)', padding: '8px 0' }}>
      <Space align="start">
        {f.kind === FileKind.Image && (
          <img src={f.url} alt="" style={{ width: 48, height: 48, objectFit: 'cover', borderRadius: 4 }} />
        )}
        <div>
          <a href={f.url} target="_blank" rel="noreferrer" data-testid="filebox-name">
            {f.name}
          </a>{' '}
          <Tag size="small">{t(`kind.${KIND_NAMES[f.kind] ?? 'other'}`)}</Tag>{' '}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {f.bytes < 1024 ? `${fmt.number(f.bytes)} B` : `${fmt.number(Math.round(f.bytes / 1024))} KB`}
          </Typography.Text>
          <Input
            size="small"
            defaultValue={f.description}
            placeholder={t('describe')}
            onBlur={(e) =>
              e.target.value !== f.description && box.describe.mutate({ id: f.id, description: e.target.value })
            }
            style={{ marginTop: 4 }}
            data-testid="filebox-description"
          />
          {shown && (
            <Typography.Paragraph
              style={{ fontSize: 12, marginTop: 4, whiteSpace: 'pre-wrap' }}
              data-testid="filebox-summary"
            >
              {shown}
            </Typography.Paragraph>
          )}
          {error && <Alert type="error" content={error} style={{ marginTop: 4 }} />}
          <Space size={4} style={{ marginTop: 4 }}>
            {f.kind === FileKind.Document && (
              <Button
                size="mini"
                loading={summarizing}
                onClick={async () => {
                  setSummarizing(true);
                  setError('');
                  try {
                    await box.summarize(f.id, setSummary);
                  } catch (e) {
                    setError(messageOf(e));
                  } finally {
                    setSummarizing(false);
                  }
                }}
                data-testid="filebox-summarize"
              >
                {t('summarize')}
              </Button>
            )}
            {f.kind === FileKind.Image && albums.length > 0 && (
              <Select
                size="mini"
                placeholder={t('toAlbum')}
                style={{ width: 140 }}
                onChange={(album_id: string) => box.addToAlbum.mutate({ album_id, id: f.id })}
                data-testid="filebox-to-album"
              >
                {albums.map((a) => (
                  <Select.Option key={a.album_id} value={a.album_id}>
                    {a.album_name}
                  </Select.Option>
                ))}
              </Select>
            )}
            <Popconfirm title={t('deleteFile')} onOk={() => box.remove.mutate(f.id)}>
              <Button size="mini" status="danger" data-testid="filebox-delete">
                {t('delete')}
              </Button>
            </Popconfirm>
          </Space>
        </div>
      </Space>
    </div>
  );
}

export function FileBoxSkillPanel(_props: BotSkillPanelProps) {
  const { t } = useTranslation('filebox');
  return (
    <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="filebox-skill-panel">
      {t('skillHelp')}
    </Typography.Text>
  );
}
