// The arena: ask a question (or draw one from the bank), two of the space's models (or its published bots; or the
// platform's models in the public arena) answer side by side without their names, follow-up questions, a vote, then
// who was who; the leaderboard with its intervals; the space's question bank.
import { Alert, Button, Checkbox, Input, Radio, Select, Space, Tabs, Tag } from '@arco-design/web-react';
import { PageHeader } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_TURNS } from '../shared/api.ts';
import { Bank } from './Bank.tsx';
import { useLabels } from './labels.ts';
import { Leaderboard } from './Leaderboard.tsx';
import { useBank, useBattle, useSpaceId, type ArenaChoice, type TurnState } from './store.ts';

const ARENAS: Record<string, ArenaChoice> = {
  'space-model': { pool: 'space', kind: 'model' },
  'space-bot': { pool: 'space', kind: 'bot' },
  'public-model': { pool: 'public', kind: 'model' },
};

export function ArenaPage() {
  const { t } = useTranslation('arena');
  const spaceId = useSpaceId();
  const [which, setWhich] = useState('space-model');
  const arena = ARENAS[which];
  return (
    <div className="tessera-page" data-testid="arena-page">
      <PageHeader title={t('title')} intro={t('intro')} />
      <Radio.Group
        type="button"
        value={which}
        onChange={setWhich}
        style={{ marginBottom: 12 }}
        data-testid="arena-pool"
      >
        {Object.keys(ARENAS).map((k) => (
          <Radio key={k} value={k}>
            {t(`arena.${k}`)}
          </Radio>
        ))}
      </Radio.Group>
      <Tabs defaultActiveTab="battle" destroyOnHide>
        <Tabs.TabPane key="battle" title={<span data-testid="arena-tab-battle">{t('tabs.battle')}</span>}>
          <Battle key={which} spaceId={spaceId} arena={arena} />
        </Tabs.TabPane>
        <Tabs.TabPane
          key="leaderboard"
          title={<span data-testid="arena-tab-leaderboard">{t('tabs.leaderboard')}</span>}
        >
          <Leaderboard spaceId={spaceId} arena={arena} />
        </Tabs.TabPane>
        <Tabs.TabPane key="bank" title={<span data-testid="arena-tab-bank">{t('tabs.bank')}</span>}>
          <Bank spaceId={spaceId} />
        </Tabs.TabPane>
      </Tabs>
    </div>
  );
}

function Battle({ spaceId, arena }: { spaceId: string; arena: ArenaChoice }) {
  const { t } = useTranslation('arena');
  const { conf, label } = useLabels();
  const bank = useBank(spaceId);
  const b = useBattle(spaceId);
  const [question, setQuestion] = useState('');
  const [category, setCategory] = useState('general');
  const [tags, setTags] = useState<string[]>([]);
  const [text, setText] = useState('');
  const [next, setNext] = useState('');
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
            void b.start(question.trim(), category, arena);
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
          <Answer side="a" turns={b.turns} name={b.result?.model_a?.name} winner={b.result?.vote === 'a'} />
          <Answer side="b" turns={b.turns} name={b.result?.model_b?.name} winner={b.result?.vote === 'b'} />
        </div>
      )}
      {canVote && b.turns.length < MAX_TURNS && (
        <Space style={{ marginTop: 12, width: '100%' }} data-testid="arena-follow">
          <Input
            value={next}
            onChange={setNext}
            placeholder={t('followPlaceholder')}
            maxLength={8000}
            style={{ width: 480, maxWidth: '100%' }}
            onPressEnter={() => next.trim() && (void b.follow(next.trim()), setNext(''))}
            data-testid="arena-follow-text"
          />
          <Button
            disabled={!next.trim()}
            onClick={() => {
              void b.follow(next.trim());
              setNext('');
            }}
            data-testid="arena-follow-send"
          >
            {t('follow')}
          </Button>
        </Space>
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

function Answer({
  side,
  turns,
  name,
  winner,
}: {
  side: 'a' | 'b';
  turns: TurnState[];
  name?: string;
  winner: boolean;
}) {
  const { t } = useTranslation('arena');
  const state = turns.at(-1)?.[side] ?? { text: '', state: 'waiting' as const };
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
      {turns.map((turn, i) => (
        <div key={i} data-testid={`arena-turn-${side}`}>
          {turns.length > 1 && (
            <div style={{ fontSize: 12, color: 'var(--color-text-3)', margin: i ? '12px 0 4px' : '0 0 4px' }}>
              {turn.question}
            </div>
          )}
          {turn[side].error && <Alert type="error" content={turn[side].error} style={{ marginBottom: 8 }} />}
          <div
            style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
            data-testid={i === turns.length - 1 ? `arena-text-${side}` : undefined}
          >
            {turn[side].text}
          </div>
        </div>
      ))}
    </div>
  );
}
