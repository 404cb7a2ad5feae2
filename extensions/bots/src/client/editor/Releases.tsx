// Several versions live on a connector (the Versions panel): who gets which version on each connector, a version in
// gray release for a share of the end users or a list of them, release to all, roll back, take a version out of
// service; and what was done to the versions.
import {
  Button,
  Collapse,
  Dropdown,
  Input,
  InputNumber,
  Menu,
  Select,
  Space,
  Tag,
  Typography,
} from '@arco-design/web-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type EndpointInput, messageOf, Modal, testId, toast, useApi, useFormat, useStudio } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Capabilities } from '../api.ts';
import {
  FullRelease,
  Inactivate,
  ListOperationHistories,
  ListPublishVersions,
  RecordChangelog,
  Rollback,
  UpdateGray,
  type ReleaseOverview,
} from '../../shared/versions-api.ts';

/** The calls that change who gets which version; each answers the new overview. */
const CHANGES = {
  update_gray: UpdateGray,
  full_release: FullRelease,
  rollback: Rollback,
  inactivate: Inactivate,
  record_changelog: RecordChangelog,
};
/** A change as the panel asks it: which call, and its body without the bot (the hook adds it). */
type Change = {
  [K in keyof typeof CHANGES]: { path: K; body: Omit<EndpointInput<(typeof CHANGES)[K]>, 'space_id' | 'bot_id'> };
}[keyof typeof CHANGES];
export const releasesKey = (botId: string) => ['bots', 'releases', botId];

/** The releases of a bot and the calls that change them (each answers the new overview). */
export function useReleases(spaceId: string, botId: string, enabled: boolean) {
  const api = useApi();
  const qc = useQueryClient();
  const q = useQuery({
    queryKey: releasesKey(botId),
    enabled,
    queryFn: () => api.call(ListPublishVersions, { space_id: spaceId, bot_id: botId }),
  });
  const change = useMutation({
    // Each call of CHANGES answers the overview; the body is the one its contract takes (Change pairs them).
    mutationFn: ({ path, body }: Change) =>
      api.call(
        CHANGES[path] as typeof FullRelease,
        { space_id: spaceId, bot_id: botId, ...body } as EndpointInput<typeof FullRelease>,
      ),
    onSuccess: (r) => {
      qc.setQueryData(releasesKey(botId), r);
      void qc.invalidateQueries({ queryKey: ['bots', 'operations', botId] });
    },
  });
  return { overview: q.data, change };
}

/** Per connector: the version everyone gets, and the one in gray release with its share and users. */
export function ReleaseStatus({
  spaceId,
  botId,
  caps,
  overview,
  change,
}: {
  spaceId: string;
  botId: string;
  caps: Capabilities;
  overview: ReleaseOverview | undefined;
  change: ReturnType<typeof useReleases>['change'];
}) {
  const { t } = useTranslation('bots');
  const { language } = useStudio();
  if (!overview?.versions.length) return null;
  return (
    // Each connector answers with its version; those the bot is not on answer nothing.
    <div style={{ marginBottom: 12 }} data-testid="bot-live-connectors">
      <Typography.Text type="secondary">{t('publish.liveNow')}</Typography.Text>
      {caps.connectors.map((c) => {
        const live = overview.connectors.find((x) => x.connector_id === c.id);
        return (
          <div key={c.id} style={{ marginTop: 4 }}>
            <div data-testid="bot-live-connector" data-connector={c.id}>
              {c.name[language] ?? c.id}:{' '}
              {live?.version ? (
                <Tag size="small" color="green">
                  {live.version}
                </Tag>
              ) : (
                <Typography.Text type="secondary">{t('publish.notLive')}</Typography.Text>
              )}
            </div>
            {live?.gray && (
              <Space size={4} data-testid="bot-gray" data-connector={c.id}>
                <Tag size="small" color="orange">
                  {t('release.grayTag', {
                    version: live.gray.version,
                    percentage: live.gray.percentage,
                    users: live.gray.user_ids.length,
                  })}
                </Tag>
                <Button
                  size="mini"
                  type="primary"
                  loading={change.isPending}
                  onClick={() =>
                    change.mutate(
                      { path: 'full_release', body: { connector_id: c.id } },
                      { onSuccess: () => toast.success(t('release.released', { version: live.gray!.version })) },
                    )
                  }
                  data-testid="bot-full-release"
                >
                  {t('release.toAll')}
                </Button>
              </Space>
            )}
          </div>
        );
      })}
      <Operations spaceId={spaceId} botId={botId} />
    </div>
  );
}

