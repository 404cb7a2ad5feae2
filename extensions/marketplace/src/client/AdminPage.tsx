// Settings > Marketplace, for platform administrators: the review queue (approve; reject with a reason),
// featured products, categories (add, rename, order, remove), topics, the pages' banner and
// recommendations (CurationAdmin.tsx), and the audit log.
import { Button, Empty, Input, Popconfirm, Space, Switch, Table, Tabs, Tag, Typography } from '@arco-design/web-react';
import { IconArrowDown, IconArrowUp, IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Modal, toast, useApi, useFormat, testId } from '@tessera/sdk/client';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Category, Product } from './api.ts';
import { KindTag } from './ProductCard.tsx';
import { PagesAdmin, TopicsAdmin } from './CurationAdmin.tsx';
import {
  AdminAuditLog,
  AdminCategorySave,
  AdminFeaturedSet,
  AdminListingApprove,
  AdminListingList,
  AdminRejectListing,
  ProductCategoryList,
} from '../shared/api.ts';

export function AdminPage() {
  const { t } = useTranslation('marketplace');
  const api = useApi();
  const probe = useQuery({
    queryKey: ['market', 'admin', 'probe'],
    queryFn: () => api.call(AdminListingList, { page_size: 1 }, { handled: (e) => e.status === 403 }),
    retry: false,
  });
  if (probe.isError) return <Empty description={t('admin.only')} data-testid="market-admin-refused" />;
  return (
    <div data-testid="market-admin">
      <Tabs defaultActiveTab="review">
        <Tabs.TabPane key="review" title={t('admin.review')}>
          <Queue status={1} />
        </Tabs.TabPane>
        <Tabs.TabPane key="live" title={t('admin.live')}>
          <Queue status={2} />
        </Tabs.TabPane>
        <Tabs.TabPane key="categories" title={t('admin.categories')}>
          <Categories />
        </Tabs.TabPane>
        <Tabs.TabPane key="topics" title={<span data-testid="market-admin-topics-tab">{t('curation.topics')}</span>}>
          <TopicsAdmin />
        </Tabs.TabPane>
        <Tabs.TabPane key="pages" title={<span data-testid="market-admin-pages-tab">{t('curation.pages')}</span>}>
          <PagesAdmin />
        </Tabs.TabPane>
        <Tabs.TabPane key="audit" title={t('admin.audit')}>
          <Audit />
        </Tabs.TabPane>
      </Tabs>
    </div>
  );
}

function Queue({ status }: { status: number }) {
  const { t } = useTranslation('marketplace');
  const api = useApi();
  const qc = useQueryClient();
  const format = useFormat();
  const [rejecting, setRejecting] = useState<Product | undefined>();
  const [reason, setReason] = useState('');
  const q = useQuery({
    queryKey: ['market', 'admin', 'queue', status],
    queryFn: () => api.call(AdminListingList, { status }),
  });
  const done = () => qc.invalidateQueries({ queryKey: ['market'] });
  const approve = useMutation({
    mutationFn: (id: string) => api.call(AdminListingApprove, { product_id: id }),
    onSuccess: async () => (toast.success(t('admin.approved')), done()),
  });
  const reject = useMutation({
    mutationFn: () => api.call(AdminRejectListing, { product_id: rejecting!.product_id, reason: reason.trim() }),
    onSuccess: async () => {
      toast.success(t('admin.rejected'));
      setRejecting(undefined);
      setReason('');
      await done();
    },
  });
  const feature = useMutation({
    mutationFn: (p: Product) => api.call(AdminFeaturedSet, { product_id: p.product_id, featured: !p.featured }),
    onSuccess: done,
  });
  return (
    <>
      <Table<Product>
        rowKey="product_id"
        loading={q.isLoading}
        pagination={false}
        data={q.data?.products ?? []}
        noDataElement={<Empty description={status === 1 ? t('admin.nothingToReview') : t('empty')} />}
        columns={[
          {
            title: t('admin.product'),
            dataIndex: 'name',
            render: (_: unknown, p) => (
              <div data-testid="market-admin-item" data-product-id={p.product_id}>
                <Space>
                  <Link to={`/explore/${p.product_id}`} style={{ fontWeight: 500 }}>
                    {(p as Product & { submission?: { name?: string } }).submission?.name ?? p.name}
                  </Link>
                  <KindTag kind={p.entity_type} />
                  {p.version_name && <Tag size="small">{p.version_name}</Tag>}
                </Space>
                <Typography.Text type="secondary" style={{ display: 'block' }} ellipsis>
                  {(p as Product & { submission?: { description?: string } }).submission?.description ?? p.description}
                </Typography.Text>
              </div>
            ),
          },
          { title: t('admin.author'), dataIndex: 'author', width: 130, render: (a: Product['author']) => a.name },
          {
            title: t('admin.submitted'),
            dataIndex: 'update_time',
            width: 170,
            render: (s: number) => format.dateTime(s * 1000),
          },
          ...(status === 2
            ? [
                {
                  title: t('featured'),
                  dataIndex: 'featured',
                  width: 90,
                  render: (f: boolean, p: Product) => (
                    <Switch
                      size="small"
                      checked={f}
                      onChange={() => feature.mutate(p)}
                      data-testid="market-admin-feature"
                    />
                  ),
                },
              ]
            : []),
          {
            title: '',
            key: 'actions',
            width: 170,
            render: (_: unknown, p: Product) =>
              status === 1 ? (
                <Space size={0}>
                  <Button
                    size="mini"
                    type="text"
                    onClick={() => approve.mutate(p.product_id)}
                    data-testid="market-admin-approve"
                  >
                    {t('admin.approve')}
                  </Button>
                  <Button
                    size="mini"
                    type="text"
                    status="danger"
                    onClick={() => setRejecting(p)}
                    data-testid="market-admin-reject"
                  >
                    {t('admin.reject')}
                  </Button>
                </Space>
              ) : null,
          },
        ]}
      />
      {rejecting && (
        <Modal
          visible
          title={t('admin.rejectTitle', { name: rejecting.name })}
          onCancel={() => setRejecting(undefined)}
          onOk={() => reject.mutate()}
          confirmLoading={reject.isPending}
          okButtonProps={{
            status: 'danger',
            disabled: !reason.trim(),
            ...testId('market-admin-reject-save'),
          }}
        >
          <Input.TextArea
            value={reason}
            onChange={setReason}
            autoSize={{ minRows: 3 }}
            maxLength={2000}
            placeholder={t('admin.reasonHelp')}
            data-testid="market-admin-reason"
          />
        </Modal>
      )}
    </>
  );
}

