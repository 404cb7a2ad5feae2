// A product: readme (Markdown, no HTML), versions, what a copy brings along, author and numbers; favorite,
// duplicate into one of your spaces, share.
import { Alert, Button, Divider, Empty, Spin, Tag, Typography } from '@arco-design/web-react';
import { IconCopy, IconHeart, IconHeartFill, IconShareAlt } from '@arco-design/web-react/icon';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Modal,
  PageHeader,
  ResourceKinds,
  toast,
  useApi,
  useFormat,
  usePageTitle,
  useRegistryEntries,
  testId,
} from '@tessera/sdk/client';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { SpaceSelect } from '@tessera/ext-spaces/widgets';
import { ProductActions } from '../shared/index.ts';
import { useSpaceId, type Product } from './api.ts';
import { useCategoryName } from './ExplorePage.tsx';
import { KindTag } from './ProductCard.tsx';
import { GetProductDetail, ProductDuplicate, ProductFavorite, ProductShareCreate } from '../shared/api.ts';

const Markdown = lazy(() => import('react-markdown'));

interface Detail {
  product: Product & { readme: string };
  versions: { version_name: string; create_time: number }[];
  contents: { kind: string; name: string }[];
  can_duplicate: boolean;
}

export function ProductPage() {
  const { product_id: id } = useParams();
  const { t } = useTranslation('marketplace');
  const api = useApi();
  const q = useQuery({
    queryKey: ['market', 'detail', id],
    queryFn: () => api.call(GetProductDetail, { product_id: id ?? '' }, { handled: (e) => e.status === 404 }),
  });
  usePageTitle(q.data?.product.name ?? t('title'));
  if (q.isError) return <Empty description={t('missing')} />;
  if (!q.data) return <Spin style={{ margin: 40 }} />;
  return <ProductView detail={q.data} />;
}

function ProductView({ detail }: { detail: Detail }) {
  const { t } = useTranslation('marketplace');
  const api = useApi();
  const qc = useQueryClient();
  const format = useFormat();
  const categoryName = useCategoryName();
  const p = detail.product;
  const [duplicating, setDuplicating] = useState(false);
  const fav = useMutation({
    mutationFn: () => api.call(ProductFavorite, { product_id: p.product_id, is_cancel: !!p.favorited }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['market'] }),
  });
  const actions = useRegistryEntries(ProductActions)
    .slice()
    .sort((a, b) => (a.value.order ?? 50) - (b.value.order ?? 50));
  const share = useMutation({
    mutationFn: () => api.call(ProductShareCreate, { product_id: p.product_id }),
    onSuccess: async (r) => {
      await navigator.clipboard?.writeText(r.share_url).catch(() => undefined);
      toast.success(t('shareCopied', { url: r.share_url }));
    },
  });
  return (
    <div data-testid="market-product" data-product-id={p.product_id}>
      <PageHeader
        back={{ to: '/explore', label: t('back') }}
        title={p.name}
        titleTestId="market-product-name"
        extra={
          <>
            <KindTag kind={p.entity_type} />
            {p.is_template && <Tag color="arcoblue">{t('template')}</Tag>}
            {p.category_id && <Tag>{categoryName(p.category_id)}</Tag>}
            {p.tags.map((x) => (
              <Tag key={x} size="small">
                #{x}
              </Tag>
            ))}
          </>
        }
        intro={
          <>
            {p.description}
            <Typography.Text
              type="secondary"
              style={{ fontSize: 12, display: 'block', marginTop: 4 }}
              data-testid="market-stats"
            >
              {t('byline', {
                author: p.author.name,
                version: p.live_version || p.version_name,
                views: p.stats.views,
                duplicates: p.stats.duplicates,
                favorites: p.stats.favorites,
              })}
            </Typography.Text>
          </>
        }
        actions={
          <>
            <Button
              icon={p.favorited ? <IconHeartFill style={{ color: 'rgb(var(--red-6))' }} /> : <IconHeart />}
              onClick={() => fav.mutate()}
              loading={fav.isPending}
              data-testid="market-favorite"
              data-favorited={!!p.favorited}
            >
              {p.favorited ? t('unfavorite') : t('favorite')}
            </Button>
            <Button icon={<IconShareAlt />} onClick={() => share.mutate()} data-testid="market-share">
              {t('share')}
            </Button>
            <Button
              type="primary"
              icon={<IconCopy />}
              disabled={!detail.can_duplicate}
              onClick={() => setDuplicating(true)}
              data-testid="market-duplicate"
            >
              {t('duplicate')}
            </Button>
            {actions.map((a) => (
              <a.value.component key={a.key} productId={p.product_id} name={p.name} />
            ))}
          </>
        }
      />
      {p.status !== undefined && p.status !== 2 && (
        <Alert
          type={p.status === 3 ? 'error' : 'info'}
          style={{ marginBottom: 12 }}
          content={
            p.status === 3
              ? t('rejectedBecause', { reason: p.reject_reason })
              : t(`status.${p.status}`, { version: p.version_name })
          }
        />
      )}
      <div style={{ display: 'flex', gap: 24, alignItems: 'flex-start' }}>
        <div style={{ flex: 1, minWidth: 0 }} className="tessera-markdown" data-testid="market-readme">
          {p.readme ? (
            <Suspense fallback={<Spin />}>
              <Markdown>{p.readme}</Markdown>
            </Suspense>
          ) : (
            <Typography.Text type="secondary">{t('noReadme')}</Typography.Text>
          )}
        </div>
        <div style={{ width: 260, flex: 'none' }}>
          <Typography.Title heading={6}>{t('contents')}</Typography.Title>
          {detail.contents.map((c, i) => (
            <div key={i} data-testid="market-content">
              <KindTag kind={c.kind} /> {c.name}
            </div>
          ))}
          <Divider />
          <Typography.Title heading={6}>{t('versions')}</Typography.Title>
          {detail.versions.map((v) => (
            <div key={v.version_name} style={{ fontSize: 13 }}>
              {v.version_name} · {format.dateTime(v.create_time * 1000)}
            </div>
          ))}
        </div>
      </div>
      {duplicating && <DuplicateModal product={p} onClose={() => setDuplicating(false)} />}
    </div>
  );
}

function DuplicateModal({ product, onClose }: { product: Product; onClose(): void }) {
  const { t } = useTranslation('marketplace');
  const api = useApi();
  const navigate = useNavigate();
  const current = useSpaceId();
  const kinds = useRegistryEntries(ResourceKinds);
  const [to, setTo] = useState(current ?? '');
  const dup = useMutation({
    mutationFn: () =>
      api.call(ProductDuplicate, {
        product_id: product.product_id,
        space_id: to,
      }),
    onSuccess: (r) => {
      toast.success(t('duplicated'));
      const kind = kinds.find((k) => k.value.kind === r.entity_type)?.value;
      onClose();
      if (kind)
        void navigate(kind.itemPath?.(r.entity_id, r.space_id) ?? `${kind.path}/${r.entity_id}?space_id=${r.space_id}`);
    },
  });
  return (
    <Modal
      visible
      title={t('duplicateTitle', { name: product.name })}
      onCancel={onClose}
      onOk={() => dup.mutate()}
      confirmLoading={dup.isPending}
      okButtonProps={{ disabled: !to, ...testId('market-duplicate-save') }}
    >
      <Typography.Paragraph type="secondary">{t('duplicateHelp')}</Typography.Paragraph>
      <SpaceSelect value={to} onChange={setTo} testId="market-duplicate-space" />
    </Modal>
  );
}
