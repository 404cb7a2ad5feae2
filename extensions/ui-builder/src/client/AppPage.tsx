// A published app at /apps/:uiId: its pages drawn from the published DSL for whoever its access lets in; its events
// run their workflows; a refusal says what to do (sign in, ask for membership).
import { Alert, Spin, Tabs } from '@arco-design/web-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Renderer } from './Renderer.tsx';
import { usePublishedApp } from './store.ts';
import './ui.css';

export function AppPage() {
  const { t } = useTranslation('ui-builder');
  const { uiId = '' } = useParams();
  const { app, run } = usePublishedApp(uiId);
  const [page, setPage] = useState('');
  if (app.isError)
    return (
      <div style={{ maxWidth: 720, margin: '40px auto' }} data-testid="ui-app-refused">
        <Alert type="warning" content={(app.error as { msg?: string }).msg ?? t('app.unavailable')} />
      </div>
    );
  if (!app.data) return <Spin style={{ margin: 40 }} />;
  const dsl = app.data.dsl;
  const current = page || dsl.pages[0].page_id;
  return (
    <div style={{ maxWidth: 960, margin: '0 auto', padding: 24 }} data-testid="ui-app">
      {dsl.pages.length > 1 && (
        <Tabs activeTab={current} onChange={setPage}>
          {dsl.pages.map((p) => (
            <Tabs.TabPane key={p.page_id} title={p.name} />
          ))}
        </Tabs>
      )}
      <Renderer key={current} dsl={dsl} pageId={current} run={run} />
    </div>
  );
}
