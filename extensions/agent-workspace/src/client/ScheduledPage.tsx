// Scheduled tasks: a task run on a cron in a time zone, with the plan each run follows (or none: each run plans),
// enabled or not, run now (a try run), and its runs, each a task to open.
import { Button, Form, Input, Popconfirm, Space, Switch, Tag } from '@arco-design/web-react';
import { IconPlus } from '@arco-design/web-react/icon';
import { ModelSelect } from '@tessera/ext-models/client';
import { EmptyState, ListRow, PageHeader, SidePanel, useFormat } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ToolPicker } from './ToolPicker.tsx';
import { STATUS_COLOR } from './status.ts';
import { useScheduled, useScheduledRuns, useSpaceId, type ScheduledView } from './store.ts';

/** A scheduled task as its form edits it. */
interface ScheduledForm {
  name: string;
  cron: string;
  time_zone: string;
  query: string;
  model_id: string;
  tools: Record<string, unknown>;
  code: boolean;
  plan: string;
}

const blank: ScheduledForm = {
  name: '',
  cron: '0 9 * * *',
  time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
  query: '',
  model_id: '',
  tools: {},
  code: true,
  plan: '',
};

export function ScheduledPage() {
  const { t } = useTranslation('agent-workspace');
  const spaceId = useSpaceId();
  const s = useScheduled(spaceId);
  const [form, setForm] = useState<ScheduledForm | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const list = s.list.data ?? [];
  return (
    <div className="tessera-page" data-testid="agent-scheduled">
      <PageHeader
        back={{ to: '/agent', label: t('title') }}
        title={t('scheduled.title')}
        intro={t('scheduled.intro')}
        actions={
          <Button type="primary" icon={<IconPlus />} onClick={() => setForm(blank)} data-testid="agent-scheduled-new">
            {t('scheduled.new')}
          </Button>
        }
      />
      {!s.list.isLoading && !list.length && (
        <EmptyState description={t('scheduled.empty')} testId="agent-scheduled-empty" />
      )}
      {list.map((x) => (
        <Scheduled
          key={x.scheduled_task_id}
          x={x}
          s={s}
          open={open === x.scheduled_task_id}
          onOpen={() => setOpen(open === x.scheduled_task_id ? null : x.scheduled_task_id)}
        />
      ))}
      {form && (
        <SidePanel title={t('scheduled.new')} visible onCancel={() => setForm(null)} size="medium">
          <Form layout="vertical">
            <Form.Item label={t('scheduled.name')} required>
              <Input
                value={form.name}
                onChange={(name) => setForm({ ...form, name })}
                maxLength={100}
                data-testid="agent-scheduled-name"
              />
            </Form.Item>
            <Space>
              <Form.Item label={t('scheduled.cron')} required>
                <Input
                  value={form.cron}
                  onChange={(cron) => setForm({ ...form, cron })}
                  style={{ width: 160 }}
                  data-testid="agent-scheduled-cron"
                />
              </Form.Item>
              <Form.Item label={t('scheduled.timeZone')}>
                <Input
                  value={form.time_zone}
                  onChange={(time_zone) => setForm({ ...form, time_zone })}
                  style={{ width: 180 }}
                />
              </Form.Item>
            </Space>
            <Form.Item label={t('scheduled.query')} required>
              <Input.TextArea
                value={form.query}
                onChange={(query) => setForm({ ...form, query })}
                autoSize={{ minRows: 3, maxRows: 8 }}
                data-testid="agent-scheduled-query"
              />
            </Form.Item>
            <Form.Item label={t('scheduled.model')} required>
              <div data-testid="agent-scheduled-model">
                <ModelSelect
                  spaceId={spaceId}
                  value={form.model_id || undefined}
                  onChange={(model_id) => setForm({ ...form, model_id })}
                />
              </div>
            </Form.Item>
            <Form.Item label={t('scheduled.plan')} extra={t('scheduled.planHelp')}>
              <Input.TextArea
                value={form.plan}
                onChange={(plan) => setForm({ ...form, plan })}
                autoSize={{ minRows: 2, maxRows: 8 }}
              />
            </Form.Item>
            <Form.Item label={t('tools.title')}>
              <ToolPicker
                spaceId={spaceId}
                tools={form.tools}
                code={form.code}
                onChange={(p) => setForm({ ...form, ...p })}
              />
            </Form.Item>
            <Button
              type="primary"
              disabled={!form.name.trim() || !form.query.trim() || !form.model_id || !form.cron.trim()}
              loading={s.create.isPending}
              onClick={() =>
                s.create.mutate(
                  {
                    scheduled_task_name: form.name,
                    trigger: { cron: form.cron, time_zone: form.time_zone },
                    task: { query: form.query, model_id: form.model_id, tools: form.tools, code: form.code },
                    task_plan: form.plan
                      .split('\n')
                      .map((l) => l.trim())
                      .filter(Boolean)
                      .map((title) => ({ title, detail: '', expert_id: '' })),
                  },
                  { onSuccess: () => setForm(null) },
                )
              }
              data-testid="agent-scheduled-save"
            >
              {t('save')}
            </Button>
          </Form>
        </SidePanel>
      )}
    </div>
  );
}