/** A version's release actions: gray release, roll back to it, take it out of service. */
export function ReleaseActions({
  version,
  inactive,
  connectors,
  change,
}: {
  version: string;
  inactive: boolean;
  connectors: { id: string; name: string }[];
  change: ReturnType<typeof useReleases>['change'];
}) {
  const { t } = useTranslation('bots');
  const [dialog, setDialog] = useState<'' | 'gray' | 'rollback'>('');
  if (inactive)
    return (
      <Tag size="small" data-testid="bot-version-inactive">
        {t('release.inactive')}
      </Tag>
    );
  return (
    <>
      <Dropdown
        trigger="click"
        droplist={
          <Menu
            onClickMenuItem={(key) =>
              key === 'inactivate'
                ? change.mutate(
                    { path: 'inactivate', body: { version } },
                    { onSuccess: () => toast.success(t('release.inactivated', { version })) },
                  )
                : setDialog(key as 'gray' | 'rollback')
            }
          >
            <Menu.Item key="gray" data-testid="bot-release-gray">
              {t('release.gray')}
            </Menu.Item>
            <Menu.Item key="rollback" data-testid="bot-release-rollback">
              {t('release.rollback')}
            </Menu.Item>
            <Menu.Item key="inactivate" data-testid="bot-release-inactivate">
              {t('release.inactivate')}
            </Menu.Item>
          </Menu>
        }
      >
        <Button size="mini" data-testid="bot-release">
          {t('release.menu')}
        </Button>
      </Dropdown>
      {dialog && (
        <ReleaseDialog
          mode={dialog}
          version={version}
          connectors={connectors}
          change={change}
          onClose={() => setDialog('')}
        />
      )}
    </>
  );
}

function ReleaseDialog({
  mode,
  version,
  connectors,
  change,
  onClose,
}: {
  mode: 'gray' | 'rollback';
  version: string;
  connectors: { id: string; name: string }[];
  change: ReturnType<typeof useReleases>['change'];
  onClose(): void;
}) {
  const { t } = useTranslation('bots');
  const [connector, setConnector] = useState(connectors[0]?.id ?? '');
  const [percentage, setPercentage] = useState(10);
  const [users, setUsers] = useState('');
  const [problem, setProblem] = useState('');
  const submit = () =>
    change.mutate(
      mode === 'gray'
        ? {
            path: 'update_gray',
            body: {
              connector_id: connector,
              version,
              percentage,
              user_ids: users
                .split(/[\s,]+/)
                .map((u) => u.trim())
                .filter(Boolean),
            },
          }
        : { path: 'rollback', body: { connector_id: connector, version } },
      {
        onSuccess: () => {
          toast.success(t(mode === 'gray' ? 'release.grayed' : 'release.rolledBack', { version }));
          onClose();
        },
        onError: (e) => setProblem(messageOf(e)),
      },
    );
  return (
    <Modal
      visible
      size="small"
      title={t(mode === 'gray' ? 'release.grayTitle' : 'release.rollbackTitle', { version })}
      onCancel={onClose}
      onOk={submit}
      confirmLoading={change.isPending}
      okButtonProps={{ disabled: !connector, ...testId('bot-release-save') }}
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Text>{t('release.connector')}</Typography.Text>
        <Select value={connector} onChange={setConnector} data-testid="bot-release-connector">
          {connectors.map((c) => (
            <Select.Option key={c.id} value={c.id}>
              {c.name}
            </Select.Option>
          ))}
        </Select>
        {mode === 'gray' && (
          <>
            <Typography.Text>{t('release.percentage')}</Typography.Text>
            <InputNumber
              min={0}
              max={100}
              suffix="%"
              value={percentage}
              onChange={(v) => setPercentage(v ?? 0)}
              data-testid="bot-release-percentage"
            />
            <Typography.Text>{t('release.users')}</Typography.Text>
            <Input.TextArea
              value={users}
              onChange={setUsers}
              placeholder={t('release.usersHint')}
              autoSize={{ minRows: 2, maxRows: 5 }}
              data-testid="bot-release-users"
            />
          </>
        )}
        {problem && (
          <Typography.Text type="error" data-testid="bot-release-problem">
            {problem}
          </Typography.Text>
        )}
      </Space>
    </Modal>
  );
}

/** What was done to the versions, newest first. */
function Operations({ spaceId, botId }: { spaceId: string; botId: string }) {
  const { t } = useTranslation('bots');
  const api = useApi();
  const format = useFormat();
  const [open, setOpen] = useState(false);
  const q = useQuery({
    queryKey: ['bots', 'operations', botId],
    enabled: open,
    queryFn: () => api.call(ListOperationHistories, { space_id: spaceId, bot_id: botId }),
  });
  return (
    <Collapse bordered={false} onChange={(_, keys) => setOpen(keys.includes('ops'))} style={{ marginTop: 8 }}>
      <Collapse.Item name="ops" header={t('release.operations')} data-testid="bot-operations">
        {q.data?.operations.map((o, i) => (
          <div key={i} data-testid="bot-operation" data-type={o.type} style={{ fontSize: 12 }}>
            {format.dateTime(o.create_time * 1000)} · {t(`release.op.${o.type}`, { defaultValue: o.type })} {o.version}
            {o.connector_id ? ` · ${o.connector_id}` : ''}
            {o.detail ? ` · ${o.detail}` : ''}
          </div>
        ))}
      </Collapse.Item>
    </Collapse>
  );
}
