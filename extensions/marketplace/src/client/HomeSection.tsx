// On the home page: featured products, those recommended for the home page, live topics, and templates to
// start from.
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ProductRow, TopicRows, useTopics } from './Curated.tsx';
import type { EndpointOutput } from '@tessera/sdk';
import type { FeaturedGetCurrent, GetLandingInfo, ProductList } from '../shared/api.ts';

export function TemplatesSection() {
  const { t } = useTranslation('marketplace');
  const api = useApi();
  const q = useQuery({
    queryKey: ['market', 'home'],
    queryFn: () =>
      api.get<EndpointOutput<typeof ProductList>>('/api/marketplace/product/list', {
        sort_type: 'popular',
        is_template: 'true',
        page_size: 4,
      }),
  });
  const featured = useQuery({
    queryKey: ['market', 'featured'],
    queryFn: () => api.get<EndpointOutput<typeof FeaturedGetCurrent>>('/api/marketplace/featured/get_current'),
  });
  const recommended = useQuery({
    queryKey: ['market', 'landing', 'home'],
    queryFn: () => api.get<EndpointOutput<typeof GetLandingInfo>>('/api/marketplace/landing_info', { scene: 'home' }),
  });
  const topics = useTopics();
  const templates = q.data?.products ?? [];
  const top = featured.data?.products.slice(0, 4) ?? [];
  const picks = recommended.data?.recommended.slice(0, 4) ?? [];
  if (!top.length && !templates.length && !picks.length && !topics.data?.topics.length) return null;
  return (
    <div data-testid="market-home">
      {!!top.length && <ProductRow title={t('home.featured')} products={top} />}
      {!!picks.length && <ProductRow testId="market-home-recommended" title={t('home.recommended')} products={picks} />}
      <TopicRows limit={2} />
      {!!templates.length && <ProductRow title={t('home.templates')} products={templates} />}
      <Link to="/explore">{t('home.more')}</Link>
    </div>
  );
}
