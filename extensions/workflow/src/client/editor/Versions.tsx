// Versions of a workflow in the editor: submit, publish, the version and operation history, revert,
// and what the draft changes against any version.
import { Button, Checkbox, Empty, Input, Popconfirm, Space, Tag, Typography } from '@arco-design/web-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Modal, toast, useApi, useFormat, testId } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { OperateType } from '@tessera/workflow-sdk';
import type { Canvas } from '@tessera/workflow-sdk';
import { diffCanvases, linkId, nextVersion } from './model.ts';
import {
  HistorySchema,
  ListOperations,
  ListVersions,
  PublishWorkflow,
  RevertDraft,
  SubmitDraft,
  type VersionView,
} from '../../shared/api.ts';

type Version = VersionView;

const OPERATION: Record<number, string> = {
  [OperateType.Draft]: 'draft',
  [OperateType.Submit]: 'submit',
  [OperateType.Publish]: 'publish',
};

export function VersionsPanel({
  spaceId,
  workflowId,
  draft,
  latestVersion,
  tested,
  onReverted,
  beforeWrite,
}: {
  spaceId: string;
  workflowId: string;
  draft: Canvas;
  latestVersion: string | null;
  tested: boolean;
  onReverted(): void;
  beforeWrite(): Promise<boolean>;
}) {
  const format = useFormat();
  const { t } = useTranslation('workflow');
  const api = useApi();
  const qc = useQueryClient();
  const body = { space_id: spaceId, workflow_id: workflowId };
  const versions = useQuery({
    queryKey: ['workflow', 'versions', workflowId],
    queryFn: () => api.call(ListVersions, { ...body, size: 50 }),
  });
  const operations = useQuery({
    queryKey: ['workflow', 'operations', workflowId],
    queryFn: () => api.call(ListOperations, { ...body, limit: 50 }),
  });
  const latest = versions.data?.version_list[0]?.version ?? latestVersion;
  const [version, setVersion] = useState(nextVersion(latest));
  const [description, setDescription] = useState('');
  const [force, setForce] = useState(false);
  const [comparing, setComparing] = useState<Version | undefined>();
  const refresh = () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: ['workflow', 'versions', workflowId] }),
      qc.invalidateQueries({ queryKey: ['workflow', 'operations', workflowId] }),
    ]);
  const publish = useMutation({
    mutationFn: async () => {
      if (!(await beforeWrite())) throw new Error('not saved');
      return api.call(PublishWorkflow, {
        ...body,
        workflow_version: version,
        version_description: description,
        force: force || undefined,
      });
    },
    onSuccess: async () => {
      toast.success(t('versions.published', { version }));
      setDescription('');
      await refresh();
      setVersion(nextVersion(version));
    },
  });
  const submit = useMutation({
    mutationFn: async () => {
      if (!(await beforeWrite())) throw new Error('not saved');
      return api.call(SubmitDraft, { ...body, desc: description, force: force || undefined });
    },
    onSuccess: async () => {
      toast.success(t('versions.submitted'));
      setDescription('');
      await refresh();
    },
  });
  const revert = useMutation({
    mutationFn: (commitId: string) => api.call(RevertDraft, { ...body, commit_id: commitId }),
    onSuccess: async () => {
      toast.success(t('versions.reverted'));
      await refresh();
      onReverted();
    },
  });
  return (
    <div data-testid="versions-panel" style={{ padding: 12 }}>
      <Typography.Title heading={6} style={{ marginTop: 0 }}>
        {t('versions.title')}
      </Typography.Title>
      <Space direction="vertical" style={{ width: '100%' }} size={6}>
        <Input addBefore={t('versions.version')} value={version} onChange={setVersion} data-testid="publish-version" />
        <Input.TextArea
          placeholder={t('versions.description')}
          value={description}
          onChange={setDescription}
          autoSize={{ minRows: 2, maxRows: 4 }}
          data-testid="publish-description"
        />
        {!tested && (
          <Checkbox checked={force} onChange={setForce} data-testid="publish-force">
            {t('versions.untested')}
          </Checkbox>
        )}
        <Space>
          <Button
            type="primary"
            loading={publish.isPending}
            disabled={!tested && !force}
            onClick={() => publish.mutate()}
            data-testid="publish"
          >
            {t('versions.publish')}
          </Button>
          <Button
            loading={submit.isPending}
            disabled={!tested && !force}
            onClick={() => submit.mutate()}
            data-testid="submit"
          >
            {t('versions.submit')}
          </Button>
        </Space>
      </Space>
      <Typography.Text type="secondary" style={{ display: 'block', margin: '16px 0 6px' }}>
        {t('versions.history')}
      </Typography.Text>
      {!versions.data?.version_list.length && <Empty description={t('versions.none')} />}
      {versions.data?.version_list.map((v) => (
        <div
          key={v.commit_id}
          data-testid="version-row"
          data-version={v.version}
          style={{ padding: '6px 0', borderBottom: '1px solid var(--color-border-1)' }}
        >
          <Space style={{ width: '100%', justifyContent: 'space-between' }}>
            <span>
              <Tag color="green">{v.version}</Tag>{' '}
              <span style={{ fontSize: 12 }}>{format.dateTime(v.publish_time * 1000)}</span>
            </span>
            <Space size={2}>
              <Button size="mini" type="text" onClick={() => setComparing(v)} data-testid="version-compare">
                {t('versions.compare')}
              </Button>
              <Popconfirm
                title={t('versions.revertConfirm', { version: v.version })}
                onOk={() => revert.mutate(v.commit_id)}
                okButtonProps={{ ...testId('version-revert-confirm') }}
              >
                <Button size="mini" type="text" data-testid="version-revert">
                  {t('versions.revert')}
                </Button>
              </Popconfirm>
            </Space>
          </Space>
          {v.version_description && (
            <div style={{ fontSize: 12, color: 'var(--color-text-3)' }}>{v.version_description}</div>
          )}
        </div>
      ))}
      <Typography.Text type="secondary" style={{ display: 'block', margin: '16px 0 6px' }}>
        {t('versions.operations')}
      </Typography.Text>
      <div data-testid="operation-list">
        {operations.data?.operate_list.map((o) => (
          <div key={o.id} style={{ fontSize: 12, padding: '3px 0' }}>
            <Tag size="small">{t(`versions.op.${OPERATION[o.type] ?? 'draft'}`)}</Tag>{' '}
            {format.dateTime(o.create_time * 1000)} {o.desc && `· ${o.desc}`}
          </div>
        ))}
      </div>
      {comparing && (
        <DiffModal
          spaceId={spaceId}
          workflowId={workflowId}
          version={comparing}
          draft={draft}
          onClose={() => setComparing(undefined)}
        />
      )}
    </div>
  );
}

