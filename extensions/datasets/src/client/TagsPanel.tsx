// The space's tags (shared by its datasets): a new one (categorical with its values, boolean, number, free text),
// each turned off or on, its values archived or brought back (a click on one), more values added.
import { Button, Input, Select, Space, Switch, Tag, Typography } from '@arco-design/web-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TAG_TYPES, type TagView } from '../shared/api.ts';
import { useTags } from './store.ts';

const split = (s: string) =>
  s
    .split(/[,，]/)
    .map((v) => v.trim())
    .filter(Boolean);

export function TagsPanel({ spaceID }: { spaceID: string }) {
  const { t } = useTranslation('datasets');
  const tags = useTags(spaceID);
  const [name, setName] = useState('');
  const [type, setType] = useState<TagView['contentType']>('categorical');
  const [values, setValues] = useState('');
  return (
    <div data-testid="tags">
      <Typography.Paragraph type="secondary">{t('tags.intro')}</Typography.Paragraph>
      <Space wrap style={{ marginBottom: 12 }}>
        <Input
          value={name}
          onChange={setName}
          placeholder={t('tags.name')}
          style={{ width: 180 }}
          data-testid="tag-name"
        />
        <Select value={type} onChange={setType} style={{ width: 150 }} data-testid="tag-type">
          {TAG_TYPES.map((x) => (
            <Select.Option key={x} value={x}>
              {t(`tags.type.${x}`)}
            </Select.Option>
          ))}
        </Select>
        {type === 'categorical' && (
          <Input
            value={values}
            onChange={setValues}
            placeholder={t('tags.values')}
            style={{ width: 280 }}
            data-testid="tag-values"
          />
        )}
        <Button
          type="primary"
          disabled={!name.trim() || (type === 'categorical' && !split(values).length)}
          loading={tags.create.isPending}
          onClick={() =>
            tags.create.mutate(
              { name, contentType: type, values: type === 'categorical' ? split(values) : [] },
              { onSuccess: () => (setName(''), setValues('')) },
            )
          }
          data-testid="tag-create"
        >
          {t('tags.create')}
        </Button>
      </Space>
      {(tags.list.data ?? []).map((k) => (
        <TagRow key={k.tagKeyID} k={k} spaceID={spaceID} />
      ))}
    </div>
  );
}

function TagRow({ k, spaceID }: { k: TagView; spaceID: string }) {
  const { t } = useTranslation('datasets');
  const tags = useTags(spaceID);
  const [more, setMore] = useState('');
  return (
    <div
      style={{
        display: 'flex',
        gap: 8,
        alignItems: 'center',
        flexWrap: 'wrap',
        padding: '6px 0',
        borderBottom: '1px solid var(--color-border-1)',
      }}
      data-testid="tag-row"
    >
      <b style={{ minWidth: 120 }}>{k.name}</b>
      <Tag size="small">{t(`tags.type.${k.contentType}`)}</Tag>
      <Switch
        size="small"
        checked={k.status === 'active'}
        onChange={(on) => tags.setStatus.mutate({ tagKeyID: k.tagKeyID, status: on ? 'active' : 'inactive' })}
        aria-label={t('tags.active')}
      />
      {k.values.map((v) => (
        <Tag
          key={v.valueID}
          size="small"
          color={v.archived ? 'gray' : 'arcoblue'}
          style={{ cursor: 'pointer', textDecoration: v.archived ? 'line-through' : undefined }}
          title={v.archived ? t('tags.unarchive') : t('tags.archive')}
          onClick={() => tags.archive.mutate({ tagKeyID: k.tagKeyID, valueID: v.valueID, archived: !v.archived })}
          data-testid="tag-value"
        >
          {v.value}
        </Tag>
      ))}
      {k.contentType === 'categorical' && (
        <Input
          size="mini"
          value={more}
          onChange={setMore}
          placeholder={t('tags.addValues')}
          style={{ width: 160 }}
          onPressEnter={() =>
            split(more).length &&
            tags.addValues.mutate({ tagKeyID: k.tagKeyID, addValues: split(more) }, { onSuccess: () => setMore('') })
          }
        />
      )}
    </div>
  );
}
