// A trigger's firings: when, what fired it, how its run ended (a link to the run), and "run again".
import { Button, Spin, Tag } from '@arco-design/web-react';
import { useFormat } from '@tessera/sdk/client';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFirings } from './store.ts';

const RESULT = ['waiting', 'success', 'failed'] as const;
const COLOR = { waiting: 'gray', success: 'green', failed: 'red' } as const;

export function Firings({
  spaceId,
  workflowId,
  triggerId,
}: {
  spaceId: string;
  workflowId: string;
  triggerId: string;
}) {
  const { t } = useTranslation('triggers');
  const format = useFormat();
  const { firings, rerun } = useFirings(spaceId, triggerId);
  if (firings.isLoading) return <Spin size={16} />;
  const list = firings.data?.events ?? [];
  if (!list.length)
    return (
      <div style={{ fontSize: 12, color: 'var(--color-text-3)' }} data-testid="trigger-firings-empty">
        {t('firings.none')}
      </div>
    );
  return (
    <div data-testid="trigger-firings" style={{ display: 'flex', flexDirection: 'column', gap: 6 }}>
      {list.map((e) => {
        const result = RESULT[e.run_result] ?? 'waiting';
        return (
          <div
            key={e.event_id}
            data-testid="trigger-firing"
            data-result={result}
            style={{ borderTop: '1px solid var(--color-border-1)', paddingTop: 6, fontSize: 12 }}
          >
            <div style={{ display: 'flex', gap: 6, alignItems: 'center', flexWrap: 'wrap' }}>
              <span style={{ whiteSpace: 'nowrap' }}>{format.dateTime(e.fire_time * 1000)}</span>
              <Tag size="small">{t(`source.${e.source}`)}</Tag>
              <Tag size="small" color={COLOR[result]} data-testid="trigger-firing-result">
                {result === 'waiting' && <Spin size={10} style={{ marginRight: 4 }} />}
                {t(`result.${result}`)}
              </Tag>
              {e.missed > 1 && <span>{t('firings.missed', { count: e.missed - 1 })}</span>}
              <span style={{ flex: 1 }} />
              {e.execute_id && (
                <Link
                  to={`/workflows/${workflowId}?space_id=${spaceId}&execute_id=${e.execute_id}`}
                  data-testid="trigger-firing-run"
                >
                  {t('firings.openRun')}
                </Link>
              )}
              {result !== 'waiting' && (
                <Button
                  size="mini"
                  loading={rerun.isPending && rerun.variables === e.event_id}
                  onClick={() => rerun.mutate(e.event_id)}
                  data-testid="trigger-firing-rerun"
                >
                  {t('firings.rerun')}
                </Button>
              )}
            </div>
            {e.error && <div style={{ color: 'rgb(var(--danger-6))', marginTop: 2 }}>{e.error}</div>}
            {Object.keys(e.input).length > 0 && (
              <div style={{ color: 'var(--color-text-3)', marginTop: 2, wordBreak: 'break-all' }}>
                {t('firings.input')} {JSON.stringify(e.input)}
              </div>
            )}
          </div>
        );
      })}
    </div>
  );
}
