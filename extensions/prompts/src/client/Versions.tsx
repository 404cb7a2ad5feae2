// A prompt's versions: commit the draft as a version, and the versions drawer (compare with the draft, roll back).
import { Alert, Button, Empty, Input, Space, Tag, Typography } from '@arco-design/web-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ApiError, Modal, SidePanel, toast, useApi, useFormat, testId } from '@tessera/sdk/client';
import { diffLines } from 'diff';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CommitDraft, ListCommits, RevertDraft, SetLabel } from '../shared/api.ts';
import { type CommitInfo, type PromptDetail } from './api.ts';

const text = (d: PromptDetail) =>
  [
    ...d.prompt_template.messages.map((m) => `[${m.role}]\n${m.content}`),
    `[model] ${JSON.stringify(d.model_config)}`,
    ...(d.tools.length ? [`[tools] ${JSON.stringify(d.tools, null, 2)}`] : []),
  ].join('\n\n');
export function CommitModal({
  promptId,
  latest,
  noModel,
  onClose,
  onDone,
}: {
  promptId: string;
  latest: string;
  noModel: boolean;
  onClose(): void;
  onDone(): Promise<void>;
}) {
  const { t } = useTranslation('prompts');
  const api = useApi();
  const [version, setVersion] = useState(latest ? latest.replace(/(\d+)$/, (d) => String(Number(d) + 1)) : '1.0.0');
  const [description, setDescription] = useState('');
  const [problem, setProblem] = useState('');
  const commit = useMutation({
    mutationFn: () =>
      api.call(
        CommitDraft,
        { prompt_id: promptId, commit_version: version.trim(), commit_description: description },
        { handled: (e: ApiError) => (e.status === 400 ? (setProblem(e.msg), true) : false) },
      ),
    onSuccess: async (r) => {
      toast.success(t('committed', { version: r.version }));
      onClose();
      await onDone();
    },
  });
  return (
    <Modal
      visible
      title={t('commit')}
      onCancel={onClose}
      onOk={() => commit.mutate()}
      confirmLoading={commit.isPending}
      okButtonProps={{ disabled: !version.trim(), ...testId('prompt-commit-save') }}
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        {/* Said now, not when an experiment on this version fails. */}
        {noModel && <Alert type="warning" content={t('commitNoModel')} data-testid="prompt-commit-no-model" />}
        <Typography.Text>{t('version')}</Typography.Text>
        <Input
          value={version}
          onChange={(v) => (setVersion(v), setProblem(''))}
          status={problem ? 'error' : undefined}
          data-testid="prompt-commit-version"
        />
        {problem && (
          <Typography.Text type="error" data-testid="prompt-commit-problem">
            {problem}
          </Typography.Text>
        )}
        <Typography.Text>{t('whatChanged')}</Typography.Text>
        <Input.TextArea
          value={description}
          onChange={setDescription}
          maxLength={2000}
          autoSize={{ minRows: 2, maxRows: 4 }}
        />
      </Space>
    </Modal>
  );
}

export function VersionsDrawer({
  promptId,
  visible,
  draft,
  onClose,
  onReverted,
}: {
  promptId: string;
  visible: boolean;
  draft: PromptDetail;
  onClose(): void;
  onReverted(): Promise<void>;
}) {
  const { t } = useTranslation('prompts');
  const api = useApi();
  const qc = useQueryClient();
  const format = useFormat();
  const q = useQuery({
    queryKey: ['prompts', 'commits', promptId],
    enabled: visible,
    queryFn: () => api.call(ListCommits, { prompt_id: promptId }),
  });
  const [diffOf, setDiffOf] = useState<CommitInfo>();
  const [labelFor, setLabelFor] = useState<string>();
  const [label, setLabel] = useState('production');
  const revert = useMutation({
    mutationFn: (v: string) => api.call(RevertDraft, { prompt_id: promptId, commit_version_reverting_from: v }),
    onSuccess: async () => {
      toast.success(t('reverted'));
      await onReverted();
      onClose();
    },
  });
  const setLbl = useMutation({
    mutationFn: () => api.call(SetLabel, { prompt_id: promptId, label: label.trim(), version: labelFor ?? '' }),
    onSuccess: async () => {
      toast.success(t('labelSet', { label: label.trim(), version: labelFor }));
      setLabelFor(undefined);
      await qc.invalidateQueries({ queryKey: ['prompts', 'commits'] });
    },
  });
  return (
    <SidePanel visible={visible} title={t('versions')} onCancel={onClose}>
      {q.data && !q.data.prompt_commit_infos.length && <Empty description={t('noVersions')} />}
      {(q.data?.prompt_commit_infos ?? []).map((c) => (
        <div
          key={c.version}
          data-testid="prompt-version"
          style={{ borderBottom: '1px solid var(--color-border-1)', padding: '8px 0' }}
        >
          <Space style={{ width: '100%', justifyContent: 'space-between' }}>
            <Space>
              <Tag color="green">{c.version}</Tag>
              {c.labels.map((l) => (
                <Tag key={l} color="arcoblue" data-testid="prompt-version-label">
                  {l}
                </Tag>
              ))}
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {format.dateTime(c.committed_at * 1000)}
              </Typography.Text>
            </Space>
            <Space size={4}>
              <Button
                size="mini"
                onClick={() => setDiffOf(diffOf?.version === c.version ? undefined : c)}
                data-testid="prompt-version-diff"
              >
                {t('compareDraft')}
              </Button>
              <Button size="mini" onClick={() => setLabelFor(c.version)} data-testid="prompt-version-set-label">
                {t('setLabel')}
              </Button>
              <Button size="mini" onClick={() => revert.mutate(c.version)}>
                {t('revert')}
              </Button>
            </Space>
          </Space>
          {c.description && <Typography.Text>{c.description}</Typography.Text>}
          {diffOf?.version === c.version && (
            <pre
              data-testid="prompt-diff"
              style={{
                whiteSpace: 'pre-wrap',
                fontSize: 12,
                background: 'var(--color-fill-1)',
                padding: 8,
                borderRadius: 4,
              }}
            >
              {diffLines(text(c.detail), text(draft)).map((part, i) => (
                <span
                  key={i}
                  style={{
                    background: part.added ? 'rgba(0,180,42,.15)' : part.removed ? 'rgba(245,63,63,.15)' : undefined,
                    textDecoration: part.removed ? 'line-through' : undefined,
                  }}
                >
                  {part.value}
                </span>
              ))}
            </pre>
          )}
        </div>
      ))}
      {labelFor && (
        <Modal
          visible
          title={t('setLabelTitle', { version: labelFor })}
          onCancel={() => setLabelFor(undefined)}
          onOk={() => setLbl.mutate()}
          confirmLoading={setLbl.isPending}
          okButtonProps={{ disabled: !label.trim(), ...testId('prompt-label-save') }}
        >
          <Input value={label} onChange={setLabel} placeholder="production" data-testid="prompt-label" />
          <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
            {t('labelHelp')}
          </Typography.Paragraph>
        </Modal>
      )}
    </SidePanel>
  );
}
