// The marketplace: categories, search with suggestions, sort, templates; favorites; my products with
// their review status.
import {
  AutoComplete,
  Empty,
  Grid,
  Radio,
  Space,
  Spin,
  Tabs,
  Tag,
  Typography,
  Button,
  Popconfirm,
  Select,
} from '@arco-design/web-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PageHeading, ResourceKinds, toast, useApi, usePageTitle, useRegistryEntries } from '@tessera/sdk/client';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { KindTag, ProductCard } from './ProductCard.tsx';
import { ExploreTop } from './Curated.tsx';
import {
  ProductCategoryList,
  ProductFavoriteList,
  ProductList,
  ProductSearch,
  ProductSearchSuggest,
  ProductUnlisting,
  ProductUserProductList,
} from '../shared/api.ts';

export function ExplorePage() {
  const { t } = useTranslation('marketplace');
  usePageTitle(t('title'));
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') ?? 'all';
  return (
    <div data-testid="market-explore">
      <PageHeading title={t('title')} intro={t('intro')} />
      <Tabs activeTab={tab} onChange={(k) => setParams((p) => (p.set('tab', k), p), { replace: true })}>
        <Tabs.TabPane key="all" title={t('tabs.all')}>
          <ExploreTop />
          <Browse />
        </Tabs.TabPane>
        <Tabs.TabPane key="favorites" title={t('tabs.favorites')}>
          <Favorites />
        </Tabs.TabPane>
        <Tabs.TabPane key="mine" title={t('tabs.mine')}>
          <MyProducts />
        </Tabs.TabPane>
      </Tabs>
    </div>
  );
}

function useCategories() {
  const api = useApi();
  return useQuery({
    queryKey: ['market', 'categories'],
    queryFn: () => api.call(ProductCategoryList, undefined),
  });
}

export function useCategoryName() {
  const { i18n } = useTranslation();
  const q = useCategories();
  return (id: string) => {
    const c = q.data?.categories.find((x) => x.id === id);
    return c ? (i18n.language.startsWith('zh') && c.name_zh ? c.name_zh : c.name) : '';
  };
}

function Browse() {
  const { t } = useTranslation('marketplace');
  const api = useApi();
  const kinds = useRegistryEntries(ResourceKinds);
  const categories = useCategories();
  const categoryName = useCategoryName();
  const [category, setCategory] = useState('');
  const [kind, setKind] = useState<string | undefined>();
  const [sort, setSort] = useState<'latest' | 'popular' | 'favorites'>('latest');
  const [templates, setTemplates] = useState(false);
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  // Results follow the typing (a moment after it rests); suggestions show while typing and close once one is
  // chosen or Enter is pressed, so they never sit over the results a person is reading.
  const [suggesting, setSuggesting] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setKeyword(typed.trim()), 300);
    return () => clearTimeout(timer);
  }, [typed]);
  const suggest = useQuery({
    queryKey: ['market', 'suggest', typed],
    enabled: suggesting && typed.trim().length > 0,
    queryFn: () => api.call(ProductSearchSuggest, { keyword: typed.trim() }),
  });
  const list = useQuery({
    queryKey: ['market', 'list', category, kind, sort, templates, keyword],
    // The results shown stay until the next ones arrive (no empty flash between two searches, and a card being
    // clicked is not taken away under the pointer).
    placeholderData: keepPreviousData,
    queryFn: () =>
      api.call(keyword ? ProductSearch : ProductList, {
        keyword: keyword || undefined,
        category_id: category || undefined,
        entity_type: kind,
        sort_type: sort,
        is_template: templates ? 'true' : undefined,
        page_size: 60,
      }),
  });
  return (
    <div>
      <Space wrap style={{ marginBottom: 12 }}>
        <AutoComplete
          style={{ width: 280 }}
          placeholder={t('search')}
          data={suggest.data?.suggestions ?? []}
          value={typed}
          triggerProps={{ popupVisible: suggesting && typed.trim().length > 0 && !!suggest.data?.suggestions.length }}
          onChange={(v) => {
            setTyped(v);
            setSuggesting(true);
            if (!v) setKeyword('');
          }}
          onSelect={(v) => {
            setTyped(String(v));
            setKeyword(String(v));
            setSuggesting(false);
          }}
          onPressEnter={() => (setKeyword(typed.trim()), setSuggesting(false))}
          onBlur={() => setSuggesting(false)}
          allowClear
          data-testid="market-search"
        />
        <Select
          style={{ width: 150 }}
          placeholder={t('allKinds')}
          value={kind}
          onChange={setKind}
          allowClear
          data-testid="market-kind"
        >
          {kinds.map((k) => (
            <Select.Option key={k.value.kind} value={k.value.kind}>
              <KindTag kind={k.value.kind} />
            </Select.Option>
          ))}
        </Select>
        <Radio.Group type="button" value={sort} onChange={setSort}>
          <Radio value="latest">{t('sort.latest')}</Radio>
          <Radio value="popular">{t('sort.popular')}</Radio>
          <Radio value="favorites">{t('sort.favorites')}</Radio>
        </Radio.Group>
        <Radio.Group type="button" value={templates} onChange={setTemplates}>
          <Radio value={false}>{t('everything')}</Radio>
          <Radio value={true}>{t('templates')}</Radio>
        </Radio.Group>
      </Space>
      {!!categories.data?.categories.length && (
        <Space wrap style={{ marginBottom: 12, display: 'flex' }}>
          <Tag checkable checked={!category} onCheck={() => setCategory('')}>
            {t('allCategories')}
          </Tag>
          {(categories.data?.categories ?? []).map((c) => (
            <Tag
              key={c.id}
              checkable
              checked={category === c.id}
              onCheck={() => setCategory(c.id)}
              data-testid="market-category"
            >
              {categoryName(c.id)}
            </Tag>
          ))}
        </Space>
      )}
      {list.isLoading && <Spin style={{ display: 'block', margin: 24 }} />}
      {list.data && !list.data.products.length && (
        <Empty description={keyword ? t('noMatch', { keyword }) : t('empty')} />
      )}
      <Grid.Row gutter={[12, 12]}>
        {(list.data?.products ?? []).map((p) => (
          <Grid.Col key={p.product_id} xs={24} md={12} lg={8} xxl={6}>
            <ProductCard product={p} />
          </Grid.Col>
        ))}
      </Grid.Row>
    </div>
  );
}

