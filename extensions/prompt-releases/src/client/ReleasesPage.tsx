// Prompt releases of the space: the releases waiting for the caller's approval, every release task, and the
// space's environments and approvers (administrators change them).
import { Alert, Button, Input, Select, Space, Spin, Switch, Table, Tabs, Typography } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { PageHeader } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApprovalConfig, Env } from '../shared/api.ts';
import { TaskList } from './TaskList.tsx';
import { useConfig, useMembers, useReleaseActions, useSpaceId, useTasks } from './store.ts';

export function ReleasesPage() {
  const { t } = useTranslation('prompt-releases');
  const spaceId = useSpaceId();
  const inbox = useTasks(spaceId, { toApprove: true });
  const all = useTasks(spaceId, {});
  const waiting = inbox.data?.total ?? 0;
  return (
    <div className="tessera-page" data-testid="prompt-releases-page">
      <PageHeader title={t('title')} intro={t('intro')} />
      <Tabs defaultActiveTab="inbox">
        <Tabs.TabPane key="inbox" title={waiting ? t('tabInboxCount', { count: waiting }) : t('tabInbox')}>
          {inbox.data ? <TaskList tasks={inbox.data.tasks} emptyText={t('inboxEmpty')} /> : <Spin />}
        </Tabs.TabPane>
        <Tabs.TabPane key="all" title={t('tabAll')}>
          {all.data ? <TaskList tasks={all.data.tasks} emptyText={t('noTasks')} /> : <Spin />}
        </Tabs.TabPane>
        <Tabs.TabPane key="settings" title={t('tabSettings')}>
          <Settings spaceId={spaceId} />
        </Tabs.TabPane>
      </Tabs>
    </div>
  );
}

function Settings({ spaceId }: { spaceId: string }) {
  const config = useConfig(spaceId);
  if (!config.data) return <Spin />;
  return <SettingsForm key={spaceId} spaceId={spaceId} initial={config.data.config} canEdit={config.data.can_edit} />;
}

function SettingsForm({ spaceId, initial, canEdit }: { spaceId: string; initial: ApprovalConfig; canEdit: boolean }) {
  const { t } = useTranslation('prompt-releases');
  const members = useMembers(spaceId).data ?? [];
  const act = useReleaseActions(spaceId);
  const [envs, setEnvs] = useState<Env[]>(initial.envs);
  const [approvers, setApprovers] = useState<string[]>(initial.approvers);
  const [self, setSelf] = useState(initial.allow_self_approval);
  const change = (i: number, patch: Partial<Env>) => setEnvs(envs.map((e, j) => (j === i ? { ...e, ...patch } : e)));
  return (
    <Space direction="vertical" style={{ width: '100%', maxWidth: 760 }} size={16} data-testid="release-settings">
      {!canEdit && <Alert type="info" content={t('settingsAdminsOnly')} />}
      <Table
        rowKey={(e: Env) => envs.indexOf(e)}
        pagination={false}
        data={envs}
        columns={[
          {
            title: t('envKey'),
            render: (_: unknown, e: Env, i: number) => (
              <Input
                value={e.env}
                disabled={!canEdit}
                onChange={(env) => change(i, { env })}
                data-testid="release-settings-env-key"
              />
            ),
          },
          {
            title: t('envName'),
            render: (_: unknown, e: Env, i: number) => (
              <Input
                value={e.name}
                disabled={!canEdit}
                onChange={(name) => change(i, { name })}
                data-testid="release-settings-env-name"
              />
            ),
          },
          {
            title: t('needApproval'),
            render: (_: unknown, e: Env, i: number) => (
              <Switch
                checked={e.need_approval}
                disabled={!canEdit}
                onChange={(need_approval) => change(i, { need_approval })}
                data-testid="release-settings-env-approval"
              />
            ),
          },
          {
            title: '',
            render: (_: unknown, _e: Env, i: number) => (
              <Button
                size="mini"
                icon={<IconDelete />}
                disabled={!canEdit || envs.length === 1}
                onClick={() => setEnvs(envs.filter((_x, j) => j !== i))}
                aria-label={t('removeEnv')}
              />
            ),
          },
        ]}
      />
      {canEdit && (
        <Button
          icon={<IconPlus />}
          onClick={() => setEnvs([...envs, { env: '', name: '', need_approval: false }])}
          data-testid="release-settings-add-env"
        >
          {t('addEnv')}
        </Button>
      )}
      <div>
        <Typography.Text bold>{t('approvers')}</Typography.Text>
        <div style={{ fontSize: 12, color: 'var(--color-text-3)', margin: '2px 0 6px' }}>{t('approversHint')}</div>
        <Select
          mode="multiple"
          value={approvers}
          onChange={setApprovers}
          disabled={!canEdit}
          placeholder={t('approversAdmins')}
          data-testid="release-settings-approvers"
        >
          {members.map((m) => (
            <Select.Option key={m.user_id} value={m.user_id}>
              {m.name}
            </Select.Option>
          ))}
        </Select>
      </div>
      <Space>
        <Switch checked={self} onChange={setSelf} disabled={!canEdit} data-testid="release-settings-self" />
        <Typography.Text>{t('selfApproval')}</Typography.Text>
      </Space>
      {canEdit && (
        <Button
          type="primary"
          loading={act.saveConfig.isPending}
          onClick={() => act.saveConfig.mutate({ envs, approvers, allow_self_approval: self })}
          data-testid="release-settings-save"
        >
          {t('save')}
        </Button>
      )}
      {act.saveConfig.isSuccess && (
        <Typography.Text type="success" data-testid="release-settings-saved">
          {t('saved')}
        </Typography.Text>
      )}
    </Space>
  );
}
