// A model's status in the Models page: in use, or deprecated (optionally with the successor that answers in its
// place); deprecate with a successor picked among the models of the same kind its users can reach, or undo it.
import { Button, Modal, Select, Space, Tag, Typography } from '@arco-design/web-react';
import { testId, useApi } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ModelInfo } from '../shared/index.ts';
import type { ModelScope } from './scope.ts';

export function ModelStatus({
  model,
  all,
  base,
  canManage,
  onChanged,
}: {
  model: ModelInfo;
  /** Every model the space sees (its own and the platform's). */
  all: ModelInfo[];
  base: ModelScope;
  canManage: boolean;
  onChanged(): Promise<unknown>;
}) {
  const { t } = useTranslation('models');
  const api = useApi();
  const [open, setOpen] = useState(false);
  const successor = all.find((m) => m.model_id === model.successor_id);
  const undo = async () => {
    await api.call(base.calls.UpdateModel, {
      ...base.where,
      model_id: model.model_id,
      deprecated: false,
      successor_id: '',
    });
    await onChanged();
  };
  return (
    <Space size={4} wrap>
      {model.deprecated ? (
        <Tag size="small" color="orange" data-testid={`model-deprecated-${model.model_name}`}>
          {successor ? t('status.deprecatedTo', { name: successor.display_name }) : t('status.deprecated')}
        </Tag>
      ) : (
        <Tag size="small" color={model.enabled ? 'green' : 'gray'}>
          {model.enabled ? t('status.active') : t('status.disabled')}
        </Tag>
      )}
      {canManage &&
        (model.deprecated ? (
          <Button
            size="mini"
            type="text"
            onClick={() => void undo()}
            data-testid={`model-undeprecate-${model.model_name}`}
          >
            {t('status.undo')}
          </Button>
        ) : (
          <Button
            size="mini"
            type="text"
            onClick={() => setOpen(true)}
            data-testid={`model-deprecate-${model.model_name}`}
          >
            {t('status.deprecate')}
          </Button>
        ))}
      {open && (
        <DeprecateModal
          model={model}
          candidates={all.filter(
            (m) =>
              m.model_id !== model.model_id &&
              m.kind === model.kind &&
              m.enabled &&
              !m.deprecated &&
              (model.scope === 'space' || m.scope === 'platform'),
          )}
          base={base}
          onClose={() => setOpen(false)}
          onChanged={onChanged}
        />
      )}
    </Space>
  );
}

function DeprecateModal({
  model,
  candidates,
  base,
  onClose,
  onChanged,
}: {
  model: ModelInfo;
  candidates: ModelInfo[];
  base: ModelScope;
  onClose(): void;
  onChanged(): Promise<unknown>;
}) {
  const { t } = useTranslation('models');
  const api = useApi();
  const [successor, setSuccessor] = useState<string>();
  const [saving, setSaving] = useState(false);
  const save = async () => {
    setSaving(true);
    try {
      await api.call(base.calls.UpdateModel, {
        ...base.where,
        model_id: model.model_id,
        deprecated: true,
        successor_id: successor ?? '',
      });
      await onChanged();
      onClose();
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      visible
      title={t('status.deprecateTitle', { name: model.display_name })}
      onCancel={onClose}
      onOk={() => void save()}
      okText={t('status.deprecate')}
      confirmLoading={saving}
      okButtonProps={testId('model-deprecate-save')}
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t('status.deprecateIntro')}</Typography.Text>
        <Select
          allowClear
          value={successor}
          onChange={(v: string | undefined) => setSuccessor(v)}
          placeholder={t('status.noSuccessor')}
          data-testid="model-successor"
        >
          {candidates.map((m) => (
            <Select.Option key={m.model_id} value={m.model_id}>
              {m.display_name} · {m.provider}
            </Select.Option>
          ))}
        </Select>
      </Space>
    </Modal>
  );
}
