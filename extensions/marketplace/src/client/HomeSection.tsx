// On the home page: featured products and templates to start from.
import { Grid, Typography } from '@arco-design/web-react';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Product } from './api.ts';
import { ProductCard } from './ProductCard.tsx';

export function TemplatesSection() {
  const { t } = useTranslation('marketplace');
  const api = useApi();
  const q = useQuery({ queryKey: ['market', 'home'], queryFn: () => api.get<{ products: Product[] }>('/api/marketplace/product/list', { sort_type: 'popular', page_size: 40 }) });
  const featured = (q.data?.products ?? []).filter((p) => p.featured).slice(0, 4);
  const templates = (q.data?.products ?? []).filter((p) => p.is_template && !p.featured).slice(0, 4);
  if (!featured.length && !templates.length) return null;
  return (
    <div data-testid="market-home">
      {!!featured.length && <Row title={t('home.featured')} products={featured} />}
      {!!templates.length && <Row title={t('home.templates')} products={templates} />}
      <Link to="/explore">{t('home.more')}</Link>
    </div>
  );
}

function Row({ title, products }: { title: string; products: Product[] }) {
  return (
    <>
      <Typography.Title heading={6}>{title}</Typography.Title>
      <Grid.Row gutter={[12, 12]} style={{ marginBottom: 12 }}>
        {products.map((p) => (
          <Grid.Col key={p.product_id} xs={24} md={12} lg={6}>
            <ProductCard product={p} />
          </Grid.Col>
        ))}
      </Grid.Row>
    </>
  );
}
