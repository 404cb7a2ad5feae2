// The workflow editor's Collaborators panel: who may change this workflow. Without collaborators every member of the
// space may; with some, only they, its creator and the space's administrators.
import { Alert, Button, Select, Tag } from '@arco-design/web-react';
import type { EditorPanelProps } from '@tessera/ext-workflow/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCollaborators } from './store.ts';

export function CollaboratorsPanel({ spaceId, workflowId }: EditorPanelProps) {
  const { t } = useTranslation('collaborators');
  const c = useCollaborators(spaceId, 'workflow', workflowId);
  const [pick, setPick] = useState('');
  const data = c.list.data;
  const members = (c.members.data ?? []).filter(
    (m) => m.user_id !== data?.owner_id && !data?.collaborators.some((x) => x.user_id === m.user_id),
  );
  const ownerName = c.members.data?.find((m) => m.user_id === data?.owner_id)?.name ?? data?.owner_id;
  return (
    <div data-testid="collaborators-panel">
      <Alert
        type={data?.restricted ? 'warning' : 'info'}
        content={data?.restricted ? t('restricted') : t('open')}
        style={{ marginBottom: 12 }}
      />
      <div style={{ marginBottom: 8 }}>
        {t('owner')}: <strong>{ownerName}</strong>
      </div>
      {(data?.collaborators ?? []).map((x) => (
        <div
          key={x.user_id}
          data-testid="collaborator"
          style={{ display: 'flex', gap: 8, alignItems: 'center', padding: '4px 0' }}
        >
          <span style={{ flex: 1 }}>{x.name || x.user_id}</span>
          <Tag size="small">{t('editor')}</Tag>
          {data?.can_manage && (
            <Button
              size="mini"
              status="danger"
              onClick={() => c.remove.mutate(x.user_id)}
              data-testid="collaborator-remove"
            >
              {t('remove')}
            </Button>
          )}
        </div>
      ))}
      {data?.can_manage && (
        <div style={{ display: 'flex', gap: 8, marginTop: 10 }}>
          <Select
            style={{ flex: 1 }}
            value={pick || undefined}
            onChange={setPick}
            placeholder={t('choose')}
            data-testid="collaborator-pick"
          >
            {members.map((m) => (
              <Select.Option key={m.user_id} value={m.user_id}>
                {m.name}
              </Select.Option>
            ))}
          </Select>
          <Button
            type="primary"
            disabled={!pick}
            loading={c.add.isPending}
            onClick={() => c.add.mutate(pick, { onSuccess: () => setPick('') })}
            data-testid="collaborator-add"
          >
            {t('add')}
          </Button>
        </div>
      )}
      {!data?.can_manage && <div style={{ fontSize: 12, color: 'var(--color-text-3)' }}>{t('onlyOwner')}</div>}
    </div>
  );
}
