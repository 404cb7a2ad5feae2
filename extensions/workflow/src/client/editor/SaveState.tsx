// How the draft's saving stands (the badge in the toolbar) and, after a conflicting save, what this
// tab's version changes against the one saved meanwhile.
import { Tag, Typography } from '@arco-design/web-react';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import { useTranslation } from 'react-i18next';
import type { Canvas } from '@tessera/workflow-sdk';
import { DiffList } from './Versions.tsx';

export type SaveState = 'saved' | 'dirty' | 'saving' | 'conflict' | 'error';

/** In the conflict dialog: what this tab's version changes against the one saved meanwhile. */
export function ConflictDiff({ spaceId, workflowId, mine }: { spaceId: string; workflowId: string; mine: Canvas }) {
  const { t } = useTranslation('workflow');
  const api = useApi();
  const theirs = useQuery({
    queryKey: ['workflow', 'conflict', workflowId],
    gcTime: 0,
    queryFn: async () =>
      JSON.parse(
        (
          await api.post<{ workflow: { schema_json: string } }>('/api/workflow_api/canvas', {
            space_id: spaceId,
            workflow_id: workflowId,
          })
        ).workflow.schema_json,
      ) as Canvas,
  });
  if (!theirs.data) return null;
  return (
    <div
      style={{
        maxHeight: 240,
        overflow: 'auto',
        marginBottom: 12,
        padding: 8,
        background: 'var(--color-fill-1)',
        borderRadius: 4,
      }}
    >
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('editor.conflictDiff')}
      </Typography.Text>
      <DiffList before={theirs.data} after={mine} />
    </div>
  );
}

export function SaveBadge({ state }: { state: SaveState }) {
  const { t } = useTranslation('workflow');
  const color = { saved: 'green', dirty: 'gray', saving: 'arcoblue', conflict: 'orangered', error: 'red' }[state];
  return (
    <Tag color={color} data-testid="save-state" data-state={state}>
      {t(`editor.save.${state}`)}
    </Tag>
  );
}
