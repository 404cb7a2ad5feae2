// Settings > Agent examples (platform administrators): the examples people start tasks from, in categories, shown or
// hidden, recommended, each with a replay that shows it done.
import { Button, Form, Input, InputNumber, Popconfirm, Select, Switch, Tag } from '@arco-design/web-react';
import { ListRow } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useExamples, type ExampleView } from './store.ts';

const blank = {
  example_name: '',
  example_description: '',
  category_id: '',
  user_query: '',
  share_id: '',
  index: 0,
  status: 'online' as 'online' | 'offline',
  official_recommend: false,
};

export function ExamplesAdmin() {
  const { t } = useTranslation('agent-workspace');
  const x = useExamples(true);
  const [draft, setDraft] = useState<typeof blank & { example_id?: string }>(blank);
  const [category, setCategory] = useState('');
  const categories = x.list.data?.categories ?? [];
  const edit = (e: ExampleView) => setDraft({ ...e });
  return (
    <div data-testid="agent-examples-admin">
      <h4 style={{ marginTop: 0 }}>{t('examples.categories')}</h4>
      <div style={{ display: 'flex', gap: 6, flexWrap: 'wrap', marginBottom: 8 }}>
        {categories.map((c) => (
          <Tag key={c.category_id} closable onClose={() => x.removeCategory.mutate(c.category_id)}>
            {c.name}
          </Tag>
        ))}
      </div>
      <div style={{ display: 'flex', gap: 8, maxWidth: 400 }}>
        <Input
          value={category}
          onChange={setCategory}
          placeholder={t('examples.categoryName')}
          maxLength={50}
          data-testid="agent-category-name"
        />
        <Button
          disabled={!category.trim()}
          onClick={() =>
            x.saveCategory.mutate({ name: category, index: categories.length }, { onSuccess: () => setCategory('') })
          }
          data-testid="agent-category-add"
        >
          {t('examples.addCategory')}
        </Button>
      </div>
      <h4>{t('examples.title')}</h4>
      {(x.list.data?.examples ?? []).map((e) => (
        <ListRow key={e.example_id} testId="agent-example-admin-row">
          <Tag size="small" color={e.status === 'online' ? 'green' : 'gray'}>
            {t(`examples.${e.status}`)}
          </Tag>
          <strong style={{ flex: 1 }}>{e.example_name}</strong>
          <span style={{ fontSize: 12, color: 'var(--color-text-3)' }}>
            {categories.find((c) => c.category_id === e.category_id)?.name}
          </span>
          <Button size="mini" onClick={() => edit(e)}>
            {t('edit')}
          </Button>
          <Popconfirm title={t('deleteConfirm')} onOk={() => x.remove.mutate(e.example_id)}>
            <Button size="mini" status="danger">
              {t('delete')}
            </Button>
          </Popconfirm>
        </ListRow>
      ))}
      <Form layout="vertical" style={{ maxWidth: 560, marginTop: 12 }}>
        <Form.Item label={t('examples.name')} required>
          <Input
            value={draft.example_name}
            onChange={(example_name) => setDraft({ ...draft, example_name })}
            maxLength={100}
            data-testid="agent-example-name"
          />
        </Form.Item>
        <Form.Item label={t('examples.description')}>
          <Input
            value={draft.example_description}
            onChange={(example_description) => setDraft({ ...draft, example_description })}
            maxLength={1000}
          />
        </Form.Item>
        <Form.Item label={t('examples.query')} required>
          <Input.TextArea
            value={draft.user_query}
            onChange={(user_query) => setDraft({ ...draft, user_query })}
            autoSize={{ minRows: 2, maxRows: 8 }}
            data-testid="agent-example-query"
          />
        </Form.Item>
        <Form.Item label={t('examples.category')}>
          <Select value={draft.category_id} onChange={(category_id) => setDraft({ ...draft, category_id })} allowClear>
            {categories.map((c) => (
              <Select.Option key={c.category_id} value={c.category_id}>
                {c.name}
              </Select.Option>
            ))}
          </Select>
        </Form.Item>
        <Form.Item label={t('examples.replay')}>
          <Input
            value={draft.share_id}
            onChange={(share_id) => setDraft({ ...draft, share_id })}
            placeholder="https://…/replay/…#…"
          />
        </Form.Item>
        <Form.Item label={t('examples.order')}>
          <InputNumber
            value={draft.index}
            min={0}
            max={10_000}
            onChange={(v) => setDraft({ ...draft, index: Number(v) || 0 })}
          />
        </Form.Item>
        <Form.Item>
          <Switch
            checked={draft.status === 'online'}
            onChange={(on) => setDraft({ ...draft, status: on ? 'online' : 'offline' })}
          />{' '}
          {t('examples.shown')}
          <Switch
            style={{ marginLeft: 16 }}
            checked={draft.official_recommend}
            onChange={(official_recommend) => setDraft({ ...draft, official_recommend })}
          />{' '}
          {t('examples.recommended')}
        </Form.Item>
        <Button
          type="primary"
          disabled={!draft.example_name.trim() || !draft.user_query.trim()}
          loading={x.save.isPending}
          onClick={() => x.save.mutate(draft, { onSuccess: () => setDraft(blank) })}
          data-testid="agent-example-save"
        >
          {draft.example_id ? t('save') : t('examples.add')}
        </Button>
      </Form>
    </div>
  );
}
