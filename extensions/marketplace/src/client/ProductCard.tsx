// A product in a grid: name, kind, author, what it is for, its numbers.
import { Card, Space, Tag, Typography } from '@arco-design/web-react';
import { IconCopy, IconEye, IconHeart, IconStar } from '@arco-design/web-react/icon';
import { ResourceKinds, useRegistryEntries } from '@tessera/sdk/client';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Product } from './api.ts';

export function KindTag({ kind }: { kind: string }) {
  const entries = useRegistryEntries(ResourceKinds);
  const entry = entries.find((e) => e.value.kind === kind);
  const { t } = useTranslation(entry?.owner ?? 'marketplace');
  return <Tag size="small">{entry ? t(entry.value.label) : kind}</Tag>;
}

export function ProductCard({ product }: { product: Product }) {
  const { t } = useTranslation('marketplace');
  return (
    <Card hoverable style={{ height: '100%' }} data-testid="market-card" data-product-id={product.product_id}>
      <Space direction="vertical" size={6} style={{ width: '100%' }}>
        <Space size={6} wrap>
          <Link
            to={`/explore/${product.product_id}`}
            style={{ fontWeight: 600, fontSize: 15 }}
            data-testid="market-card-link"
          >
            {product.name}
          </Link>
          <KindTag kind={product.entity_type} />
          {product.is_template && (
            <Tag size="small" color="arcoblue">
              {t('template')}
            </Tag>
          )}
          {product.featured && (
            <Tag size="small" color="orange" icon={<IconStar />}>
              {t('featured')}
            </Tag>
          )}
        </Space>
        <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ margin: 0, minHeight: 40 }}>
          {product.description}
        </Typography.Paragraph>
        <Space size={12} style={{ fontSize: 12, color: 'var(--color-text-3)' }}>
          <span>{product.author.name}</span>
          <span title={t('views')}>
            <IconEye /> {product.stats.views}
          </span>
          <span title={t('duplicates')}>
            <IconCopy /> {product.stats.duplicates}
          </span>
          <span title={t('favorites')}>
            <IconHeart /> {product.stats.favorites}
          </span>
        </Space>
      </Space>
    </Card>
  );
}
