// A prompt's releases, from a Releases button in its editor's header: what each environment serves (the version,
// a gray release's share, the version a roll back brings back), a new release to one, and the prompt's release tasks.
import { Button, Popconfirm, Space, Spin, Table, Tag, Typography } from '@arco-design/web-react';
import { SidePanel, useFormat, type ResourceActionProps } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EnvState } from '../shared/api.ts';
import { ReleaseForm } from './ReleaseForm.tsx';
import { TaskList } from './TaskList.tsx';
import { useReleaseActions, useReleaseInfo, useTasks } from './store.ts';

export function ReleasesButton({ spaceId, resourceId }: ResourceActionProps) {
  const { t } = useTranslation('prompt-releases');
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="prompt-releases-button">
        {t('button')}
      </Button>
      {open && (
        <SidePanel visible title={t('panelTitle')} onCancel={() => setOpen(false)} size="large">
          <ReleasesPanel spaceId={spaceId} promptId={resourceId} />
        </SidePanel>
      )}
    </>
  );
}

function ReleasesPanel({ spaceId, promptId }: { spaceId: string; promptId: string }) {
  const { t } = useTranslation('prompt-releases');
  const format = useFormat();
  const info = useReleaseInfo(spaceId, promptId);
  const tasks = useTasks(spaceId, { promptId });
  const act = useReleaseActions(spaceId);
  const [releasing, setReleasing] = useState<EnvState>();
  if (!info.data) return <Spin />;
  const { versions, envs } = info.data;
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={16} data-testid="prompt-releases">
      {!versions.length && <Typography.Text type="secondary">{t('noVersions')}</Typography.Text>}
      <Table
        rowKey="env"
        pagination={false}
        data={envs}
        columns={[
          {
            title: t('env'),
            render: (_: unknown, e: EnvState) => (
              <Space size={4}>
                <span>{e.name}</span>
                {e.need_approval && <Tag size="small">{t('approval')}</Tag>}
              </Space>
            ),
          },
          {
            title: t('serving'),
            render: (_: unknown, e: EnvState) => (
              <span data-testid={`release-env-${e.env}`} data-version={e.version}>
                {e.version || <Typography.Text type="secondary">{t('nothing')}</Typography.Text>}
                {e.gray_release_config && (
                  <Tag color="purple" size="small" style={{ marginLeft: 6 }} data-testid={`release-env-${e.env}-gray`}>
                    {t('grayOf', {
                      version: e.gray_release_config.version,
                      percentage: e.gray_release_config.percentage,
                    })}
                  </Tag>
                )}
              </span>
            ),
          },
          {
            title: t('updated'),
            render: (_: unknown, e: EnvState) => (e.updated_at ? format.dateTime(e.updated_at) : ''),
          },
          {
            title: '',
            render: (_: unknown, e: EnvState) => (
              <Space size={4}>
                <Button
                  size="mini"
                  type="primary"
                  disabled={!versions.length}
                  onClick={() => setReleasing(e)}
                  data-testid={`release-to-${e.env}`}
                >
                  {t('release')}
                </Button>
                {e.previous_version && (
                  <Popconfirm
                    title={t('rollbackTo', { version: e.previous_version })}
                    onOk={() => act.rollbackEnv.mutateAsync({ prompt_id: promptId, env: e.env }).catch(() => undefined)}
                  >
                    <Button size="mini" data-testid={`release-rollback-${e.env}`}>
                      {t('rollback')}
                    </Button>
                  </Popconfirm>
                )}
                {(e.version || e.gray_release_config) && (
                  <Popconfirm
                    title={t('offlineConfirm', { env: e.name })}
                    onOk={() =>
                      act.create
                        .mutateAsync({
                          env: e.env,
                          trigger_operation: 'offline',
                          release_resources: [{ prompt_id: promptId, version: '' }],
                          comment: '',
                        })
                        .catch(() => undefined)
                    }
                  >
                    <Button size="mini" status="danger" data-testid={`release-offline-${e.env}`}>
                      {t('offline')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      <Typography.Title heading={6} style={{ margin: 0 }}>
        {t('history')}
      </Typography.Title>
      {tasks.data ? <TaskList tasks={tasks.data.tasks} emptyText={t('noTasks')} /> : <Spin />}
      {releasing && (
        <ReleaseForm promptId={promptId} env={releasing} versions={versions} onClose={() => setReleasing(undefined)} />
      )}
    </Space>
  );
}