function Scheduled({
  x,
  s,
  open,
  onOpen,
}: {
  x: ScheduledView;
  s: ReturnType<typeof useScheduled>;
  open: boolean;
  onOpen(): void;
}) {
  const { t } = useTranslation('agent-workspace');
  const format = useFormat();
  const navigate = useNavigate();
  const runs = useScheduledRuns(open ? x.scheduled_task_id : null);
  return (
    <div data-testid="agent-scheduled-row">
      <ListRow>
        <Switch
          size="small"
          checked={x.status === 'enabled'}
          onChange={(on) =>
            s.status.mutate({ scheduled_task_id: x.scheduled_task_id, status: on ? 'enabled' : 'disabled' })
          }
          aria-label={t('scheduled.enabled')}
        />
        <strong style={{ flex: 1 }}>{x.scheduled_task_name}</strong>
        <code>{x.trigger.cron}</code>
        <span style={{ fontSize: 12, color: 'var(--color-text-3)' }}>
          {x.trigger.time_zone} ·{' '}
          {x.next_run_at ? t('scheduled.next', { at: format.dateTime(Date.parse(x.next_run_at)) }) : t('scheduled.off')}
        </span>
        <Button size="mini" onClick={onOpen} data-testid="agent-scheduled-runs">
          {t('scheduled.runs', { count: x.runs })}
        </Button>
        <Button
          size="mini"
          type="primary"
          loading={s.tryRun.isPending}
          onClick={() =>
            s.tryRun.mutate(x.scheduled_task_id, { onSuccess: (r) => void navigate(`/agent/tasks/${r.task.task_id}`) })
          }
          data-testid="agent-scheduled-try"
        >
          {t('scheduled.tryRun')}
        </Button>
        <Popconfirm title={t('deleteConfirm')} onOk={() => s.remove.mutate(x.scheduled_task_id)}>
          <Button size="mini" status="danger">
            {t('delete')}
          </Button>
        </Popconfirm>
      </ListRow>
      {open && (
        <div style={{ marginLeft: 40, marginBottom: 8 }}>
          {(runs.data ?? []).map((r) => (
            <div key={r.task_id} style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
              <Tag size="small" color={STATUS_COLOR[r.status]}>
                {t(`status.${r.status}`)}
              </Tag>
              <Link to={`/agent/tasks/${r.task_id}`}>{format.dateTime(r.created_at * 1000)}</Link>
            </div>
          ))}
          {runs.data && !runs.data.length && (
            <span style={{ color: 'var(--color-text-3)' }}>{t('scheduled.noRuns')}</span>
          )}
        </div>
      )}
    </div>
  );
}
