// A dataset's items as a table: a column per field, the tags they carry, rows picked for tagging.
import { Space, Table, Tag } from '@arco-design/web-react';
import { useTranslation } from 'react-i18next';
import type { DatasetView, ItemView } from '../shared/api.ts';

const cell = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));

export function ItemsTable({
  d,
  items,
  selected,
  onSelect,
}: {
  d: DatasetView;
  items: ItemView[];
  selected?: string[];
  onSelect?(ids: string[]): void;
}) {
  const { t } = useTranslation('datasets');
  const tagged = items.some((i) => i.tags?.length);
  return (
    <Table
      size="small"
      rowKey="itemID"
      pagination={false}
      scroll={{ x: true }}
      data={items}
      rowSelection={
        onSelect
          ? { type: 'checkbox', selectedRowKeys: selected, onChange: (keys) => onSelect(keys.map(String)) }
          : undefined
      }
      columns={[
        ...d.fields.map((f) => ({
          title: `${f.name} · ${f.type}`,
          render: (_: unknown, r: ItemView) => (
            <span style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
              {cell(r.data[f.name]).slice(0, 300)}
            </span>
          ),
        })),
        ...(tagged
          ? [
              {
                title: t('tags.column'),
                render: (_: unknown, r: ItemView) => (
                  <Space size={4} wrap data-testid="item-tags">
                    {r.tags?.map((x) => (
                      <Tag key={x.tagKeyID} size="small">{`${x.name}: ${x.value}`}</Tag>
                    ))}
                  </Space>
                ),
              },
            ]
          : []),
      ]}
    />
  );
}
