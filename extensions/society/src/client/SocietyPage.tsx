// Agent societies: the space's societies; the one open, with its roles, host and stop condition; its processes, one
// followed live (who speaks and why, each message as it is said), paused, resumed or stopped, and a person's reply
// when it is their turn.
import { messageOf } from '@tessera/sdk';
import { Alert, Button, Input, InputNumber, Popconfirm, Radio, Select, Space, Tag } from '@arco-design/web-react';
import { ModelSelect } from '@tessera/ext-models/client';
import { EmptyState, ListRow, PageHeader } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RoleForm } from './RoleForm.tsx';
import { useLiveProcess, useSocieties, useSociety, useSpaceId, type MetaView } from './store.ts';

const label = { fontSize: 12, color: 'var(--color-text-2)', margin: '14px 0 4px' } as const;
const STATUS: Record<string, string> = {
  running: 'arcoblue',
  waiting_human: 'orange',
  paused: 'gray',
  finished: 'green',
  stopped: 'gray',
  failed: 'red',
};

export function SocietyPage() {
  const { t } = useTranslation('society');
  const spaceId = useSpaceId();
  const s = useSocieties(spaceId);
  const [name, setName] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const list = s.list.data ?? [];
  const current = list.find((m) => m.meta_id === open) ?? list[0];
  return (
    <div className="tessera-page" data-testid="society-page">
      <PageHeader title={t('title')} intro={t('intro')} />
      <div style={{ display: 'flex', gap: 8, marginBottom: 12, maxWidth: 520 }}>
        <Input
          value={name}
          onChange={setName}
          placeholder={t('namePlaceholder')}
          maxLength={100}
          data-testid="society-name"
        />
        <Button
          type="primary"
          disabled={!name.trim()}
          loading={s.create.isPending}
          onClick={() => s.create.mutate(name, { onSuccess: (r) => (setName(''), setOpen(r.meta.meta_id)) })}
          data-testid="society-create"
        >
          {t('create')}
        </Button>
      </div>
      {!s.list.isLoading && !list.length && <EmptyState description={t('empty')} testId="society-empty" />}
      {list.length > 1 && (
        <Select value={current?.meta_id} onChange={setOpen} style={{ width: 280, marginBottom: 12 }}>
          {list.map((m) => (
            <Select.Option key={m.meta_id} value={m.meta_id}>
              {m.name}
            </Select.Option>
          ))}
        </Select>
      )}
      {current && <Society key={current.meta_id} meta={current} spaceId={spaceId} />}
    </div>
  );
}

function Society({ meta, spaceId }: { meta: MetaView; spaceId: string }) {
  const { t } = useTranslation('society');
  const s = useSociety(meta.meta_id);
  const m = s.detail.data ?? meta;
  const [topic, setTopic] = useState('');
  const [following, setFollowing] = useState<string | null>(null);
  return (
    <div style={{ display: 'flex', gap: 24, flexWrap: 'wrap' }} data-testid="society">
      <div style={{ flex: '1 1 380px', minWidth: 0 }}>
        <h3 style={{ margin: 0 }}>{m.name}</h3>
        <div style={label}>{t('host')}</div>
        <Radio.Group
          type="button"
          size="small"
          value={m.host.mode}
          onChange={(mode) => s.host.mutate({ ...m.host, mode })}
          data-testid="society-host"
        >
          <Radio value="round_robin">{t('hostMode.round_robin')}</Radio>
          <Radio value="model">{t('hostMode.model')}</Radio>
          <Radio value="rules">{t('hostMode.rules')}</Radio>
        </Radio.Group>
        {m.host.mode === 'model' && (
          <div style={{ marginTop: 8 }}>
            <ModelSelect
              spaceId={spaceId}
              value={m.host.model_id || undefined}
              onChange={(model_id) => s.host.mutate({ ...m.host, model_id })}
            />
          </div>
        )}
        <div style={label}>{t('stop')}</div>
        <Space wrap>
          <span>{t('maxRounds')}</span>
          <InputNumber
            min={1}
            max={200}
            value={m.stop.max_rounds}
            onChange={(max_rounds) => s.update.mutate({ stop: { ...m.stop, max_rounds: Number(max_rounds) || 1 } })}
            style={{ width: 100 }}
            data-testid="society-max-rounds"
          />
          <Input
            defaultValue={m.stop.keyword}
            placeholder={t('keyword')}
            onBlur={(e) => s.update.mutate({ stop: { ...m.stop, keyword: e.target.value } })}
            style={{ width: 200 }}
          />
        </Space>
        <div style={label}>{t('roles')}</div>
        {m.roles.map((r) => (
          <ListRow key={r.role_id} testId="society-role">
            <strong>{r.name}</strong>
            <Tag size="small">{t(`kind.${r.kind}`)}</Tag>
            <span style={{ flex: 1, fontSize: 12, color: 'var(--color-text-3)' }}>{r.persona.slice(0, 80)}</span>
            <Popconfirm title={t('removeRole')} onOk={() => s.removeRole.mutate(r.role_id)}>
              <Button size="mini" status="danger">
                {t('remove')}
              </Button>
            </Popconfirm>
          </ListRow>
        ))}
        <RoleForm
          spaceId={spaceId}
          adding={s.addRole.isPending}
          onAdd={(role, done) => s.addRole.mutate(role, { onSuccess: done })}
        />
        <div style={label}>{t('newProcess')}</div>
        <Space>
          <Input
            value={topic}
            onChange={setTopic}
            placeholder={t('topic')}
            style={{ width: 300 }}
            data-testid="society-topic"
          />
          <Button
            type="primary"
            disabled={!topic.trim()}
            loading={s.start.isPending}
            onClick={() => s.start.mutate(topic, { onSuccess: (p) => (setTopic(''), setFollowing(p.process_id)) })}
            data-testid="society-start"
          >
            {t('start')}
          </Button>
        </Space>
        {s.start.error && <Alert type="error" style={{ marginTop: 8 }} content={messageOf(s.start.error)} />}
        <div style={label}>{t('processes')}</div>
        {(s.processes.data ?? []).map((p) => (
          <ListRow key={p.process_id} testId="society-process">
            <a style={{ cursor: 'pointer', flex: 1 }} onClick={() => setFollowing(p.process_id)}>
              {p.topic}
            </a>
            <Tag size="small" color={STATUS[p.status]}>
              {t(`status.${p.status}`)}
            </Tag>
            <span style={{ fontSize: 12, color: 'var(--color-text-3)' }}>
              {p.round} / {p.max_rounds}
            </span>
          </ListRow>
        ))}
        <Space style={{ marginTop: 16 }}>
          <Button size="small" onClick={() => s.duplicate.mutate(undefined)}>
            {t('duplicate')}
          </Button>
          <Popconfirm title={t('deleteConfirm')} onOk={() => s.remove.mutate(undefined)}>
            <Button size="small" status="danger">
              {t('delete')}
            </Button>
          </Popconfirm>
        </Space>
      </div>
      <div style={{ flex: '1 1 420px', minWidth: 0 }}>{following && <Live processId={following} />}</div>
    </div>
  );
}

