// The memory skill in the bot editor: what to remember, and what the bot remembers about you (edit, forget).
import { Button, Input, Popconfirm, Select, Space, Switch, Tag, Typography } from '@arco-design/web-react';
import { IconDelete } from '@arco-design/web-react/icon';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import type { BotSkillPanelProps } from '@tessera/ext-bots/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeleteEvents, DeleteFacts, ListEvents, ListFacts, ListMemoryBases, UpdateFact } from '../shared/api.ts';

interface Fact {
  key: string;
  value: string;
}

export function MemoryPanel({ value, onChange, spaceId, botId }: BotSkillPanelProps) {
  const { t } = useTranslation('memory');
  const api = useApi();
  const qc = useQueryClient();
  const s = {
    profile: value?.profile ?? true,
    events: value?.events ?? true,
    ...(value?.model_id ? { model_id: value.model_id } : {}),
    ...(value?.memory_base_id ? { memory_base_id: value.memory_base_id as string } : {}),
  };
  const bases = useQuery({
    queryKey: ['memory', 'bases', spaceId, ''],
    queryFn: () => api.call(ListMemoryBases, { space_id: spaceId }),
  });
  const facts = useQuery({
    queryKey: ['memory', botId, 'facts', s.memory_base_id ?? ''],
    queryFn: () => api.call(ListFacts, { space_id: spaceId, bot_id: botId }),
  });
  const events = useQuery({
    queryKey: ['memory', botId, 'events', s.memory_base_id ?? ''],
    queryFn: () => api.call(ListEvents, { space_id: spaceId, bot_id: botId, limit: 20 }),
  });
  const refresh = () => qc.invalidateQueries({ queryKey: ['memory', botId] });
  const forget = useMutation({
    mutationFn: (keys?: string[]) => api.call(DeleteFacts, { space_id: spaceId, bot_id: botId, keys }),
    onSuccess: refresh,
  });
  const forgetEvents = useMutation({
    mutationFn: (ids?: string[]) => api.call(DeleteEvents, { space_id: spaceId, bot_id: botId, ids }),
    onSuccess: refresh,
  });
  const save = useMutation({
    mutationFn: (f: Fact) => api.call(UpdateFact, { space_id: spaceId, bot_id: botId, ...f }),
    onSuccess: refresh,
  });
  const [editing, setEditing] = useState<Record<string, string>>({});
  return (
    <div data-testid="bot-memory">
      <Space direction="vertical" style={{ width: '100%' }} size={6}>
        <Space>
          <Switch size="small" checked={s.profile} onChange={(profile) => onChange({ ...s, profile })} />
          <Typography.Text>{t('profile')}</Typography.Text>
        </Space>
        <Space>
          <Switch size="small" checked={s.events} onChange={(events) => onChange({ ...s, events })} />
          <Typography.Text>{t('events')}</Typography.Text>
        </Space>
        <Space size={4} style={{ width: '100%' }}>
          <Typography.Text style={{ fontSize: 12 }}>{t('base')}</Typography.Text>
          <Select
            size="small"
            style={{ width: 200 }}
            value={s.memory_base_id ?? ''}
            onChange={(v: string) => {
              const { memory_base_id: _drop, ...rest } = s;
              onChange(v ? { ...rest, memory_base_id: v } : rest);
            }}
            data-testid="bot-memory-base"
          >
            <Select.Option value="">{t('ownMemory')}</Select.Option>
            {(bases.data?.memorybases ?? []).map((b) => (
              <Select.Option key={b.memorybase_id} value={b.memorybase_id}>
                {b.name}
              </Select.Option>
            ))}
          </Select>
        </Space>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('aboutYou')}
        </Typography.Text>
        {!facts.data?.facts.length && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('nothing')}
          </Typography.Text>
        )}
        {facts.data?.facts.map((f) => (
          <Space key={f.key} size={4} style={{ width: '100%' }} data-testid="bot-memory-fact">
            <Tag size="small">{f.key}</Tag>
            <Input
              size="small"
              style={{ width: 160 }}
              value={editing[f.key] ?? f.value}
              onChange={(v) => setEditing({ ...editing, [f.key]: v })}
              onBlur={() =>
                editing[f.key] !== undefined &&
                editing[f.key] !== f.value &&
                editing[f.key].trim() &&
                save.mutate({ key: f.key, value: editing[f.key] })
              }
            />
            <Button
              size="mini"
              type="text"
              icon={<IconDelete />}
              aria-label={t('forget')}
              onClick={() => forget.mutate([f.key])}
            />
          </Space>
        ))}
        {events.data?.events.map((e) => (
          <Space key={e.id} size={4} data-testid="bot-memory-event">
            <Typography.Text style={{ fontSize: 12 }}>
              {new Date(e.time).toLocaleString()} · {e.content}
            </Typography.Text>
            <Button
              size="mini"
              type="text"
              icon={<IconDelete />}
              aria-label={t('forget')}
              onClick={() => forgetEvents.mutate([e.id])}
            />
          </Space>
        ))}
        {(!!facts.data?.facts.length || !!events.data?.events.length) && (
          <Popconfirm title={t('clearTitle')} onOk={() => (forget.mutate(undefined), forgetEvents.mutate(undefined))}>
            <Button size="mini" status="danger" data-testid="bot-memory-clear">
              {t('clear')}
            </Button>
          </Popconfirm>
        )}
      </Space>
    </div>
  );
}
