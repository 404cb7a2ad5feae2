// The space's experts: specialised agents (a persona, what they are good at, a model) a task's planner hands steps to.
import { Button, Form, Input, Popconfirm } from '@arco-design/web-react';
import { ModelSelect } from '@tessera/ext-models/client';
import { ListRow, SidePanel } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useExperts } from './store.ts';

const empty = { name: '', description: '', persona: '', model_id: '' };

export function ExpertsPanel({ spaceId, visible, onClose }: { spaceId: string; visible: boolean; onClose(): void }) {
  const { t } = useTranslation('agent-workspace');
  const x = useExperts(spaceId);
  const [draft, setDraft] = useState<typeof empty & { expert_id?: string }>(empty);
  return (
    <SidePanel title={t('experts.title')} visible={visible} onCancel={onClose} size="medium">
      <p style={{ marginTop: 0, color: 'var(--color-text-2)' }}>{t('experts.intro')}</p>
      {(x.list.data ?? []).map((e) => (
        <ListRow key={e.expert_id} testId="agent-expert-row">
          <strong>{e.name}</strong>
          <span style={{ flex: 1, fontSize: 12, color: 'var(--color-text-3)' }}>{e.description.slice(0, 80)}</span>
          <Button size="mini" onClick={() => setDraft(e)}>
            {t('edit')}
          </Button>
          <Popconfirm title={t('deleteConfirm')} onOk={() => x.remove.mutate(e.expert_id)}>
            <Button size="mini" status="danger">
              {t('delete')}
            </Button>
          </Popconfirm>
        </ListRow>
      ))}
      <Form layout="vertical" style={{ marginTop: 16 }}>
        <Form.Item label={t('experts.name')} required>
          <Input
            value={draft.name}
            onChange={(name) => setDraft({ ...draft, name })}
            maxLength={50}
            data-testid="agent-expert-name"
          />
        </Form.Item>
        <Form.Item label={t('experts.description')}>
          <Input
            value={draft.description}
            onChange={(description) => setDraft({ ...draft, description })}
            maxLength={1000}
            data-testid="agent-expert-description"
          />
        </Form.Item>
        <Form.Item label={t('experts.persona')}>
          <Input.TextArea
            value={draft.persona}
            onChange={(persona) => setDraft({ ...draft, persona })}
            autoSize={{ minRows: 3, maxRows: 8 }}
          />
        </Form.Item>
        <Form.Item label={t('experts.model')}>
          <ModelSelect
            spaceId={spaceId}
            value={draft.model_id || undefined}
            onChange={(model_id) => setDraft({ ...draft, model_id })}
          />
        </Form.Item>
        <Button
          type="primary"
          disabled={!draft.name.trim()}
          loading={x.save.isPending}
          onClick={() => x.save.mutate(draft, { onSuccess: () => setDraft(empty) })}
          data-testid="agent-expert-save"
        >
          {draft.expert_id ? t('save') : t('experts.add')}
        </Button>
      </Form>
    </SidePanel>
  );
}
