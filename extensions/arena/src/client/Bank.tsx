// The question bank: the studio's questions and the space's own (administrators add and delete them).
import { Button, Input, Popconfirm, Select, Tag } from '@arco-design/web-react';
import { ListRow } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabels } from './labels.ts';
import { useBank } from './store.ts';

export function Bank({ spaceId }: { spaceId: string }) {
  const { t } = useTranslation('arena');
  const { conf, label } = useLabels();
  const bank = useBank(spaceId);
  const [text, setText] = useState('');
  const [category, setCategory] = useState('general');
  const name = (key: string) => label(conf.data?.categories.find((c) => c.key === key)?.label ?? {}) || key;
  return (
    <div>
      <div style={{ display: 'flex', gap: 8, marginBottom: 12, maxWidth: 720 }}>
        <Select value={category} onChange={setCategory} style={{ width: 150 }}>
          {(conf.data?.categories ?? []).map((c) => (
            <Select.Option key={c.key} value={c.key}>
              {label(c.label)}
            </Select.Option>
          ))}
        </Select>
        <Input
          value={text}
          onChange={setText}
          placeholder={t('bankPlaceholder')}
          maxLength={4000}
          data-testid="arena-bank-text"
        />
        <Button
          type="primary"
          disabled={!text.trim()}
          loading={bank.add.isPending}
          onClick={() => bank.add.mutate({ text, category }, { onSuccess: () => setText('') })}
          data-testid="arena-bank-add"
        >
          {t('add')}
        </Button>
      </div>
      {(bank.list.data ?? []).map((q) => (
        <ListRow key={q.id} testId="arena-bank-question">
          <Tag size="small">{name(q.category)}</Tag>
          <span style={{ flex: 1 }}>{q.text}</span>
          {q.builtin ? (
            <Tag size="small" color="gray">
              {t('builtin')}
            </Tag>
          ) : (
            <Popconfirm title={t('deleteConfirm')} onOk={() => bank.remove.mutate(q.id)}>
              <Button size="mini" status="danger">
                {t('delete')}
              </Button>
            </Popconfirm>
          )}
        </ListRow>
      ))}
    </div>
  );
}
