import { Form, Input, Select } from '@arco-design/web-react';
import { useQueryClient } from '@tanstack/react-query';
import { LimitedInput, Modal, fieldErrors, toast, useApi } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SpaceInfo } from '../shared/index.ts';
import { useCurrentSpace } from './api.ts';
import { currentSpace } from './current.ts';

const CREATE = '__create__';

export function CreateSpaceModal({ visible, onClose }: { visible: boolean; onClose(): void }) {
  const { t } = useTranslation('spaces');
  const api = useApi();
  const qc = useQueryClient();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [busy, setBusy] = useState(false);
  const [nameProblem, setNameProblem] = useState('');
  return (
    <Modal
      visible={visible}
      size="small"
      title={t('create.title')}
      onCancel={onClose}
      confirmLoading={busy}
      okButtonProps={{ disabled: !name.trim(), ...({ 'data-testid': 'space-create-ok' } as object) }}
      onOk={async () => {
        setBusy(true);
        try {
          const s = await api.post<SpaceInfo>('/api/space/create', { name, description }, { handled: fieldErrors(['name'], (_f, msg) => setNameProblem(msg)) });
          await qc.invalidateQueries({ queryKey: ['spaces'] });
          currentSpace().set(s.space_id);
          toast.success(t('create.created'));
          setName('');
          setDescription('');
          onClose();
        } catch {
          /* a name problem shows under the field; anything else as a notice */
        } finally {
          setBusy(false);
        }
      }}
    >
      <Form layout="vertical">
        <Form.Item label={t('create.name')} required>
          <LimitedInput
            value={name}
            maxLength={50}
            problem={nameProblem}
            onChange={(v) => {
              setName(v);
              setNameProblem('');
            }}
            testId="space-create-name"
          />
        </Form.Item>
        <Form.Item label={t('create.description')}>
          <Input.TextArea value={description} onChange={setDescription} maxLength={2000} showWordLimit />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The header's space switcher: every space of the user, and "create team space". */
export function SpaceSwitcher() {
  const { t } = useTranslation('spaces');
  const { space, spaces } = useCurrentSpace();
  const [creating, setCreating] = useState(false);
  if (!space) return null;
  return (
    <>
      <Select
        size="small"
        aria-label={t('switcher.label')}
        data-testid="space-switcher"
        value={space.space_id}
        style={{ width: 180 }}
        onChange={(v) => (v === CREATE ? setCreating(true) : currentSpace().set(v))}
      >
        {spaces.map((s) => (
          <Select.Option key={s.space_id} value={s.space_id}>
            {s.space_type === 1 ? `${t('switcher.personal')} · ${s.name}` : s.name}
          </Select.Option>
        ))}
        <Select.Option key={CREATE} value={CREATE}>
          + {t('switcher.create')}
        </Select.Option>
      </Select>
      <CreateSpaceModal visible={creating} onClose={() => setCreating(false)} />
    </>
  );
}
