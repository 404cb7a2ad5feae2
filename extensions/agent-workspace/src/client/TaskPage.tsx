// A task: its state and what it spent against its limits, the plan, the log as it grows (tool calls with their
// outputs, the agent's words as it writes them), the files it wrote; pause (with a reason), resume, stop, start a
// confirmed plan; answer its question, add a note or a follow-up; share a replay; export; say how it went.
import { Alert, Button, Dropdown, Input, Menu, Popover, Progress, Space, Spin, Tag } from '@arco-design/web-react';
import {
  IconPause,
  IconPlayArrow,
  IconRecordStop,
  IconShareInternal,
  IconThumbDown,
  IconThumbUp,
} from '@arco-design/web-react/icon';
import { PageHeader } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import './agent.css';
import { useParams } from 'react-router';
import { FilesPanel } from './FilesPanel.tsx';
import { PlanView } from './PlanView.tsx';
import { ShareDialog } from './ShareDialog.tsx';
import { TaskLog } from './TaskLog.tsx';
import { STATUS_COLOR, isEnded } from './status.ts';
import { useLiveTask, type TaskView } from './store.ts';

const minutes = (ms: number) =>
  `${Math.floor(ms / 60_000)}:${String(Math.floor((ms % 60_000) / 1000)).padStart(2, '0')}`;

export function TaskPage() {
  const { taskId = '' } = useParams();
  return <Task key={taskId} taskId={taskId} />;
}

function Task({ taskId }: { taskId: string }) {
  const { t } = useTranslation('agent-workspace');
  const live = useLiveTask(taskId);
  const [sharing, setSharing] = useState(false);
  const task = live.task;
  if (!task)
    return (
      <div className="tessera-page" data-testid="agent-task">
        {live.error ? <Alert type="error" content={live.error} /> : <Spin />}
      </div>
    );
  const ended = isEnded(task.status);
  return (
    <div className="tessera-page" data-testid="agent-task" data-status={task.status}>
      <PageHeader
        back={{ to: '/agent', label: t('title') }}
        title={task.task_name}
        extra={
          <Tag color={STATUS_COLOR[task.status]} data-testid="agent-task-status">
            {t(`status.${task.status}`)}
          </Tag>
        }
        actions={<Actions task={task} live={live} onShare={() => setSharing(true)} />}
      />
      <Usage task={task} />
      {task.status === 'paused' && (
        <Alert
          type="info"
          style={{ marginBottom: 12 }}
          content={task.pause_reason ? t('pausedBecause', { reason: task.pause_reason }) : t('paused')}
        />
      )}
      {task.status === 'waiting_plan' && (
        <Alert type="warning" style={{ marginBottom: 12 }} content={t('plan.confirm')} />
      )}
      {ended && task.end_reason && (
        <Alert
          type={task.status === 'finished' ? 'success' : task.status === 'failed' ? 'error' : 'warning'}
          style={{ marginBottom: 12 }}
          content={task.end_reason}
          data-testid="agent-end-reason"
        />
      )}
      <div className="tessera-agent-task">
        <aside style={{ flex: '0 0 300px', minWidth: 0 }}>
          <h4 style={{ marginTop: 0 }}>{t('plan.title')}</h4>
          <PlanView task={task} onSave={(steps) => live.plan.mutate(steps)} saving={live.plan.isPending} />
          <h4>{t('files.title')}</h4>
          <FilesPanel taskId={taskId} />
        </aside>
        <main style={{ flex: 1, minWidth: 0 }}>
          <TaskLog messages={live.messages} writing={live.writing} />
          {(task.status === 'running' || task.status === 'planning') && !live.writing && (
            <div style={{ marginTop: 10, color: 'var(--color-text-3)' }} data-testid="agent-working">
              <Spin size={12} /> {t(task.status === 'planning' ? 'plan.writing' : 'working')}
            </div>
          )}
          <Reply task={task} live={live} />
          {ended && <Feedback task={task} live={live} />}
        </main>
      </div>
      <ShareDialog taskId={taskId} visible={sharing} onClose={() => setSharing(false)} />
    </div>
  );
}

type Live = ReturnType<typeof useLiveTask>;

function Actions({ task, live, onShare }: { task: TaskView; live: Live; onShare(): void }) {
  const { t } = useTranslation('agent-workspace');
  const [reason, setReason] = useState('');
  const op = live.operate;
  const ended = isEnded(task.status);
  return (
    <Space wrap>
      {task.status === 'waiting_plan' && (
        <Button
          type="primary"
          icon={<IconPlayArrow />}
          loading={op.isPending}
          onClick={() => op.mutate({ operate_type: 'start' })}
          data-testid="agent-start"
        >
          {t('start')}
        </Button>
      )}
      {['planning', 'waiting_plan', 'running', 'waiting_user'].includes(task.status) && (
        <Popover
          trigger="click"
          content={
            <Space direction="vertical">
              <Input
                value={reason}
                onChange={setReason}
                placeholder={t('pauseReason')}
                maxLength={500}
                data-testid="agent-pause-reason"
              />
              <Button
                size="small"
                type="primary"
                onClick={() => op.mutate({ operate_type: 'pause', pause_reason: reason })}
                data-testid="agent-pause-confirm"
              >
                {t('pause')}
              </Button>
            </Space>
          }
        >
          <Button icon={<IconPause />} data-testid="agent-pause">
            {t('pause')}
          </Button>
        </Popover>
      )}
      {task.status === 'paused' && (
        <Button
          type="primary"
          icon={<IconPlayArrow />}
          loading={op.isPending}
          onClick={() => op.mutate({ operate_type: 'resume' })}
          data-testid="agent-resume"
        >
          {t('resume')}
        </Button>
      )}
      {!ended && (
        <Button
          status="danger"
          icon={<IconRecordStop />}
          onClick={() => op.mutate({ operate_type: 'stop' })}
          data-testid="agent-stop"
        >
          {t('stop')}
        </Button>
      )}
      {ended && (
        <Button icon={<IconShareInternal />} onClick={onShare} data-testid="agent-share">
          {t('share.button')}
        </Button>
      )}
      <Dropdown
        droplist={
          <Menu
            onClickMenuItem={(format) =>
              window.open(`/api/agent_space/task/export?task_id=${task.task_id}&format=${format}`, '_blank', 'noopener')
            }
          >
            <Menu.Item key="md">{t('export.md')}</Menu.Item>
            <Menu.Item key="docx">{t('export.docx')}</Menu.Item>
            <Menu.Item key="pdf">{t('export.pdf')}</Menu.Item>
          </Menu>
        }
      >
        <Button data-testid="agent-export">{t('export.button')}</Button>
      </Dropdown>
    </Space>
  );
}

