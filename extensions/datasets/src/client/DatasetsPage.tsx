// The space's datasets: made with a name and fields (name and type each), opened on their page.
import { Button, Input, Select, Space, Tag } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { EmptyState, ListRow, PageHeader, useFormat } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { FIELD_TYPES, type Field } from '../shared/api.ts';
import { useDatasets, useSpaceId } from './store.ts';

export function DatasetsPage() {
  const { t } = useTranslation('datasets');
  const spaceId = useSpaceId();
  const ds = useDatasets(spaceId);
  const navigate = useNavigate();
  const format = useFormat();
  const [name, setName] = useState('');
  const [fields, setFields] = useState<Field[]>([{ name: 'input', type: 'text', description: '', required: true }]);
  const setField = (i: number, f: Partial<Field>) => setFields(fields.map((x, j) => (j === i ? { ...x, ...f } : x)));
  const list = ds.list.data ?? [];
  return (
    <div className="tessera-page" data-testid="datasets">
      <PageHeader
        title={t('title')}
        intro={t('intro')}
        actions={
          <Link to="/datasets/trace-annotation" data-testid="datasets-trace-annotation">
            {t('ann.traces.title')}
          </Link>
        }
      />
      <div style={{ maxWidth: 640, marginBottom: 16 }} data-testid="dataset-new">
        <Input
          value={name}
          onChange={setName}
          placeholder={t('namePlaceholder')}
          maxLength={100}
          data-testid="dataset-name"
        />
        {fields.map((f, i) => (
          <Space key={i} style={{ marginTop: 6 }}>
            <Input
              value={f.name}
              onChange={(v) => setField(i, { name: v })}
              placeholder={t('fieldName')}
              style={{ width: 200 }}
              data-testid={`dataset-field-name-${i}`}
            />
            <Select
              value={f.type}
              onChange={(type: Field['type']) => setField(i, { type })}
              style={{ width: 160 }}
              data-testid={`dataset-field-type-${i}`}
            >
              {FIELD_TYPES.map((x) => (
                <Select.Option key={x} value={x}>
                  {t(`type.${x}`)}
                </Select.Option>
              ))}
            </Select>
            {fields.length > 1 && (
              <Button
                icon={<IconDelete />}
                aria-label={t('remove')}
                onClick={() => setFields(fields.filter((_, j) => j !== i))}
              />
            )}
          </Space>
        ))}
        <Space style={{ marginTop: 6 }}>
          <Button
            icon={<IconPlus />}
            onClick={() => setFields([...fields, { name: '', type: 'text', description: '', required: false }])}
            data-testid="dataset-field-add"
          >
            {t('addField')}
          </Button>
          <Button
            type="primary"
            disabled={!name.trim() || fields.some((f) => !f.name.trim())}
            loading={ds.create.isPending}
            onClick={() =>
              ds.create.mutate(
                { name, description: '', fields },
                { onSuccess: (r) => void navigate(`/datasets/${r.dataset.datasetID}`) },
              )
            }
            data-testid="dataset-create"
          >
            {t('create')}
          </Button>
        </Space>
      </div>
      {!ds.list.isLoading && !list.length && <EmptyState description={t('empty')} testId="datasets-empty" />}
      {list.map((d) => (
        <ListRow key={d.datasetID} testId="dataset-row">
          <Link to={`/datasets/${d.datasetID}`} style={{ flex: 1 }}>
            {d.name}
          </Link>
          <Tag size="small">{t('items', { count: d.itemCount })}</Tag>
          {d.latestVersion > 0 && <Tag size="small">v{d.latestVersion}</Tag>}
          <span style={{ fontSize: 12, color: 'var(--color-text-3)' }}>{format.dateTime(d.updatedAt * 1000)}</span>
        </ListRow>
      ))}
    </div>
  );
}
