// Sharing a task as a replay: a link with a secret, shown once to copy; the links made before, revoked one by one.
import { Button, Input, Popconfirm, Tag } from '@arco-design/web-react';
import { ListRow, Modal, useFormat } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReplays } from './store.ts';

export function ShareDialog({ taskId, visible, onClose }: { taskId: string; visible: boolean; onClose(): void }) {
  const { t } = useTranslation('agent-workspace');
  const format = useFormat();
  const r = useReplays(taskId);
  const [link, setLink] = useState('');
  return (
    <Modal title={t('share.title')} visible={visible} onCancel={onClose} footer={null} size="medium">
      <p style={{ marginTop: 0 }}>{t('share.intro')}</p>
      {link ? (
        <div style={{ display: 'flex', gap: 8 }}>
          <Input readOnly value={link} data-testid="agent-share-link" />
          <Button type="primary" onClick={() => void navigator.clipboard?.writeText(link)}>
            {t('share.copy')}
          </Button>
        </div>
      ) : (
        <Button
          type="primary"
          loading={r.create.isPending}
          onClick={() =>
            r.create.mutate(undefined, { onSuccess: (x) => setLink(`${window.location.origin}${x.path}`) })
          }
          data-testid="agent-share-create"
        >
          {t('share.create')}
        </Button>
      )}
      {link && <p style={{ fontSize: 12, color: 'var(--color-text-3)' }}>{t('share.once')}</p>}
      {(r.list.data ?? []).map((s) => (
        <ListRow key={s.task_share_id} testId="agent-share-row">
          <Tag size="small" color={s.status === 'active' ? 'green' : 'gray'}>
            {t(`share.${s.status}`)}
          </Tag>
          <span style={{ flex: 1 }}>{format.dateTime(s.created_at * 1000)}</span>
          <span style={{ fontSize: 12, color: 'var(--color-text-3)' }}>{t('share.views', { count: s.views })}</span>
          {s.status === 'active' && (
            <Popconfirm title={t('share.revokeConfirm')} onOk={() => r.revoke.mutate(s.task_share_id)}>
              <Button size="mini" status="danger" data-testid="agent-share-revoke">
                {t('share.revoke')}
              </Button>
            </Popconfirm>
          )}
        </ListRow>
      ))}
    </Modal>
  );
}
