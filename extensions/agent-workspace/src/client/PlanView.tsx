// A task's plan: each step with its state, the expert it is handed to and what it came to; the steps still to come
// edited while the plan waits for the person, while the task is paused or while it asks something.
import { Button, Input, Space, Spin, Tag, Typography } from '@arco-design/web-react';
import { IconCheckCircle, IconClockCircle, IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlanStep, TaskView } from './store.ts';

type Draft = { title: string; detail: string; expert_id: string };

export function PlanView({ task, onSave, saving }: { task: TaskView; onSave(steps: Draft[]): void; saving: boolean }) {
  const { t } = useTranslation('agent-workspace');
  const [editing, setEditing] = useState<Draft[] | null>(null);
  const editable = ['waiting_plan', 'paused', 'waiting_user'].includes(task.status);
  const expertName = (id: string) => task.expert_agent_config.find((e) => e.expert_id === id)?.name;
  if (!task.plan.length)
    return (
      <div data-testid="agent-plan" style={{ color: 'var(--color-text-3)' }}>
        {task.status === 'planning' ? (
          <Space>
            <Spin size={14} /> {t('plan.writing')}
          </Space>
        ) : (
          t('plan.none')
        )}
      </div>
    );
  if (editing) {
    const done = task.plan.filter((s) => s.status === 'done' || s.status === 'skipped');
    return (
      <div data-testid="agent-plan-editor">
        {done.map((s, i) => (
          <div key={s.step_id} style={{ color: 'var(--color-text-3)', marginBottom: 6 }}>
            {i + 1}. {s.title}
          </div>
        ))}
        {editing.map((s, i) => (
          <div key={i} style={{ display: 'flex', gap: 6, marginBottom: 6 }}>
            <span style={{ paddingTop: 5 }}>{done.length + i + 1}.</span>
            <div style={{ flex: 1 }}>
              <Input
                value={s.title}
                onChange={(title) => setEditing(editing.map((x, j) => (j === i ? { ...x, title } : x)))}
                maxLength={200}
                data-testid="agent-plan-step-title"
              />
              <Input.TextArea
                value={s.detail}
                onChange={(detail) => setEditing(editing.map((x, j) => (j === i ? { ...x, detail } : x)))}
                autoSize={{ minRows: 1, maxRows: 4 }}
                placeholder={t('plan.detail')}
                style={{ marginTop: 4 }}
              />
            </div>
            <Button
              size="small"
              icon={<IconDelete />}
              aria-label={t('delete')}
              disabled={editing.length < 2}
              onClick={() => setEditing(editing.filter((_, j) => j !== i))}
            />
          </div>
        ))}
        <Space>
          <Button
            size="small"
            icon={<IconPlus />}
            onClick={() => setEditing([...editing, { title: '', detail: '', expert_id: '' }])}
            data-testid="agent-plan-add"
          >
            {t('plan.add')}
          </Button>
          <Button
            size="small"
            type="primary"
            loading={saving}
            disabled={editing.some((s) => !s.title.trim())}
            onClick={() => {
              onSave(editing);
              setEditing(null);
            }}
            data-testid="agent-plan-save"
          >
            {t('save')}
          </Button>
          <Button size="small" onClick={() => setEditing(null)}>
            {t('cancel')}
          </Button>
        </Space>
      </div>
    );
  }
  return (
    <div data-testid="agent-plan">
      <ol style={{ paddingLeft: 0, margin: 0, listStyle: 'none', display: 'flex', flexDirection: 'column', gap: 8 }}>
        {task.plan.map((s, i) => (
          <li key={s.step_id} data-testid="agent-plan-step" data-status={s.status}>
            <div style={{ display: 'flex', gap: 6, alignItems: 'center' }}>
              <StepIcon step={s} running={task.status === 'running'} />
              <Typography.Text bold={s.status === 'running'}>
                {i + 1}. {s.title}
              </Typography.Text>
              {s.expert_id && (
                <Tag size="small" color="purple">
                  {expertName(s.expert_id) ?? s.expert_id}
                </Tag>
              )}
            </div>
            {s.result && (
              <div style={{ fontSize: 12, color: 'var(--color-text-2)', marginLeft: 22, whiteSpace: 'pre-wrap' }}>
                {s.result.length > 300 ? `${s.result.slice(0, 300)}…` : s.result}
              </div>
            )}
          </li>
        ))}
      </ol>
      {editable && (
        <Button
          size="small"
          style={{ marginTop: 10 }}
          onClick={() =>
            setEditing(
              task.plan
                .filter((s) => s.status !== 'done' && s.status !== 'skipped')
                .map(({ title, detail, expert_id }) => ({ title, detail, expert_id })),
            )
          }
          data-testid="agent-plan-edit"
        >
          {t('plan.edit')}
        </Button>
      )}
    </div>
  );
}

function StepIcon({ step, running }: { step: PlanStep; running: boolean }) {
  if (step.status === 'done') return <IconCheckCircle style={{ color: 'rgb(var(--green-6))' }} />;
  if (step.status === 'running' && running) return <Spin size={14} />;
  return <IconClockCircle style={{ color: 'var(--color-text-4)' }} />;
}
