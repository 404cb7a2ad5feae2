// The model arena: ask a question (or draw one from the bank), two of the space's models answer side by side without
// their names, vote, then see who was who; the leaderboard with its intervals; the space's question bank.
import { Alert, Button, Checkbox, Input, Popconfirm, Select, Space, Table, Tabs, Tag } from '@arco-design/web-react';
import { EmptyState, ListRow, PageHeader, useStudio } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useBank,
  useBattle,
  useConf,
  useLeaderboard,
  useSpaceId,
  type LeaderboardRow,
  type SideState,
} from './store.ts';

export function ArenaPage() {
  const { t } = useTranslation('arena');
  const spaceId = useSpaceId();
  return (
    <div className="tessera-page" data-testid="arena-page">
      <PageHeader title={t('title')} intro={t('intro')} />
      <Tabs defaultActiveTab="battle" destroyOnHide>
        <Tabs.TabPane key="battle" title={<span data-testid="arena-tab-battle">{t('tabs.battle')}</span>}>
          <Battle spaceId={spaceId} />
        </Tabs.TabPane>
        <Tabs.TabPane
          key="leaderboard"
          title={<span data-testid="arena-tab-leaderboard">{t('tabs.leaderboard')}</span>}
        >
          <Leaderboard spaceId={spaceId} />
        </Tabs.TabPane>
        <Tabs.TabPane key="bank" title={<span data-testid="arena-tab-bank">{t('tabs.bank')}</span>}>
          <Bank spaceId={spaceId} />
        </Tabs.TabPane>
      </Tabs>
    </div>
  );
}

function useLabels() {
  const { language } = useStudio();
  const conf = useConf();
  const label = (l: Record<string, string>) => l[language] ?? l['en-US'] ?? '';
  return { conf, label };
}

function Battle({ spaceId }: { spaceId: string }) {
  const { t } = useTranslation('arena');
  const { conf, label } = useLabels();
  const bank = useBank(spaceId);
  const b = useBattle(spaceId);
  const [question, setQuestion] = useState('');
  const [category, setCategory] = useState('general');
  const [tags, setTags] = useState<string[]>([]);
  const [text, setText] = useState('');
  const busy = b.status === 'answering';
  const canVote = b.status === 'answered';
  const vote = (v: 'a' | 'b' | 'tie' | 'both_bad') => b.vote.mutate({ vote: v, tags, text });
  return (
    <div>
      <div style={{ display: 'flex', gap: 8, marginBottom: 8, flexWrap: 'wrap' }}>
        <Select value={category} onChange={setCategory} style={{ width: 160 }} data-testid="arena-category">
          {(conf.data?.categories ?? []).map((c) => (
            <Select.Option key={c.key} value={c.key}>
              {label(c.label)}
            </Select.Option>
          ))}
        </Select>
        <Button
          onClick={async () => setQuestion((await bank.random(category)).question.text)}
          disabled={busy}
          data-testid="arena-random"
        >
          {t('random')}
        </Button>
      </div>
      <Input.TextArea
        value={question}
        onChange={setQuestion}
        placeholder={t('questionPlaceholder')}
        autoSize={{ minRows: 2, maxRows: 8 }}
        maxLength={8000}
        data-testid="arena-question"
      />
      <Space style={{ margin: '10px 0 14px' }}>
        <Button
          type="primary"
          disabled={!question.trim() || busy}
          loading={busy}
          onClick={() => {
            setTags([]);
            setText('');
            void b.start(question.trim(), category);
          }}
          data-testid="arena-start"
        >
          {b.pk ? t('again') : t('start')}
        </Button>
        {busy && (
          <Button onClick={b.stop} data-testid="arena-stop">
            {t('stop')}
          </Button>
        )}
      </Space>
      {b.error && <Alert type="error" content={b.error} style={{ marginBottom: 12 }} data-testid="arena-error" />}
      {b.pk && (
        <div className="tessera-arena-sides" style={{ display: 'flex', gap: 12, flexWrap: 'wrap' }}>
          <Answer side="a" state={b.sides.a} name={b.result?.model_a?.name} winner={b.result?.vote === 'a'} />
          <Answer side="b" state={b.sides.b} name={b.result?.model_b?.name} winner={b.result?.vote === 'b'} />
        </div>
      )}
      {canVote && (
        <div style={{ marginTop: 14 }} data-testid="arena-vote">
          <Space wrap style={{ marginBottom: 10 }}>
            <Button type="primary" onClick={() => vote('a')} loading={b.vote.isPending} data-testid="arena-vote-a">
              {t('vote.a')}
            </Button>
            <Button type="primary" onClick={() => vote('b')} loading={b.vote.isPending} data-testid="arena-vote-b">
              {t('vote.b')}
            </Button>
            <Button onClick={() => vote('tie')} loading={b.vote.isPending} data-testid="arena-vote-tie">
              {t('vote.tie')}
            </Button>
            <Button onClick={() => vote('both_bad')} loading={b.vote.isPending} data-testid="arena-vote-both-bad">
              {t('vote.both_bad')}
            </Button>
          </Space>
          <div data-testid="arena-tags">
            <Checkbox.Group
              value={tags}
              onChange={setTags}
              options={(conf.data?.tags ?? []).map((x) => ({ label: label(x.label), value: x.key }))}
            />
          </div>
          <Input
            value={text}
            onChange={setText}
            placeholder={t('feedbackPlaceholder')}
            maxLength={2000}
            style={{ marginTop: 8, maxWidth: 640 }}
          />
        </div>
      )}
      {b.status === 'voted' && b.result && (
        <Alert
          type="success"
          style={{ marginTop: 14 }}
          data-testid="arena-reveal"
          content={t('revealed', { a: b.result.model_a?.name ?? '', b: b.result.model_b?.name ?? '' })}
        />
      )}
    </div>
  );
}