function Categories() {
  const { t } = useTranslation('marketplace');
  const api = useApi();
  const qc = useQueryClient();
  const q = useQuery({
    queryKey: ['market', 'categories'],
    queryFn: () => api.call(ProductCategoryList, undefined),
  });
  const [rows, setRows] = useState<Partial<Category>[]>([]);
  useEffect(() => setRows(q.data?.categories ?? []), [q.data]);
  const save = useMutation({
    mutationFn: () =>
      api.call(AdminCategorySave, {
        categories: rows
          .filter((r) => r.name?.trim())
          .map((r) => ({ id: r.id, name: r.name!.trim(), name_zh: r.name_zh?.trim() ?? '' })),
      }),
    onSuccess: async () => {
      toast.success(t('admin.saved'));
      await qc.invalidateQueries({ queryKey: ['market'] });
    },
  });
  const set = (i: number, patch: Partial<Category>) => setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const swap = (i: number, j: number) => {
    const next = [...rows];
    [next[i], next[j]] = [next[j], next[i]];
    setRows(next);
  };
  return (
    <div data-testid="market-admin-categories" style={{ maxWidth: 640 }}>
      {rows.map((r, i) => (
        <Space key={r.id ?? `new-${i}`} style={{ display: 'flex', marginBottom: 6 }}>
          <Input
            value={r.name ?? ''}
            placeholder={t('admin.nameEn')}
            onChange={(name) => set(i, { name })}
            style={{ width: 200 }}
            data-testid="market-admin-category-name"
          />
          <Input
            value={r.name_zh ?? ''}
            placeholder={t('admin.nameZh')}
            onChange={(name_zh) => set(i, { name_zh })}
            style={{ width: 160 }}
          />
          <Button
            size="mini"
            icon={<IconArrowUp />}
            disabled={i === 0}
            onClick={() => swap(i, i - 1)}
            aria-label={t('admin.up')}
          />
          <Button
            size="mini"
            icon={<IconArrowDown />}
            disabled={i === rows.length - 1}
            onClick={() => swap(i, i + 1)}
            aria-label={t('admin.down')}
          />
          <Popconfirm title={t('admin.removeCategory')} onOk={() => setRows(rows.filter((_, j) => j !== i))}>
            <Button size="mini" status="danger" icon={<IconDelete />} aria-label={t('admin.remove')} />
          </Popconfirm>
        </Space>
      ))}
      <Space>
        <Button
          icon={<IconPlus />}
          onClick={() => setRows([...rows, { name: '', name_zh: '' }])}
          data-testid="market-admin-category-add"
        >
          {t('admin.addCategory')}
        </Button>
        <Button
          type="primary"
          loading={save.isPending}
          onClick={() => save.mutate()}
          data-testid="market-admin-category-save"
        >
          {t('admin.save')}
        </Button>
      </Space>
    </div>
  );
}

function Audit() {
  const { t } = useTranslation('marketplace');
  const api = useApi();
  const format = useFormat();
  const q = useQuery({
    queryKey: ['market', 'admin', 'audit'],
    queryFn: () => api.call(AdminAuditLog, { page_size: 100 }),
  });
  return (
    <Table
      rowKey="id"
      loading={q.isLoading}
      pagination={false}
      data={q.data?.entries ?? []}
      columns={[
        { title: t('admin.when'), dataIndex: 'time', width: 180, render: (s: number) => format.dateTime(s * 1000) },
        { title: t('admin.who'), dataIndex: 'admin_name', width: 140 },
        {
          title: t('admin.what'),
          dataIndex: 'action',
          width: 120,
          render: (a: string) => t(`admin.actions.${a}`, { defaultValue: a }),
        },
        {
          title: t('admin.detail'),
          dataIndex: 'detail',
          render: (d: Record<string, unknown>, e: { product_id: string }) => (
            <span>
              {e.product_id && <Link to={`/explore/${e.product_id}`}>{e.product_id}</Link>}{' '}
              {d.reason
                ? String(d.reason)
                : d.version
                  ? String(d.version)
                  : Array.isArray(d.categories)
                    ? d.categories.join(', ')
                    : ''}
            </span>
          ),
        },
      ]}
    />
  );
}
