// A workflow's usage in its editor's side panel: the last 30 days of its runs (not the editor's test runs).
import type { EditorPanelProps } from '@tessera/workflow-sdk/client';
import { useTranslation } from 'react-i18next';
import { UsageCharts } from './Charts.tsx';

export function WorkflowUsage({ spaceId, workflowId }: EditorPanelProps) {
  const { t } = useTranslation('analytics');
  return (
    <div style={{ padding: 16 }} data-testid="workflow-usage">
      <h4 style={{ margin: '0 0 4px' }}>{t('panelTitle')}</h4>
      <div style={{ fontSize: 12, color: 'var(--color-text-3)', marginBottom: 12 }}>{t('panelIntro')}</div>
      <UsageCharts filter={{ spaceId, days: 30, kind: 'workflow', resourceId: workflowId }} />
    </div>
  );
}
