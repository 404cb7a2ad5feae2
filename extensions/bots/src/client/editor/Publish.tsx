// Publishing a bot (version, changelog, channels) and its published versions (revert the draft to one).
import {
  Alert,
  Button,
  Checkbox,
  Form,
  Input,
  List,
  Popconfirm,
  Space,
  Spin,
  Tag,
  Typography,
} from '@arco-design/web-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DiffTable,
  ConnectorPanel,
  Modal,
  SchemaFields,
  SidePanel,
  toast,
  useApi,
  useFormat,
  useStudio,
  testId,
} from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BotInfo, Capabilities } from '../api.ts';
import { ReleaseActions, ReleaseStatus, useReleases } from './Releases.tsx';
import { useFieldLabel } from './fields.ts';
import { BotDiff } from '../../shared/versions-api.ts';
import { GetBotInfo, ListBotHistory, PublishBot, RevertBot, type HistoryItem } from '../../shared/api.ts';

const next = (v: string | null) => {
  if (!v) return 'v1.0.0';
  const [a, b, c] = v.slice(1).split('.').map(Number);
  return `v${a}.${b}.${c + 1}`;
};

export function PublishButton({
  spaceId,
  bot,
  caps,
  beforePublish,
  onPublished,
}: {
  spaceId: string;
  bot: BotInfo;
  caps: Capabilities;
  beforePublish(): Promise<void>;
  onPublished(b: BotInfo): void;
}) {
  const { t } = useTranslation('bots');
  const [open, setOpen] = useState(false);
  const [versions, setVersions] = useState(false);
  return (
    <Space>
      <Button onClick={() => setVersions(true)} data-testid="bot-versions">
        {t('publish.versions')}
      </Button>
      <Button
        type="primary"
        onClick={async () => {
          await beforePublish();
          setOpen(true);
        }}
        data-testid="bot-publish"
      >
        {t('publish.button')}
      </Button>
      {open && (
        <PublishModal
          spaceId={spaceId}
          bot={bot}
          caps={caps}
          onClose={() => setOpen(false)}
          onPublished={onPublished}
        />
      )}
      <Versions
        spaceId={spaceId}
        bot={bot}
        caps={caps}
        visible={versions}
        onClose={() => setVersions(false)}
        onReverted={onPublished}
      />
    </Space>
  );
}