function Favorites() {
  const { t } = useTranslation('marketplace');
  const api = useApi();
  const q = useQuery({
    queryKey: ['market', 'favorites'],
    queryFn: () => api.call(ProductFavoriteList, { page_size: 100 }),
  });
  if (q.isLoading) return <Spin />;
  if (!q.data?.products.length) return <Empty description={t('noFavorites')} />;
  return (
    <Grid.Row gutter={[12, 12]}>
      {q.data.products.map((p) => (
        <Grid.Col key={p.product_id} xs={24} md={12} lg={8} xxl={6}>
          <ProductCard product={p} />
        </Grid.Col>
      ))}
    </Grid.Row>
  );
}

function MyProducts() {
  const { t } = useTranslation('marketplace');
  const api = useApi();
  const qc = useQueryClient();
  const q = useQuery({
    queryKey: ['market', 'mine'],
    queryFn: () => api.call(ProductUserProductList, undefined),
  });
  const unlist = useMutation({
    mutationFn: (id: string) => api.call(ProductUnlisting, { product_id: id }),
    onSuccess: async () => {
      toast.success(t('unlisted'));
      await qc.invalidateQueries({ queryKey: ['market'] });
    },
  });
  if (q.isLoading) return <Spin />;
  if (!q.data?.products.length) return <Empty description={t('noProducts')} />;
  return (
    <div data-testid="market-mine">
      {q.data.products.map((p) => (
        <div
          key={p.product_id}
          data-testid="market-mine-item"
          data-status={p.status}
          style={{ borderBottom: '1px solid var(--color-border-1)', padding: '10px 0' }}
        >
          <Space style={{ width: '100%', justifyContent: 'space-between' }}>
            <Space wrap>
              <Link to={`/explore/${p.product_id}`} style={{ fontWeight: 500 }}>
                {p.name}
              </Link>
              <KindTag kind={p.entity_type} />
              <Tag color={p.status === 2 ? 'green' : p.status === 3 ? 'red' : 'orange'} data-testid="market-status">
                {t(`status.${p.status}`, { version: p.version_name })}
              </Tag>
              {p.live_version && (
                <Typography.Text type="secondary">{t('liveVersion', { version: p.live_version })}</Typography.Text>
              )}
              {!p.listed && <Tag>{t('unlistedTag')}</Tag>}
            </Space>
            {p.listed && (
              <Popconfirm title={t('unlistTitle', { name: p.name })} onOk={() => unlist.mutate(p.product_id)}>
                <Button size="mini" type="text" status="danger">
                  {t('unlist')}
                </Button>
              </Popconfirm>
            )}
          </Space>
          {p.status === 3 && (
            <Typography.Paragraph type="error" style={{ margin: '4px 0 0' }} data-testid="market-reject-reason">
              {t('rejectedBecause', { reason: p.reject_reason })}
            </Typography.Paragraph>
          )}
        </div>
      ))}
    </div>
  );
}