function Usage({ task }: { task: TaskView }) {
  const { t } = useTranslation('agent-workspace');
  const tokens = task.usage.input_tokens + task.usage.output_tokens;
  const items = [
    {
      key: 'steps',
      used: task.usage.steps,
      max: task.limits.max_steps,
      text: `${task.usage.steps} / ${task.limits.max_steps}`,
    },
    {
      key: 'tokens',
      used: tokens,
      max: task.limits.max_tokens,
      text: `${tokens.toLocaleString()} / ${task.limits.max_tokens.toLocaleString()}`,
    },
    {
      key: 'time',
      used: task.usage.run_ms,
      max: task.limits.max_minutes * 60_000,
      text: `${minutes(task.usage.run_ms)} / ${task.limits.max_minutes}:00`,
    },
  ];
  return (
    <div style={{ display: 'flex', gap: 24, flexWrap: 'wrap', marginBottom: 12 }} data-testid="agent-usage">
      {items.map((i) => (
        <div key={i.key} style={{ minWidth: 160 }} data-testid={`agent-usage-${i.key}`}>
          <div style={{ fontSize: 12, color: 'var(--color-text-3)' }}>
            {t(`usage.${i.key}`)}: {i.text}
          </div>
          <Progress
            percent={Math.min(100, Math.round((i.used / Math.max(1, i.max)) * 100))}
            showText={false}
            size="small"
          />
        </div>
      ))}
    </div>
  );
}

function Reply({ task, live }: { task: TaskView; live: Live }) {
  const { t } = useTranslation('agent-workspace');
  const [text, setText] = useState('');
  const asking = task.status === 'waiting_user';
  const send = () => live.chat.mutate(text, { onSuccess: () => setText('') });
  return (
    <div style={{ marginTop: 16 }} data-testid="agent-reply">
      {asking && (
        <Alert
          type="warning"
          style={{ marginBottom: 8 }}
          title={t('asks')}
          content={task.question}
          data-testid="agent-question"
        />
      )}
      <div style={{ display: 'flex', gap: 8 }}>
        <Input.TextArea
          value={text}
          onChange={setText}
          autoSize={{ minRows: 1, maxRows: 6 }}
          maxLength={20_000}
          placeholder={t(asking ? 'reply.answer' : isEnded(task.status) ? 'reply.followUp' : 'reply.note')}
          data-testid="agent-reply-input"
        />
        <Button
          type="primary"
          disabled={!text.trim()}
          loading={live.chat.isPending}
          onClick={send}
          data-testid="agent-reply-send"
        >
          {t('reply.send')}
        </Button>
      </div>
    </div>
  );
}

function Feedback({ task, live }: { task: TaskView; live: Live }) {
  const { t } = useTranslation('agent-workspace');
  const [words, setWords] = useState('');
  const [sent, setSent] = useState(false);
  return (
    <div style={{ marginTop: 12 }} data-testid="agent-feedback">
      <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
        <span style={{ fontSize: 12, color: 'var(--color-text-3)' }}>{t('feedback.ask')}</span>
        <Button
          size="small"
          type={task.feel === 'good' ? 'primary' : 'secondary'}
          icon={<IconThumbUp />}
          aria-label={t('feedback.good')}
          onClick={() => live.feedback.mutate({ feel: task.feel === 'good' ? '' : 'good', digg: task.feel !== 'good' })}
          data-testid="agent-feel-good"
        />
        <Button
          size="small"
          type={task.feel === 'bad' ? 'primary' : 'secondary'}
          icon={<IconThumbDown />}
          aria-label={t('feedback.bad')}
          onClick={() => live.feedback.mutate({ feel: task.feel === 'bad' ? '' : 'bad', digg: false })}
          data-testid="agent-feel-bad"
        />
      </div>
      {task.feel && !sent && (
        <div style={{ display: 'flex', gap: 8, marginTop: 6, maxWidth: 560 }}>
          <Input
            value={words}
            onChange={setWords}
            placeholder={t('feedback.more')}
            maxLength={2000}
            data-testid="agent-feedback-words"
          />
          <Button
            size="small"
            disabled={!words.trim()}
            onClick={() => live.feedback.mutate({ content: words }, { onSuccess: () => setSent(true) })}
            data-testid="agent-feedback-send"
          >
            {t('reply.send')}
          </Button>
        </div>
      )}
      {sent && <div style={{ fontSize: 12, color: 'var(--color-text-3)', marginTop: 4 }}>{t('feedback.thanks')}</div>}
    </div>
  );
}
