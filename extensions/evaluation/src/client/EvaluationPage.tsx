// Evaluation: sets, evaluators and experiments of the space.
import { Tabs, Typography } from '@arco-design/web-react';
import { PageHeading, usePageTitle } from '@tessera/sdk/client';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { EvaluatorsTab } from './EvaluatorsTab.tsx';
import { ExperimentsTab } from './ExperimentsTab.tsx';
import { SetsTab } from './SetsTab.tsx';
import { useSpaceId } from './space.ts';

export function EvaluationPage() {
  const { t } = useTranslation('evaluation');
  usePageTitle(t('title'));
  const spaceId = useSpaceId();
  const [params, setParams] = useSearchParams();
  if (!spaceId) return <Typography.Paragraph>{t('noSpace')}</Typography.Paragraph>;
  return (
    <div data-testid="eval-page">
      <PageHeading title={t('title')} intro={t('intro')} />
      <Tabs
        activeTab={params.get('tab') ?? 'sets'}
        onChange={(k) => setParams((p) => (p.set('tab', k), p), { replace: true })}
      >
        <Tabs.TabPane key="sets" title={<span data-testid="eval-tab-sets">{t('tabs.sets')}</span>}>
          <SetsTab spaceId={spaceId} />
        </Tabs.TabPane>
        <Tabs.TabPane key="evaluators" title={<span data-testid="eval-tab-evaluators">{t('tabs.evaluators')}</span>}>
          <EvaluatorsTab spaceId={spaceId} />
        </Tabs.TabPane>
        <Tabs.TabPane key="experiments" title={<span data-testid="eval-tab-experiments">{t('tabs.experiments')}</span>}>
          <ExperimentsTab spaceId={spaceId} />
        </Tabs.TabPane>
      </Tabs>
    </div>
  );
}
