// Annotation of the space's traces by people: jobs over the root spans of recent traces, labelled on the focused page,
// their agreed labels written back as the spans' annotations.
import { PageHeader } from '@tessera/sdk/client';
import { useTranslation } from 'react-i18next';
import { AnnotationPanel } from './AnnotationPanel.tsx';
import { useSpaceId } from './store.ts';

export function TraceAnnotationPage() {
  const { t } = useTranslation('datasets');
  const spaceId = useSpaceId();
  return (
    <div className="tessera-page" data-testid="trace-annotation">
      <PageHeader
        back={{ to: '/datasets', label: t('title') }}
        title={t('ann.traces.title')}
        intro={t('ann.traces.intro')}
      />
      {spaceId && <AnnotationPanel spaceID={spaceId} />}
    </div>
  );
}