function Answer({ side, state, name, winner }: { side: 'a' | 'b'; state: SideState; name?: string; winner: boolean }) {
  const { t } = useTranslation('arena');
  return (
    <div
      data-testid={`arena-answer-${side}`}
      data-state={state.state}
      style={{
        flex: '1 1 320px',
        minWidth: 0,
        border: `1px solid ${winner ? 'rgb(var(--green-6))' : 'var(--color-border-2)'}`,
        borderRadius: 8,
        padding: 12,
      }}
    >
      <div style={{ display: 'flex', gap: 8, alignItems: 'center', marginBottom: 8 }}>
        <strong>{t(`side.${side}`)}</strong>
        {name && (
          <Tag color="arcoblue" data-testid={`arena-name-${side}`}>
            {name}
          </Tag>
        )}
        <span style={{ flex: 1 }} />
        <Tag size="small" color={state.state === 'failed' ? 'red' : state.state === 'done' ? 'green' : undefined}>
          {t(`state.${state.state}`)}
          {state.latency ? ` · ${(state.latency / 1000).toFixed(1)} s` : ''}
        </Tag>
      </div>
      {state.error && <Alert type="error" content={state.error} style={{ marginBottom: 8 }} />}
      <div style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} data-testid={`arena-text-${side}`}>
        {state.text}
      </div>
    </div>
  );
}