function DiffModal({
  spaceId,
  workflowId,
  version,
  draft,
  onClose,
}: {
  spaceId: string;
  workflowId: string;
  version: Version;
  draft: Canvas;
  onClose(): void;
}) {
  const { t } = useTranslation('workflow');
  const api = useApi();
  const before = useQuery({
    queryKey: ['workflow', 'history_schema', version.commit_id],
    queryFn: async () =>
      JSON.parse(
        (
          await api.call(HistorySchema, {
            space_id: spaceId,
            workflow_id: workflowId,
            commit_id: version.commit_id,
          })
        ).schema_json,
      ) as Canvas,
  });
  return (
    <Modal
      visible
      size="large"
      title={t('versions.diffTitle', { version: version.version })}
      onCancel={onClose}
      footer={null}
    >
      {before.data ? (
        <DiffList before={before.data} after={draft} />
      ) : (
        <Typography.Text>{t('versions.loading')}</Typography.Text>
      )}
    </Modal>
  );
}

/** What `after` adds, removes and changes against `before`: nodes (with the fields that differ) and links. */
export function DiffList({ before, after }: { before: Canvas; after: Canvas }) {
  const { t } = useTranslation('workflow');
  const d = diffCanvases(before, after);
  const title = (id: string, c: Canvas) => c.nodes.find((n) => n.node_id === id)?.node_param.title ?? id;
  const empty =
    !d.added.length && !d.removed.length && !d.changed.length && !d.linksAdded.length && !d.linksRemoved.length;
  return (
    <div data-testid="diff">
      {empty && <Typography.Text data-testid="diff-none">{t('versions.same')}</Typography.Text>}
      {d.added.map((n) => (
        <div key={`a${n.node_id}`} data-testid="diff-added" style={{ color: 'rgb(var(--success-6))' }}>
          + {t('versions.nodeAdded', { name: n.node_param.title ?? n.node_id })}
        </div>
      ))}
      {d.removed.map((n) => (
        <div key={`r${n.node_id}`} data-testid="diff-removed" style={{ color: 'rgb(var(--danger-6))' }}>
          − {t('versions.nodeRemoved', { name: n.node_param.title ?? n.node_id })}
        </div>
      ))}
      {d.changed.map((c) => (
        <div key={`c${c.node.node_id}`} data-testid="diff-changed" style={{ color: 'rgb(var(--warning-6))' }}>
          ~{' '}
          {t('versions.nodeChanged', { name: c.node.node_param.title ?? c.node.node_id, fields: c.fields.join(', ') })}
        </div>
      ))}
      {d.linksAdded.map((l) => (
        <div key={`la${linkId(l)}`} data-testid="diff-link-added" style={{ color: 'rgb(var(--success-6))' }}>
          + {t('versions.linkAdded', { from: title(l.from_node_id, after), to: title(l.to_node_id, after) })}
        </div>
      ))}
      {d.linksRemoved.map((l) => (
        <div key={`lr${linkId(l)}`} data-testid="diff-link-removed" style={{ color: 'rgb(var(--danger-6))' }}>
          − {t('versions.linkRemoved', { from: title(l.from_node_id, before), to: title(l.to_node_id, before) })}
        </div>
      ))}
    </div>
  );
}
