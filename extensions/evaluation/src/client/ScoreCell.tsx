// A result's scores: each with its reason on hover, a corrected one marked with what the evaluator said; a click opens
// a small form to correct it, and "+" gives a manual metric (a person's score under a name).
import { Button, Input, InputNumber, Popover, Space, Tag, Tooltip } from '@arco-design/web-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCorrectScore } from './analysis-store.ts';
import { fmt, type Result } from './api.ts';

export function ScoreCell({
  spaceId,
  experimentId,
  r,
  names,
}: {
  spaceId: string;
  experimentId: string;
  r: Result;
  names: Map<string, string>;
}) {
  const { t } = useTranslation('evaluation');
  return (
    <Space wrap size={4}>
      {r.scores.map((s) => (
        <ScoreForm
          key={s.evaluator_id}
          spaceId={spaceId}
          experimentId={experimentId}
          itemId={r.item_id}
          evaluatorId={s.evaluator_id}
        >
          {(editing) => (
            <Tooltip
              // The reason hides while the correction form is open (it would cover the form's buttons), and is the
              // tooltip's own to show on hover otherwise.
              {...(editing ? { popupVisible: false } : {})}
              content={
                s.corrected
                  ? t('analysis.correctedFrom', { original: fmt(s.corrected.original), reason: s.reason })
                  : (s.error ?? s.reason)
              }
            >
              <Tag
                color={s.score === null ? 'red' : s.corrected ? 'orange' : undefined}
                style={{ cursor: 'pointer' }}
                data-testid="eval-score"
              >
                {names.get(s.evaluator_id) ?? s.name ?? s.evaluator_id}: {fmt(s.score)}
              </Tag>
            </Tooltip>
          )}
        </ScoreForm>
      ))}
      {r.status === 'done' && (
        <ScoreForm spaceId={spaceId} experimentId={experimentId} itemId={r.item_id}>
          <Button size="mini" aria-label={t('analysis.manual')} data-testid="eval-manual-score">
            +
          </Button>
        </ScoreForm>
      )}
    </Space>
  );
}

function ScoreForm({
  spaceId,
  experimentId,
  itemId,
  evaluatorId,
  children,
}: {
  spaceId: string;
  experimentId: string;
  itemId: string;
  evaluatorId?: string;
  /** What opens the form; a function is told whether the form is open. */
  children: React.ReactNode | ((open: boolean) => React.ReactNode);
}) {
  const { t } = useTranslation('evaluation');
  const correct = useCorrectScore(spaceId, experimentId);
  const [open, setOpen] = useState(false);
  const [score, setScore] = useState<number | undefined>();
  const [reason, setReason] = useState('');
  const [key, setKey] = useState('human');
  return (
    <Popover
      trigger="click"
      popupVisible={open}
      onVisibleChange={setOpen}
      content={
        <Space direction="vertical" data-testid="eval-score-form">
          {!evaluatorId && (
            <Input value={key} onChange={setKey} placeholder={t('analysis.metric')} style={{ width: 200 }} />
          )}
          <InputNumber
            value={score}
            onChange={setScore}
            placeholder={t('analysis.score')}
            style={{ width: 200 }}
            data-testid="eval-score-input"
          />
          <Input value={reason} onChange={setReason} placeholder={t('analysis.reason')} style={{ width: 200 }} />
          <Button
            type="primary"
            size="small"
            disabled={score === undefined}
            loading={correct.isPending}
            onClick={() =>
              correct.mutate(
                {
                  item_id: itemId,
                  score: score!,
                  reason,
                  ...(evaluatorId ? { evaluator_id: evaluatorId } : { manual_key: key }),
                },
                { onSuccess: () => setOpen(false) },
              )
            }
            data-testid="eval-score-save"
          >
            {evaluatorId ? t('analysis.correct') : t('analysis.addManual')}
          </Button>
        </Space>
      }
    >
      {typeof children === 'function' ? children(open) : children}
    </Popover>
  );
}
