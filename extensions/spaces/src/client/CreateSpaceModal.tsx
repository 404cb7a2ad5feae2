import { Form, Input } from '@arco-design/web-react';
import { useQueryClient } from '@tanstack/react-query';
import { LimitedInput, Modal, fieldErrors, toast, useApi, testId } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CreateSpace } from '../shared/index.ts';
import { currentSpace } from './current.ts';

/** "Create team space": its name and description; the new space becomes the current one. */
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
      okButtonProps={{ disabled: !name.trim(), ...testId('space-create-ok') }}
      onOk={async () => {
        setBusy(true);
        try {
          const s = await api.call(
            CreateSpace,
            { name, description },
            { handled: fieldErrors(['name'], (_f, msg) => setNameProblem(msg)) },
          );
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
