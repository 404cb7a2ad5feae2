// Above the items: the selected items tagged with a key of the space and its value (or the key taken off them),
// and the items filtered by a tag.
import { Button, Input, Select, Space } from '@arco-design/web-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TagView } from '../shared/api.ts';
import { useItemTags, useTags } from './store.ts';

export interface TagFilter {
  tagKeyID: string;
  value: string;
}

function ValuePick({
  k,
  value,
  onChange,
  testId,
}: {
  k?: TagView;
  value: string;
  onChange(v: string): void;
  testId: string;
}) {
  const { t } = useTranslation('datasets');
  if (k?.contentType === 'categorical' || k?.contentType === 'boolean')
    return (
      <Select
        value={value || undefined}
        onChange={onChange}
        placeholder={t('tags.value')}
        style={{ width: 150 }}
        data-testid={testId}
      >
        {(k.contentType === 'boolean'
          ? ['true', 'false']
          : k.values.filter((v) => !v.archived).map((v) => v.value)
        ).map((v) => (
          <Select.Option key={v} value={v}>
            {v}
          </Select.Option>
        ))}
      </Select>
    );
  return (
    <Input
      value={value}
      onChange={onChange}
      placeholder={t('tags.value')}
      style={{ width: 150 }}
      data-testid={testId}
    />
  );
}

export function ItemTagBar({
  spaceID,
  datasetID,
  selected,
  filter,
  onFilter,
}: {
  spaceID: string;
  datasetID: string;
  selected: string[];
  filter?: TagFilter;
  onFilter(f?: TagFilter): void;
}) {
  const { t } = useTranslation('datasets');
  const tags = useTags(spaceID).list.data ?? [];
  const item = useItemTags(datasetID);
  const [keyID, setKeyID] = useState<string>();
  const [value, setValue] = useState('');
  const [fKey, setFKey] = useState<string | undefined>(filter?.tagKeyID);
  const [fValue, setFValue] = useState(filter?.value ?? '');
  const active = tags.filter((k) => k.status === 'active');
  if (!tags.length) return null;
  return (
    <Space wrap style={{ marginBottom: 8 }} data-testid="item-tag-bar">
      <Select
        value={keyID}
        onChange={(v) => (setKeyID(v), setValue(''))}
        placeholder={t('tags.pick')}
        style={{ width: 150 }}
        data-testid="item-tag-key"
      >
        {active.map((k) => (
          <Select.Option key={k.tagKeyID} value={k.tagKeyID}>
            {k.name}
          </Select.Option>
        ))}
      </Select>
      <ValuePick k={tags.find((k) => k.tagKeyID === keyID)} value={value} onChange={setValue} testId="item-tag-value" />
      <Button
        disabled={!selected.length || !keyID || !value}
        loading={item.tag.isPending}
        onClick={() => item.tag.mutate({ itemIDs: selected, tagKeyID: keyID!, value })}
        data-testid="item-tag-apply"
      >
        {t('tags.apply', { count: selected.length })}
      </Button>
      <Button
        disabled={!selected.length || !keyID}
        onClick={() => item.untag.mutate({ itemIDs: selected, tagKeyID: keyID! })}
      >
        {t('tags.remove')}
      </Button>
      <span style={{ marginLeft: 16 }}>{t('tags.filter')}</span>
      <Select
        value={fKey}
        onChange={(v) => (setFKey(v), setFValue(''))}
        allowClear
        placeholder={t('tags.pick')}
        style={{ width: 150 }}
        data-testid="item-filter-key"
      >
        {tags.map((k) => (
          <Select.Option key={k.tagKeyID} value={k.tagKeyID}>
            {k.name}
          </Select.Option>
        ))}
      </Select>
      <ValuePick
        k={tags.find((k) => k.tagKeyID === fKey)}
        value={fValue}
        onChange={(v) => (setFValue(v), fKey && v && onFilter({ tagKeyID: fKey, value: v }))}
        testId="item-filter-value"
      />
      {filter && (
        <Button
          size="small"
          onClick={() => (setFKey(undefined), setFValue(''), onFilter(undefined))}
          data-testid="item-filter-clear"
        >
          {t('tags.clearFilter')}
        </Button>
      )}
    </Space>
  );
}
