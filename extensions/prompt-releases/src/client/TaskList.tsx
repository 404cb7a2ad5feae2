// Release tasks as rows: what each asks (environment, prompts and versions, gray share), its status and who decided,
// and what the caller may do now: approve or reject (with a reason), widen or narrow a gray release, release it to
// everyone, cancel, roll back.
import { Button, Input, Modal, Popconfirm, Slider, Space, Tag, Typography } from '@arco-design/web-react';
import { EmptyState, ListRow, useFormat } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TaskStatus, TaskView } from '../shared/api.ts';
import { useMembers, useReleaseActions, useSpaceId } from './store.ts';

const STATUS_COLOR: Record<TaskStatus, string> = {
  waiting_approval: 'orange',
  rejected: 'red',
  in_gray: 'purple',
  done: 'green',
  cancelled: 'gray',
  rolled_back: 'gray',
};

export function TaskList({ tasks, emptyText }: { tasks: TaskView[]; emptyText: string }) {
  if (!tasks.length) return <EmptyState description={emptyText} testId="release-tasks-empty" />;
  return (
    <div data-testid="release-tasks">
      {tasks.map((task) => (
        <TaskRow key={task.task_id} task={task} />
      ))}
    </div>
  );
}

function TaskRow({ task }: { task: TaskView }) {
  const { t } = useTranslation('prompt-releases');
  const spaceId = useSpaceId();
  const format = useFormat();
  const members = useMembers(spaceId).data ?? [];
  const nameOf = (id: string) => members.find((m) => m.user_id === id)?.name ?? id;
  const act = useReleaseActions(spaceId);
  const [deciding, setDeciding] = useState(false);
  const what = task.release_resources
    .map((r) => (task.trigger_operation === 'offline' ? r.prompt_key : `${r.prompt_key} ${r.version}`))
    .join(', ');
  const decision = task.decisions.at(-1);
  return (
    <ListRow testId="release-task">
      <Space direction="vertical" size={2} style={{ flex: 1, minWidth: 0 }}>
        <Space wrap size={6}>
          <Tag color={STATUS_COLOR[task.status]} data-testid="release-task-status" data-status={task.status}>
            {t(`status.${task.status}`)}
          </Tag>
          <Typography.Text bold data-testid="release-task-what">
            {t(`operation.${task.trigger_operation}`, { what, env: task.env_name })}
          </Typography.Text>
          {task.gray_release_config && task.status === 'in_gray' && (
            <Tag color="purple" data-testid="release-task-gray">
              {t('grayShare', {
                percentage: task.gray_release_config.percentage,
                users: task.gray_release_config.user_ids.length,
              })}
            </Tag>
          )}
        </Space>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('askedBy', { name: nameOf(task.created_by), time: format.dateTime(task.created_at) })}
          {task.comment ? ` · ${task.comment}` : ''}
          {decision
            ? ` · ${t(decision.approve ? 'approvedBy' : 'rejectedBy', { name: nameOf(decision.user_id) })}${decision.reason ? `: ${decision.reason}` : ''}`
            : ''}
        </Typography.Text>
        {task.status === 'in_gray' && task.can_cancel && <GrayControls task={task} />}
      </Space>
      <Space wrap size={6}>
        {task.can_approve && (
          <Button size="small" type="primary" onClick={() => setDeciding(true)} data-testid="release-task-decide">
            {t('decide')}
          </Button>
        )}
        {task.status === 'in_gray' && task.can_cancel && (
          <Button
            size="small"
            type="primary"
            loading={act.trigger.isPending}
            onClick={() => act.trigger.mutate({ task_id: task.task_id, subtask_key: 'full' })}
            data-testid="release-task-full"
          >
            {t('releaseToAll')}
          </Button>
        )}
        {task.can_cancel && (
          <Popconfirm
            title={t('cancelConfirm')}
            onOk={() => act.cancel.mutateAsync(task.task_id).catch(() => undefined)}
          >
            <Button size="small" data-testid="release-task-cancel">
              {t('cancel')}
            </Button>
          </Popconfirm>
        )}
        {task.can_rollback && task.status === 'done' && (
          <Popconfirm
            title={t('rollbackConfirm')}
            onOk={() => act.rollbackTask.mutateAsync(task.task_id).catch(() => undefined)}
          >
            <Button size="small" status="warning" data-testid="release-task-rollback">
              {t('rollback')}
            </Button>
          </Popconfirm>
        )}
      </Space>
      {deciding && <DecideModal task={task} onClose={() => setDeciding(false)} />}
    </ListRow>
  );
}

/** A gray release's share, changed with a slider and applied. */
function GrayControls({ task }: { task: TaskView }) {
  const { t } = useTranslation('prompt-releases');
  const act = useReleaseActions(useSpaceId());
  const [percentage, setPercentage] = useState(task.gray_release_config?.percentage ?? 0);
  const changed = percentage !== task.gray_release_config?.percentage;
  return (
    <Space size={12} style={{ width: '100%', maxWidth: 480 }} data-testid="release-task-gray-controls">
      <Slider
        value={percentage}
        onChange={(v) => setPercentage(Number(v))}
        min={0}
        max={100}
        style={{ width: 220 }}
        aria-label={t('grayPercentage')}
      />
      <span data-testid="release-task-gray-value">{percentage} %</span>
      <Button
        size="mini"
        disabled={!changed}
        loading={act.trigger.isPending}
        onClick={() =>
          act.trigger.mutate({
            task_id: task.task_id,
            subtask_key: 'gray',
            gray_release_config: { percentage, user_ids: task.gray_release_config?.user_ids ?? [] },
          })
        }
        data-testid="release-task-gray-apply"
      >
        {t('apply')}
      </Button>
    </Space>
  );
}

function DecideModal({ task, onClose }: { task: TaskView; onClose(): void }) {
  const { t } = useTranslation('prompt-releases');
  const act = useReleaseActions(useSpaceId());
  const [reason, setReason] = useState('');
  // A refusal shows the studio's error notice; the dialog stays open.
  const decide = (approve: boolean) =>
    act.decide.mutate({ task_id: task.task_id, approve, reason }, { onSuccess: onClose });
  return (
    <Modal
      visible
      title={t('decideTitle', { env: task.env_name })}
      onCancel={onClose}
      footer={
        <Space>
          <Button
            status="danger"
            disabled={!reason.trim()}
            loading={act.decide.isPending}
            onClick={() => decide(false)}
            data-testid="release-decide-reject"
          >
            {t('reject')}
          </Button>
          <Button
            type="primary"
            loading={act.decide.isPending}
            onClick={() => decide(true)}
            data-testid="release-decide-approve"
          >
            {t('approve')}
          </Button>
        </Space>
      }
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Text>
          {task.release_resources.map((r) => `${r.prompt_key} ${r.version}`).join(', ')}
          {task.comment ? ` · ${task.comment}` : ''}
        </Typography.Text>
        <Input.TextArea
          value={reason}
          onChange={setReason}
          maxLength={500}
          placeholder={t('reasonPlaceholder')}
          data-testid="release-decide-reason"
        />
      </Space>
    </Modal>
  );
}