function PublishModal({
  spaceId,
  bot,
  caps,
  onClose,
  onPublished,
}: {
  spaceId: string;
  bot: BotInfo;
  caps: Capabilities;
  onClose(): void;
  onPublished(b: BotInfo): void;
}) {
  const { t } = useTranslation('bots');
  const { language } = useStudio();
  const api = useApi();
  const qc = useQueryClient();
  const [version, setVersion] = useState(next(bot.latest_version));
  const [changelog, setChangelog] = useState('');
  const [connectors, setConnectors] = useState<string[]>(caps.connectors.map((c) => c.id));
  const [settings, setSettings] = useState<Record<string, Record<string, unknown>>>({});
  // The last publication's channel settings (allowed origins ...) are the starting point.
  const history = useQuery({
    queryKey: ['bots', 'history', bot.bot_id, bot.latest_version],
    queryFn: () =>
      api.call(ListBotHistory, {
        space_id: spaceId,
        bot_id: bot.bot_id,
      }),
  });
  const last = history.data?.history_infos[0]?.connector_settings ?? {};
  const settingsOf = (id: string) => settings[id] ?? (last[id] as Record<string, unknown> | undefined) ?? {};
  const publish = useMutation({
    mutationFn: async () => {
      const connector_settings = Object.fromEntries(connectors.map((id) => [id, settingsOf(id)]));
      const r = await api.call(PublishBot, {
        space_id: spaceId,
        bot_id: bot.bot_id,
        version,
        changelog,
        connectors,
        connector_settings,
      });
      const info = await api.call(GetBotInfo, {
        space_id: spaceId,
        bot_id: bot.bot_id,
      });
      return { ...r, info: info.bot_info };
    },
    onSuccess: async (r) => {
      toast.success(t('publish.done', { version: r.version }));
      onPublished(r.info);
      await qc.invalidateQueries({ queryKey: ['bots'] });
      onClose();
    },
  });
  const badVersion = !/^v\d+\.\d+\.\d+$/.test(version);
  return (
    <Modal
      visible
      size="medium"
      title={t('publish.title')}
      onCancel={onClose}
      onOk={() => publish.mutate()}
      confirmLoading={publish.isPending}
      okText={t('publish.button')}
      okButtonProps={{
        disabled: !!bot.problems.length || badVersion || !connectors.length,
        ...testId('bot-publish-confirm'),
      }}
    >
      {bot.problems.length > 0 && (
        <Alert
          type="warning"
          style={{ marginBottom: 12 }}
          content={
            <ul style={{ margin: 0, paddingLeft: 16 }} data-testid="bot-problems">
              {bot.problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          }
        />
      )}
      <Form layout="vertical">
        <Form.Item label={t('publish.version')} required>
          <Input
            value={version}
            onChange={setVersion}
            status={badVersion ? 'error' : undefined}
            data-testid="bot-publish-version"
          />
        </Form.Item>
        <Form.Item label={t('publish.changelog')}>
          <Input.TextArea
            value={changelog}
            onChange={setChangelog}
            maxLength={2000}
            showWordLimit
            autoSize={{ minRows: 2, maxRows: 5 }}
            data-testid="bot-publish-changelog"
          />
        </Form.Item>
        <Form.Item label={t('publish.connectors')} required>
          <Checkbox.Group value={connectors} onChange={setConnectors} data-testid="bot-publish-connectors">
            {caps.connectors.map((c) => (
              <Checkbox key={c.id} value={c.id}>
                {c.name[language] ?? c.id}
              </Checkbox>
            ))}
          </Checkbox.Group>
        </Form.Item>
        {caps.connectors
          .filter((c) => connectors.includes(c.id) && c.settings_schema?.properties)
          .map((c) => (
            <Form.Item
              key={c.id}
              label={c.name[language] ?? c.id}
              extra={c.description?.[language]}
              data-testid={`bot-publish-settings-${c.id}`}
            >
              <SchemaFields
                schema={c.settings_schema!}
                value={settingsOf(c.id)}
                onChange={(v) => setSettings({ ...settings, [c.id]: v })}
                label={(field) => t(`publish.setting.${field}`, { defaultValue: field })}
                testIdPrefix="bot-publish-setting"
              />
            </Form.Item>
          ))}
      </Form>
    </Modal>
  );
}

function Versions({
  spaceId,
  bot,
  caps,
  visible,
  onClose,
  onReverted,
}: {
  spaceId: string;
  bot: BotInfo;
  caps: Capabilities;
  visible: boolean;
  onClose(): void;
  onReverted(b: BotInfo): void;
}) {
  const { t } = useTranslation('bots');
  const { language } = useStudio();
  const api = useApi();
  const format = useFormat();
  const [comparing, setComparing] = useState('');
  const q = useQuery({
    queryKey: ['bots', 'history', bot.bot_id, bot.latest_version],
    enabled: visible,
    queryFn: () =>
      api.call(ListBotHistory, {
        space_id: spaceId,
        bot_id: bot.bot_id,
      }),
  });
  const releases = useReleases(spaceId, bot.bot_id, visible);
  const connectorNames = caps.connectors.map((c) => ({ id: c.id, name: c.name[language] ?? c.id }));
  const revert = useMutation({
    mutationFn: (commitId: string) =>
      api.call(RevertBot, {
        space_id: spaceId,
        bot_id: bot.bot_id,
        commit_id: commitId,
      }),
    onSuccess: (r) => {
      toast.success(t('publish.reverted'));
      onReverted(r.bot_info);
      onClose();
    },
  });
  return (
    <SidePanel size="small" visible={visible} onCancel={onClose} title={t('publish.versions')}>
      <ReleaseStatus
        spaceId={spaceId}
        botId={bot.bot_id}
        caps={caps}
        overview={releases.overview}
        change={releases.change}
      />
      {/* What the chat page and Web SDK connector's extension shows for a bot published there: its embed code. */}
      {q.data?.history_infos[0]?.connectors.includes('999') && (
        <ConnectorPanel connector="999" target={{ kind: 'bot', id: bot.bot_id }} title={t('publish.embed')} />
      )}
      <List
        data-testid="bot-history"
        loading={q.isLoading}
        noDataElement={<Typography.Text type="secondary">{t('publish.none')}</Typography.Text>}
        dataSource={q.data?.history_infos ?? []}
        render={(h: HistoryItem) => (
          <List.Item key={h.commit_id} data-testid="bot-history-item">
            <Space direction="vertical" size={2}>
              <Space>
                <Typography.Text bold>{h.version}</Typography.Text>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {format.dateTime(h.create_time * 1000)}
                </Typography.Text>
              </Space>
              {h.changelog && <Typography.Text>{h.changelog}</Typography.Text>}
              <Space size={4}>
                {h.connectors.map((c) => (
                  <Tag key={c} size="small">
                    {t(`connector.${c}`, { defaultValue: c })}
                  </Tag>
                ))}
              </Space>
              {/* The actions under the version, so its name and changelog keep the panel's width. */}
              <Space size={4} wrap style={{ marginTop: 4 }}>
                <Button size="mini" onClick={() => setComparing(h.version)} data-testid="bot-version-diff">
                  {t('publish.compare')}
                </Button>
                <ReleaseActions
                  version={h.version}
                  inactive={!!releases.overview?.versions.find((v) => v.version === h.version)?.inactive}
                  connectors={connectorNames.filter((c) => h.connectors.includes(c.id))}
                  change={releases.change}
                />
                <Popconfirm
                  title={t('publish.revertConfirm', { version: h.version })}
                  onOk={() => revert.mutate(h.commit_id)}
                >
                  <Button size="mini" data-testid="bot-revert">
                    {t('publish.revert')}
                  </Button>
                </Popconfirm>
              </Space>
            </Space>
          </List.Item>
        )}
      />
      {comparing && (
        <VersionDiff spaceId={spaceId} botId={bot.bot_id} version={comparing} onClose={() => setComparing('')} />
      )}
    </SidePanel>
  );
}

/** What the draft changes against a version, field by field, side by side. */
function VersionDiff({
  spaceId,
  botId,
  version,
  onClose,
}: {
  spaceId: string;
  botId: string;
  version: string;
  onClose(): void;
}) {
  const { t } = useTranslation('bots');
  const fieldLabel = useFieldLabel();
  const api = useApi();
  const q = useQuery({
    queryKey: ['bots', 'diff', botId, version],
    gcTime: 0,
    queryFn: () =>
      api.call(BotDiff, {
        space_id: spaceId,
        bot_id: botId,
        left_version: version,
      }),
  });
  return (
    <Modal visible size="large" title={t('publish.diffTitle', { version })} onCancel={onClose} footer={null}>
      {q.data ? (
        <DiffTable
          entries={q.data.diff}
          label={fieldLabel}
          headers={{ field: t('publish.diffField'), before: version, after: t('publish.diffDraft') }}
          empty={t('publish.diffNone')}
        />
      ) : (
        <Spin />
      )}
    </Modal>
  );
}
