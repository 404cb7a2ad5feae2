// A table's fields: name, type, required, description (system fields listed, not editable).
import { Button, Checkbox, Input, Select, Space, Tag, Typography } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { useTranslation } from 'react-i18next';
import { TYPE_KEYS, type FieldInfo } from './api.ts';

export type EditableField = Omit<FieldInfo, 'id'> & { id: number };

export function FieldsEditor({ fields, onChange }: { fields: EditableField[]; onChange(next: EditableField[]): void }) {
  const { t } = useTranslation('tables');
  const set = (i: number, patch: Partial<EditableField>) =>
    onChange(fields.map((f, j) => (j === i ? { ...f, ...patch } : f)));
  return (
    <div data-testid="table-fields">
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('fields.system')} <Tag size="small">id</Tag> <Tag size="small">uuid</Tag>{' '}
        <Tag size="small">bstudio_create_time</Tag>
      </Typography.Text>
      {fields.map((f, i) => (
        <Space key={i} style={{ display: 'flex', marginTop: 6 }} wrap>
          <Input
            size="small"
            style={{ width: 160 }}
            value={f.name}
            placeholder={t('fields.name')}
            onChange={(name) => set(i, { name })}
            data-testid="table-field-name"
          />
          <Select
            size="small"
            style={{ width: 130 }}
            value={f.type}
            onChange={(type) => set(i, { type })}
            aria-label={t('fields.type')}
            data-testid="table-field-type"
          >
            {Object.entries(TYPE_KEYS).map(([n, key]) => (
              <Select.Option key={n} value={Number(n)}>
                {t(`type.${key}`)}
              </Select.Option>
            ))}
          </Select>
          <Checkbox checked={f.must_required} onChange={(must_required) => set(i, { must_required })}>
            {t('fields.required')}
          </Checkbox>
          <Input
            size="small"
            style={{ width: 220 }}
            value={f.desc}
            placeholder={t('fields.desc')}
            onChange={(desc) => set(i, { desc })}
          />
          <Button
            size="mini"
            type="text"
            status="danger"
            icon={<IconDelete />}
            aria-label={t('fields.remove')}
            onClick={() => onChange(fields.filter((_, j) => j !== i))}
          />
        </Space>
      ))}
      <Button
        size="mini"
        type="text"
        icon={<IconPlus />}
        style={{ marginTop: 6 }}
        onClick={() => onChange([...fields, { id: 0, name: '', type: 1, must_required: false, desc: '' }])}
        disabled={fields.length >= 50}
        data-testid="table-field-add"
      >
        {t('fields.add')}
      </Button>
    </div>
  );
}
