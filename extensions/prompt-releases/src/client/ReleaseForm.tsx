// A new release of a prompt to an environment: the version, a gray release first (a share of callers and users who
// always get it), a comment; the environment says whether an approver must agree first.
import { Alert, Input, Modal, Select, Slider, Space, Switch, Typography } from '@arco-design/web-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EnvState } from '../shared/api.ts';
import { useReleaseActions, useSpaceId } from './store.ts';
import { testId } from '@tessera/sdk/client';

const LABEL = { fontSize: 12, color: 'var(--color-text-2)', marginBottom: 4 } as const;

export function ReleaseForm({
  promptId,
  env,
  versions,
  onClose,
}: {
  promptId: string;
  env: EnvState;
  versions: string[];
  onClose(): void;
}) {
  const { t } = useTranslation('prompt-releases');
  const act = useReleaseActions(useSpaceId());
  const [version, setVersion] = useState(versions[0] ?? '');
  const [gray, setGray] = useState(false);
  const [percentage, setPercentage] = useState(10);
  const [users, setUsers] = useState('');
  const [comment, setComment] = useState('');
  const userIds = users
    .split(/[\s,]+/)
    .map((u) => u.trim())
    .filter(Boolean);
  return (
    <Modal
      visible
      title={t('releaseTo', { env: env.name })}
      onCancel={onClose}
      okText={env.need_approval ? t('askApproval') : t('release')}
      okButtonProps={{ disabled: !version, ...testId('release-submit') }}
      confirmLoading={act.create.isPending}
      onOk={() =>
        act.create.mutate(
          {
            env: env.env,
            trigger_operation: 'release',
            release_resources: [{ prompt_id: promptId, version }],
            gray_release_config: gray ? { percentage, user_ids: userIds } : undefined,
            comment,
          },
          { onSuccess: onClose },
        )
      }
    >
      <Space direction="vertical" style={{ width: '100%' }} size={12}>
        {env.need_approval && <Alert type="info" content={t('needsApproval')} data-testid="release-needs-approval" />}
        <div>
          <div style={LABEL}>{t('version')}</div>
          <Select value={version} onChange={setVersion} data-testid="release-version" style={{ width: 200 }}>
            {versions.map((v) => (
              <Select.Option key={v} value={v}>
                {v}
                {v === env.version ? ` · ${t('live')}` : ''}
              </Select.Option>
            ))}
          </Select>
        </div>
        <Space>
          <Switch checked={gray} onChange={setGray} data-testid="release-gray" />
          <Typography.Text>{t('grayFirst')}</Typography.Text>
        </Space>
        {gray && (
          <div data-testid="release-gray-settings">
            <div style={LABEL}>{t('grayPercentage')}</div>
            <Space size={12}>
              <Slider
                value={percentage}
                onChange={(v) => setPercentage(Number(v))}
                min={0}
                max={100}
                style={{ width: 240 }}
                aria-label={t('grayPercentage')}
              />
              <span data-testid="release-gray-value">{percentage} %</span>
            </Space>
            <div style={{ ...LABEL, marginTop: 8 }}>{t('grayUsers')}</div>
            <Input value={users} onChange={setUsers} placeholder="user-1, user-2" data-testid="release-gray-users" />
          </div>
        )}
        <Input.TextArea
          value={comment}
          onChange={setComment}
          maxLength={500}
          placeholder={t('comment')}
          data-testid="release-comment"
        />
      </Space>
    </Modal>
  );
}
