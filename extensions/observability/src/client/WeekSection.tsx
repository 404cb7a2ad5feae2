// The home page's "this week": what the space ran in the last seven days (workflow runs, bot chats) and how
// many failed, with the way to the traces. Nothing is drawn for a space that ran nothing yet.
import { Card, Grid, Statistic, Typography } from '@arco-design/web-react';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSpaceId } from './space.ts';

const WEEK = 7 * 24 * 3_600_000;
interface Total {
  runs: number;
  errors: number;
}

export function WeekSection() {
  const { t } = useTranslation('observability');
  const api = useApi();
  const spaceId = useSpaceId();
  const q = useQuery({
    queryKey: ['observability', 'week', spaceId],
    enabled: !!spaceId,
    queryFn: async () => {
      const end = Date.now();
      const total = (source: string) =>
        api
          .post<{ total: Total }>(
            '/api/observability/v1/metrics/query',
            { space_id: spaceId, start_time: end - WEEK, end_time: end, granularity: 'day', source },
            { suppressNotice: true },
          )
          .then((r) => r.total);
      const [workflow, bot] = await Promise.all([total('workflow'), total('bot')]);
      return { runs: workflow.runs, chats: bot.runs, errors: workflow.errors + bot.errors };
    },
  });
  if (!q.data || q.data.runs + q.data.chats === 0) return null;
  return (
    <section aria-labelledby="home-week" data-testid="home-week">
      <Typography.Title heading={6} id="home-week">
        {t('week.title')}
      </Typography.Title>
      <Card>
        <Grid.Row gutter={16} align="center">
          <Grid.Col span={6}>
            <Statistic title={t('week.runs')} value={q.data.runs} data-testid="home-week-runs" />
          </Grid.Col>
          <Grid.Col span={6}>
            <Statistic title={t('week.chats')} value={q.data.chats} data-testid="home-week-chats" />
          </Grid.Col>
          <Grid.Col span={6}>
            <Statistic
              title={t('week.errors')}
              value={q.data.errors}
              styleValue={q.data.errors ? { color: 'rgb(var(--danger-6))' } : undefined}
              data-testid="home-week-errors"
            />
          </Grid.Col>
          <Grid.Col span={6} style={{ textAlign: 'right' }}>
            <Link to="/traces">{t('week.traces')}</Link>
          </Grid.Col>
        </Grid.Row>
      </Card>
    </section>
  );
}
