// The tasks skill's panel: the time zone of tasks users make in the chat, the bot's tasks (made in the chat or
// here) with their next and last times, and new ones: on a schedule, or called by a webhook (its address shown once).
import { Alert, Button, Input } from '@arco-design/web-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi, useStudio } from '@tessera/sdk/client';
import type { BotSkillPanelProps } from '@tessera/ext-bots/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  BotTaskList,
  CreateBotTask,
  CreateWebhookTask,
  RemoveBotTask,
  TriggerTask,
  type TasksSkillSettings,
} from '../shared.ts';

const time = (language: string, zone: string, s: number) => {
  try {
    return new Intl.DateTimeFormat(language, {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: zone || undefined,
    }).format(s * 1000);
  } catch {
    return new Date(s * 1000).toISOString();
  }
};

export function TasksPanel({ value, onChange, spaceId, botId }: BotSkillPanelProps<TasksSkillSettings>) {
  const { t } = useTranslation('bot-skill-tasks');
  const { language } = useStudio();
  const api = useApi();
  const qc = useQueryClient();
  const key = ['bot-tasks', spaceId, botId];
  const list = useQuery({
    queryKey: key,
    queryFn: async () => (await api.call(BotTaskList, { space_id: spaceId, bot_id: botId })).tasks,
  });
  const refresh = () => void qc.invalidateQueries({ queryKey: key });
  const [draft, setDraft] = useState({ name: '', cron: '0 9 * * 1', question: '' });
  const [hook, setHook] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () =>
      api.call(CreateBotTask, {
        space_id: spaceId,
        bot_id: botId,
        name: draft.name,
        cron_expr: draft.cron,
        time_zone: value.time_zone,
        user_question: draft.question,
      }),
    onSuccess: () => (setDraft({ ...draft, name: '', question: '' }), refresh()),
  });
  const webhook = useMutation({
    mutationFn: () =>
      api.call(CreateWebhookTask, {
        space_id: spaceId,
        bot_id: botId,
        name: draft.name,
        user_question: draft.question,
      }),
    onSuccess: (r) => (setHook(r.webhook_url), refresh()),
  });
  const remove = useMutation({
    mutationFn: (id: string) => api.call(RemoveBotTask, { space_id: spaceId, task_id: id }),
    onSuccess: refresh,
  });
  const run = useMutation({
    mutationFn: (id: string) => api.call(TriggerTask, { space_id: spaceId, task_id: id }),
    onSuccess: refresh,
  });
  const ready = !!draft.name.trim() && !!draft.question.trim();
  return (
    <div data-testid="bot-tasks-panel" style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      <label style={{ fontSize: 12 }}>
        {t('timeZone')}
        <Input
          size="small"
          value={value.time_zone}
          onChange={(v) => onChange({ ...value, time_zone: v })}
          data-testid="bot-tasks-zone"
        />
      </label>
      {hook && (
        <Alert
          type="warning"
          closable
          onClose={() => setHook(null)}
          content={
            <span>
              {t('hookOnce')}{' '}
              <code data-testid="bot-task-hook-url" style={{ wordBreak: 'break-all' }}>
                {hook}
              </code>
            </span>
          }
        />
      )}
      <div data-testid="bot-task-presets">
        <div style={{ fontSize: 12, color: 'var(--color-text-2)' }}>{t('presets')}</div>
        {!value.presets?.length && <div style={{ fontSize: 12, color: 'var(--color-text-3)' }}>{t('noPresets')}</div>}
        {(value.presets ?? []).map((p, i) => (
          <div
            key={`${p.name}-${i}`}
            data-testid="bot-task-preset"
            style={{ display: 'flex', gap: 6, fontSize: 12, alignItems: 'center' }}
          >
            <strong>{p.name}</strong>
            <code>{p.cron_expr}</code>
            <span style={{ flex: 1, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
              {p.user_question}
            </span>
            <Button
              size="mini"
              onClick={() => onChange({ ...value, presets: value.presets.filter((_, j) => j !== i) })}
              data-testid="bot-task-preset-remove"
            >
              {t('remove')}
            </Button>
          </div>
        ))}
      </div>
      {(list.data ?? []).map((x) => (
        <div
          key={x.task_id}
          data-testid="bot-task"
          style={{ borderTop: '1px solid var(--color-border-1)', paddingTop: 6, fontSize: 12 }}
        >
          <div style={{ display: 'flex', gap: 6, alignItems: 'center' }}>
            <strong style={{ flex: 1 }}>{x.name}</strong>
            <span>{t(`mode.${x.mode}`)}</span>
            <Button
              size="mini"
              loading={run.isPending && run.variables === x.task_id}
              onClick={() => run.mutate(x.task_id)}
              data-testid="bot-task-run"
            >
              {t('runNow')}
            </Button>
            <Button size="mini" status="danger" onClick={() => remove.mutate(x.task_id)} data-testid="bot-task-remove">
              {t('remove')}
            </Button>
          </div>
          <div style={{ color: 'var(--color-text-3)' }} data-testid="bot-task-when">
            {x.trigger_type === 'webhook'
              ? t('webhook', { hint: x.secret_hint })
              : `${x.cron_expr || t('once')} · ${x.time_zone}${x.next_time ? ` · ${t('next', { time: time(language, x.time_zone, x.next_time) })}` : ''}`}
          </div>
          <div>{x.user_question}</div>
          {x.last_time > 0 && (
            <div
              style={{ color: x.last_error ? 'rgb(var(--danger-6))' : 'var(--color-text-3)' }}
              data-testid="bot-task-last"
            >
              {x.last_error
                ? t('lastFailed', { error: x.last_error })
                : t('last', { time: time(language, '', x.last_time) })}
            </div>
          )}
        </div>
      ))}
      <div
        style={{
          borderTop: '1px solid var(--color-border-2)',
          paddingTop: 8,
          display: 'flex',
          flexDirection: 'column',
          gap: 6,
        }}
      >
        <Input
          size="small"
          placeholder={t('name')}
          value={draft.name}
          onChange={(v) => setDraft({ ...draft, name: v })}
          data-testid="bot-task-name"
        />
        <Input.TextArea
          placeholder={t('question')}
          value={draft.question}
          onChange={(v) => setDraft({ ...draft, question: v })}
          autoSize
          data-testid="bot-task-question"
        />
        <Input
          size="small"
          addBefore="cron"
          value={draft.cron}
          onChange={(v) => setDraft({ ...draft, cron: v })}
          data-testid="bot-task-cron"
        />
        <div style={{ display: 'flex', gap: 6 }}>
          <Button
            size="small"
            type="primary"
            disabled={!ready}
            loading={create.isPending}
            onClick={() => create.mutate()}
            data-testid="bot-task-create"
          >
            {t('createTimed')}
          </Button>
          <Button
            size="small"
            disabled={!ready}
            loading={webhook.isPending}
            onClick={() => webhook.mutate()}
            data-testid="bot-task-create-webhook"
          >
            {t('createWebhook')}
          </Button>
          <Button
            size="small"
            disabled={!ready || (value.presets?.length ?? 0) >= 10}
            onClick={() => {
              onChange({
                ...value,
                presets: [
                  ...(value.presets ?? []),
                  { name: draft.name.trim(), cron_expr: draft.cron.trim(), user_question: draft.question.trim() },
                ],
              });
              setDraft({ ...draft, name: '', question: '' });
            }}
            data-testid="bot-task-create-preset"
          >
            {t('createPreset')}
          </Button>
        </div>
        <div style={{ fontSize: 12, color: 'var(--color-text-3)' }}>{t('publishedOnly')}</div>
      </div>
    </div>
  );
}