function Live({ processId }: { processId: string }) {
  const { t } = useTranslation('society');
  const live = useLiveProcess(processId);
  const [text, setText] = useState('');
  const p = live.process;
  const waiting = p?.status === 'waiting_human';
  return (
    <div data-testid="society-live" data-status={p?.status ?? ''}>
      <Space style={{ marginBottom: 8 }}>
        {p && (
          <Tag color={STATUS[p.status]} data-testid="society-status">
            {t(`status.${p.status}`)}
          </Tag>
        )}
        {p && (
          <span style={{ fontSize: 12, color: 'var(--color-text-3)' }}>
            {t('round', { round: p.round, max: p.max_rounds })}
          </span>
        )}
        {(p?.status === 'running' || waiting) && (
          <Button size="mini" onClick={() => live.operate.mutate('pause')} data-testid="society-pause">
            {t('pause')}
          </Button>
        )}
        {p?.status === 'paused' && (
          <Button size="mini" onClick={() => live.operate.mutate('resume')} data-testid="society-resume">
            {t('resume')}
          </Button>
        )}
        {p && !['stopped', 'finished', 'failed'].includes(p.status) && (
          <Button size="mini" status="danger" onClick={() => live.operate.mutate('stop')} data-testid="society-stop">
            {t('stopButton')}
          </Button>
        )}
      </Space>
      {live.error && <Alert type="error" content={live.error} />}
      {p?.end_reason && (
        <Alert type="info" content={p.end_reason} style={{ marginBottom: 8 }} data-testid="society-end" />
      )}
      {live.messages.map((m) =>
        m.kind === 'host' ? (
          <div key={m.message_id} style={{ fontSize: 12, color: 'var(--color-text-3)', margin: '6px 0' }}>
            {m.content}
          </div>
        ) : (
          <div
            key={m.message_id}
            data-testid="society-message"
            style={{ padding: '8px 10px', margin: '4px 0', background: 'var(--color-fill-2)', borderRadius: 8 }}
          >
            <strong>{m.role_name}</strong>
            <div style={{ whiteSpace: 'pre-wrap' }}>{m.content}</div>
          </div>
        ),
      )}
      {waiting && (
        <Space style={{ marginTop: 8, width: '100%' }} data-testid="society-reply">
          <Input
            value={text}
            onChange={setText}
            placeholder={t('replyPlaceholder')}
            style={{ width: 320 }}
            data-testid="society-reply-text"
          />
          <Button
            type="primary"
            disabled={!text.trim()}
            onClick={() => live.reply.mutate(text, { onSuccess: () => setText('') })}
            data-testid="society-reply-send"
          >
            {t('reply')}
          </Button>
        </Space>
      )}
    </div>
  );
}
