// "List in marketplace" in the library's row menu: what people will read about it; it then waits for review.
import { Checkbox, Form, Input, InputTag, Select } from '@arco-design/web-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Modal, fieldErrors, toast, useApi, testId } from '@tessera/sdk/client';
import type { LibraryItem } from '@tessera/ext-library/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCategoryName } from './ExplorePage.tsx';
import { ProductCategoryList, ProductListing, ProductUserProductList } from '../shared/api.ts';

export function ListingDialog({ spaceId, item, onClose }: { spaceId: string; item: LibraryItem; onClose(): void }) {
  const { t } = useTranslation('marketplace');
  const api = useApi();
  const qc = useQueryClient();
  const categoryName = useCategoryName();
  const categories = useQuery({
    queryKey: ['market', 'categories'],
    queryFn: () => api.call(ProductCategoryList, undefined),
  });
  const mine = useQuery({
    queryKey: ['market', 'mine'],
    queryFn: () => api.call(ProductUserProductList, undefined),
  });
  const existing = mine.data?.products.find((p) => p.entity_type === item.res_type && p.entity_id === item.res_id);
  const [name, setName] = useState(item.name);
  const [description, setDescription] = useState(item.desc);
  const [readme, setReadme] = useState('');
  const [category, setCategory] = useState('');
  const [tags, setTags] = useState<string[]>([]);
  const [template, setTemplate] = useState(false);
  const [version, setVersion] = useState('');
  const [problem, setProblem] = useState<Record<string, string>>({});
  const list = useMutation({
    mutationFn: () =>
      api.call(
        ProductListing,
        {
          space_id: spaceId,
          entity_type: item.res_type,
          entity_id: item.res_id,
          name: name.trim(),
          description: description.trim(),
          readme,
          category_id: category,
          tags,
          is_template: template,
          version_name:
            version.trim() ||
            (existing ? nextVersion(existing.live_version || existing.version_name || '1.0.0') : '1.0.0'),
        },
        {
          handled: fieldErrors(['name', 'description', 'version_name'], (f, m) =>
            setProblem((p) => ({ ...p, [f]: m })),
          ),
        },
      ),
    onSuccess: async () => {
      toast.success(t('submitted'));
      await qc.invalidateQueries({ queryKey: ['market'] });
      onClose();
    },
  });
  return (
    <Modal
      visible
      size="large"
      title={t('listTitle', { name: item.name })}
      onCancel={onClose}
      onOk={() => list.mutate()}
      confirmLoading={list.isPending}
      okText={t('submit')}
      okButtonProps={{
        disabled: !name.trim() || !description.trim(),
        ...testId('market-list-save'),
      }}
    >
      <Form layout="vertical" onChange={() => setProblem({})}>
        <Form.Item
          label={t('form.name')}
          required
          validateStatus={problem.name ? 'error' : undefined}
          help={problem.name}
        >
          <Input value={name} maxLength={100} onChange={setName} data-testid="market-list-name" />
        </Form.Item>
        <Form.Item
          label={t('form.description')}
          required
          validateStatus={problem.description ? 'error' : undefined}
          help={problem.description}
        >
          <Input value={description} maxLength={2000} onChange={setDescription} data-testid="market-list-description" />
        </Form.Item>
        <Form.Item label={t('form.readme')} extra={t('form.readmeHelp')}>
          <Input.TextArea
            value={readme}
            autoSize={{ minRows: 4, maxRows: 12 }}
            maxLength={50000}
            onChange={setReadme}
            data-testid="market-list-readme"
          />
        </Form.Item>
        <Form.Item label={t('form.category')}>
          <Select
            value={category || undefined}
            onChange={(v) => setCategory(v ?? '')}
            allowClear
            placeholder={t('form.noCategory')}
            data-testid="market-list-category"
          >
            {(categories.data?.categories ?? []).map((c) => (
              <Select.Option key={c.id} value={c.id}>
                {categoryName(c.id)}
              </Select.Option>
            ))}
          </Select>
        </Form.Item>
        <Form.Item label={t('form.tags')}>
          <InputTag
            value={tags}
            onChange={(v) => setTags(v.map(String).slice(0, 10))}
            saveOnBlur
            allowClear
            placeholder={t('form.tagsHelp')}
          />
        </Form.Item>
        <Form.Item
          label={t('form.version')}
          extra={existing?.live_version ? t('form.versionHelp', { version: existing.live_version }) : undefined}
          validateStatus={problem.version_name ? 'error' : undefined}
          help={problem.version_name}
        >
          <Input
            value={version}
            placeholder={existing ? nextVersion(existing.live_version || existing.version_name || '1.0.0') : '1.0.0'}
            onChange={setVersion}
            maxLength={64}
            data-testid="market-list-version"
          />
        </Form.Item>
        <Checkbox checked={template} onChange={setTemplate}>
          {t('form.template')}
        </Checkbox>
      </Form>
    </Modal>
  );
}

/** 1.2.3 -> 1.2.4; anything else gets ".1". */
function nextVersion(v: string): string {
  const m = /^(.*?)(\d+)$/.exec(v);
  return m ? `${m[1]}${Number(m[2]) + 1}` : `${v}.1`;
}
