// Shell pages seldom seen, loaded when first shown: the page for an unknown path and the settings frame.
import { Button, Result, Tabs } from '@arco-design/web-react';
import { byOrder, SettingsPages, usePageTitle, useRegistryEntries, useStudio } from '@tessera/sdk/client';
import type { RegistryEntry } from '@tessera/core';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { PageErrorBoundary } from './ErrorBoundary.tsx';
import { PageLoading } from './PageLoading.tsx';

export function NotFound() {
  const { t } = useTranslation('host');
  const location = useLocation();
  usePageTitle(t('notFound.title'));
  return (
    <Result
      status="404"
      title={t('notFound.title')}
      subTitle={t('notFound.text', { path: location.pathname })}
      extra={
        <Link to="/">
          <Button type="primary">{t('notFound.home')}</Button>
        </Link>
      }
    />
  );
}

export function SettingsFrame() {
  const { t } = useTranslation('host');
  const pages = useRegistryEntries(SettingsPages).slice().sort(byOrder);
  const { key } = useParams();
  const navigate = useNavigate();
  const { report } = useStudio();
  usePageTitle(t('settings.title'));
  if (!pages.length) return <Result status="404" title={t('settings.empty')} />;
  const active = pages.find((p) => p.key === key) ?? pages[0];
  return (
    <div className="tessera-page" data-testid="settings-page">
      <h2>{t('settings.title')}</h2>
      <Tabs activeTab={active.key} onChange={(k) => navigate(`/settings/${k}`)}>
        {pages.map((p) => (
          <Tabs.TabPane key={p.key} title={<SettingsLabel entry={p} />}>
            <PageErrorBoundary owner={p.owner} report={report}>
              {p.key === active.key && (
                <Suspense fallback={<PageLoading />}>
                  <p.value.component />
                </Suspense>
              )}
            </PageErrorBoundary>
          </Tabs.TabPane>
        ))}
      </Tabs>
    </div>
  );
}

function SettingsLabel({ entry }: { entry: RegistryEntry<{ label: string }> }) {
  const { t } = useTranslation(entry.owner);
  return <>{t(entry.value.label)}</>;
}
