// The Collaborators panel of a workflow, bot or project: who may change it. Without collaborators every member of the
// space may; with some, only they, its creator and the space's administrators. The workflow editor shows it as a
// panel; the bot editor's and a project's header as a button that opens it.
import { Alert, Button, Select, Tag } from '@arco-design/web-react';
import { SidePanel, type ResourceActionProps } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCollaborators, type CollaboratedKind } from './store.ts';

export function CollaboratorsPanel({ spaceId, kind, resourceId }: ResourceActionProps) {
  const { t } = useTranslation('collaborators');
  const c = useCollaborators(spaceId, kind as CollaboratedKind, resourceId);
  const what = t(`kinds.${kind}`);
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
        content={data?.restricted ? t('restricted', { kind: what }) : t('open', { kind: what })}
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

/** The header's button: how many collaborators, and the panel in a side sheet. */
export function CollaboratorsButton(props: ResourceActionProps) {
  const { t } = useTranslation('collaborators');
  const [open, setOpen] = useState(false);
  const c = useCollaborators(props.spaceId, props.kind as CollaboratedKind, props.resourceId);
  const count = c.list.data?.collaborators.length ?? 0;
  return (
    <>
      <Button size="small" onClick={() => setOpen(true)} data-testid="collaborators-button">
        {t('button')}
        {count ? ` · ${count}` : ''}
      </Button>
      {open && (
        <SidePanel visible title={t('button')} onCancel={() => setOpen(false)} size="small">
          <CollaboratorsPanel {...props} />
        </SidePanel>
      )}
    </>
  );
}