function Leaderboard({ spaceId }: { spaceId: string }) {
  const { t } = useTranslation('arena');
  const { conf, label } = useLabels();
  const [category, setCategory] = useState('');
  const board = useLeaderboard(spaceId, category);
  const rows = board.data?.rows ?? [];
  const lo = Math.min(...rows.map((r) => r.ci_low), 900);
  const hi = Math.max(...rows.map((r) => r.ci_high), 1100);
  const x = (v: number) => `${((v - lo) / (hi - lo || 1)) * 100}%`;
  return (
    <div>
      <Space style={{ marginBottom: 12 }}>
        <Select value={category} onChange={setCategory} style={{ width: 180 }} data-testid="arena-board-category">
          <Select.Option value="">{t('allCategories')}</Select.Option>
          {(conf.data?.categories ?? []).map((c) => (
            <Select.Option key={c.key} value={c.key}>
              {label(c.label)}
            </Select.Option>
          ))}
        </Select>
        <span style={{ color: 'var(--color-text-3)' }} data-testid="arena-votes">
          {t('votes', { count: board.data?.votes ?? 0 })}
        </span>
      </Space>
      {!board.isLoading && !board.data?.votes && <EmptyState description={t('noVotes')} testId="arena-board-empty" />}
      {!!board.data?.votes && (
        <Table<LeaderboardRow>
          rowKey="model_id"
          data={rows}
          pagination={false}
          data-testid="arena-board"
          columns={[
            { title: t('col.rank'), dataIndex: 'rank', width: 70 },
            {
              title: t('col.model'),
              dataIndex: 'name',
              render: (v: string, r) => (
                <span data-testid="arena-board-row">
                  {v} {r.provisional && <Tag size="small">{t('provisional')}</Tag>}
                </span>
              ),
            },
            { title: t('col.rating'), dataIndex: 'rating', width: 90, render: (v: number) => v.toFixed(0) },
            {
              title: t('col.interval'),
              width: 220,
              render: (_: unknown, r) => (
                <div title={`${r.ci_low.toFixed(0)} – ${r.ci_high.toFixed(0)}`}>
                  <div style={{ position: 'relative', height: 8, background: 'var(--color-fill-2)', borderRadius: 4 }}>
                    <div
                      style={{
                        position: 'absolute',
                        left: x(r.ci_low),
                        width: `calc(${x(r.ci_high)} - ${x(r.ci_low)})`,
                        minWidth: 2,
                        top: 0,
                        bottom: 0,
                        background: 'rgb(var(--arcoblue-6))',
                        borderRadius: 4,
                      }}
                    />
                  </div>
                  <span style={{ fontSize: 12, color: 'var(--color-text-3)' }}>
                    {r.ci_low.toFixed(0)} – {r.ci_high.toFixed(0)}
                  </span>
                </div>
              ),
            },
            { title: t('col.battles'), dataIndex: 'battles', width: 90 },
            {
              title: t('col.record'),
              width: 120,
              render: (_: unknown, r) => `${r.wins} / ${r.losses} / ${r.ties}`,
            },
          ]}
        />
      )}
    </div>
  );
}

function Bank({ spaceId }: { spaceId: string }) {
  const { t } = useTranslation('arena');
  const { conf, label } = useLabels();
  const bank = useBank(spaceId);
  const [text, setText] = useState('');
  const [category, setCategory] = useState('general');
  const name = (key: string) => label(conf.data?.categories.find((c) => c.key === key)?.label ?? {}) || key;
  return (
    <div>
      <div style={{ display: 'flex', gap: 8, marginBottom: 12, maxWidth: 720 }}>
        <Select value={category} onChange={setCategory} style={{ width: 150 }}>
          {(conf.data?.categories ?? []).map((c) => (
            <Select.Option key={c.key} value={c.key}>
              {label(c.label)}
            </Select.Option>
          ))}
        </Select>
        <Input
          value={text}
          onChange={setText}
          placeholder={t('bankPlaceholder')}
          maxLength={4000}
          data-testid="arena-bank-text"
        />
        <Button
          type="primary"
          disabled={!text.trim()}
          loading={bank.add.isPending}
          onClick={() => bank.add.mutate({ text, category }, { onSuccess: () => setText('') })}
          data-testid="arena-bank-add"
        >
          {t('add')}
        </Button>
      </div>
      {(bank.list.data ?? []).map((q) => (
        <ListRow key={q.id} testId="arena-bank-question">
          <Tag size="small">{name(q.category)}</Tag>
          <span style={{ flex: 1 }}>{q.text}</span>
          {q.builtin ? (
            <Tag size="small" color="gray">
              {t('builtin')}
            </Tag>
          ) : (
            <Popconfirm title={t('deleteConfirm')} onOk={() => bank.remove.mutate(q.id)}>
              <Button size="mini" status="danger">
                {t('delete')}
              </Button>
            </Popconfirm>
          )}
        </ListRow>
      ))}
    </div>
  );
}
