// Settings > Marketplace, curation: topics (edit, preview, put live, order by their position, delete), the
// explore page's banner and the products recommended on the home and explore pages.
import {
  Button,
  Empty,
  Form,
  Input,
  Popconfirm,
  Select,
  Space,
  Switch,
  Table,
  Typography,
} from '@arco-design/web-react';
import { IconPlus } from '@arco-design/web-react/icon';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Modal, toast, useApi, type ApiError, testId } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Landing, Topic } from './api.ts';
import {
  AdminLandingConfigSet,
  AdminPageConfig,
  AdminRecommendConfigDelete,
  AdminRecommendConfigSet,
  AdminTopicDelete,
  AdminTopicGetPreviewId,
  AdminTopicList,
  AdminTopicSet,
  AdminTopicUpdateStatus,
  ProductList,
  ProductSearch,
} from '../shared/api.ts';

/** Chooses live products by searching their names; keeps the order they were chosen in. */
function ProductPicker({
  value,
  onChange,
  known,
  testId,
}: {
  value: string[];
  onChange(ids: string[]): void;
  known: Map<string, string>;
  testId: string;
}) {
  const { t } = useTranslation('marketplace');
  const api = useApi();
  const [keyword, setKeyword] = useState('');
  const q = useQuery({
    queryKey: ['market', 'picker', keyword],
    queryFn: () =>
      keyword
        ? api.call(ProductSearch, { keyword, page_size: 20 })
        : api.call(ProductList, { sort_type: 'popular', page_size: 20 }),
  });
  const names = new Map(known);
  for (const p of q.data?.products ?? []) names.set(p.product_id, p.name);
  const options = [...new Set([...value, ...(q.data?.products ?? []).map((p) => p.product_id)])];
  return (
    <Select
      mode="multiple"
      showSearch
      filterOption={false}
      onSearch={setKeyword}
      value={value}
      onChange={(v: string[]) => onChange(v)}
      placeholder={t('curation.pickProducts')}
      loading={q.isFetching}
      data-testid={testId}
    >
      {options.map((id) => (
        <Select.Option key={id} value={id}>
          {names.get(id) ?? id}
        </Select.Option>
      ))}
    </Select>
  );
}

export function TopicsAdmin() {
  const { t } = useTranslation('marketplace');
  const api = useApi();
  const qc = useQueryClient();
  const q = useQuery({
    queryKey: ['market', 'admin', 'topics'],
    queryFn: () => api.call(AdminTopicList, undefined),
  });
  const [editing, setEditing] = useState<Partial<Topic> | undefined>();
  const done = () => qc.invalidateQueries({ queryKey: ['market'] });
  const status = useMutation({
    mutationFn: (x: { id: string; live: boolean }) =>
      api.call(AdminTopicUpdateStatus, { topic_id: x.id, status: x.live ? 1 : 0 }),
    onSuccess: done,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api.call(AdminTopicDelete, { topic_id: id }),
    onSuccess: done,
  });
  const preview = useMutation({
    mutationFn: (id: string) => api.call(AdminTopicGetPreviewId, { topic_id: id }),
    onSuccess: (r, id) => void window.open(`/explore/topics/${id}?preview_id=${r.preview_id}`, '_blank', 'noopener'),
  });
  return (
    <div data-testid="market-admin-topics">
      <Typography.Paragraph type="secondary">{t('curation.topicsHelp')}</Typography.Paragraph>
      <Button
        icon={<IconPlus />}
        onClick={() => setEditing({ product_ids: [] })}
        style={{ marginBottom: 12 }}
        data-testid="market-topic-new"
      >
        {t('curation.newTopic')}
      </Button>
      <Table<Topic>
        rowKey="topic_id"
        loading={q.isLoading}
        pagination={false}
        data={q.data?.topics ?? []}
        noDataElement={<Empty description={t('curation.noTopics')} />}
        columns={[
          {
            title: t('curation.topicTitle'),
            dataIndex: 'title',
            render: (v: string, r: Topic) => (
              <span data-testid="market-topic-row">
                {v}
                {r.title_zh ? ` · ${r.title_zh}` : ''}
              </span>
            ),
          },
          { title: t('curation.products'), width: 110, render: (_: unknown, r: Topic) => r.product_ids.length },
          {
            title: t('curation.live'),
            width: 90,
            render: (_: unknown, r: Topic) => (
              <Switch
                size="small"
                checked={r.status === 1}
                onChange={(live) => status.mutate({ id: r.topic_id, live })}
                data-testid="market-topic-live"
              />
            ),
          },
          {
            title: '',
            width: 240,
            render: (_: unknown, r: Topic) => (
              <Space>
                <Button size="mini" onClick={() => setEditing(r)}>
                  {t('curation.edit')}
                </Button>
                <Button size="mini" onClick={() => preview.mutate(r.topic_id)} data-testid="market-topic-preview">
                  {t('curation.preview')}
                </Button>
                <Popconfirm
                  title={t('curation.deleteTopic', { title: r.title })}
                  onOk={() => remove.mutate(r.topic_id)}
                >
                  <Button size="mini" status="danger">
                    {t('admin.remove')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      {editing && <TopicModal topic={editing} onClose={() => setEditing(undefined)} />}
    </div>
  );
}

function TopicModal({ topic, onClose }: { topic: Partial<Topic>; onClose(): void }) {
  const { t } = useTranslation('marketplace');
  const api = useApi();
  const qc = useQueryClient();
  const [v, setV] = useState({
    title: topic.title ?? '',
    title_zh: topic.title_zh ?? '',
    description: topic.description ?? '',
    description_zh: topic.description_zh ?? '',
    cover: topic.cover ?? '',
    product_ids: topic.product_ids ?? [],
  });
  const [problem, setProblem] = useState('');
  const save = useMutation({
    mutationFn: () =>
      api.call(
        AdminTopicSet,
        { ...(topic.topic_id ? { topic_id: topic.topic_id } : {}), ...v },
        { handled: (e: ApiError) => (e.status === 400 ? (setProblem(e.msg), true) : false) },
      ),
    onSuccess: async () => {
      toast.success(t('curation.topicSaved'));
      await qc.invalidateQueries({ queryKey: ['market'] });
      onClose();
    },
  });
  const set = (patch: Partial<typeof v>) => (setV({ ...v, ...patch }), setProblem(''));
  return (
    <Modal
      visible
      size="medium"
      title={topic.topic_id ? t('curation.editTopic') : t('curation.newTopic')}
      onCancel={onClose}
      onOk={() => save.mutate()}
      confirmLoading={save.isPending}
      okButtonProps={{ disabled: !v.title.trim(), ...testId('market-topic-save') }}
    >
      <Form layout="vertical">
        <Form.Item label={t('curation.titleEn')} required>
          <Input
            value={v.title}
            maxLength={100}
            onChange={(title) => set({ title })}
            data-testid="market-topic-title"
          />
        </Form.Item>
        <Form.Item label={t('curation.titleZh')}>
          <Input value={v.title_zh} maxLength={100} onChange={(title_zh) => set({ title_zh })} />
        </Form.Item>
        <Form.Item label={t('curation.descriptionEn')}>
          <Input.TextArea
            value={v.description}
            maxLength={1000}
            onChange={(description) => set({ description })}
            autoSize={{ minRows: 2, maxRows: 4 }}
          />
        </Form.Item>
        <Form.Item label={t('curation.descriptionZh')}>
          <Input.TextArea
            value={v.description_zh}
            maxLength={1000}
            onChange={(description_zh) => set({ description_zh })}
            autoSize={{ minRows: 2, maxRows: 4 }}
          />
        </Form.Item>
        <Form.Item label={t('curation.cover')}>
          <Input value={v.cover} placeholder="https://…" onChange={(cover) => set({ cover })} />
        </Form.Item>
        <Form.Item label={t('curation.products')}>
          <ProductPicker
            value={v.product_ids}
            onChange={(product_ids) => set({ product_ids })}
            known={new Map((topic.products ?? []).map((p) => [p.product_id, p.name]))}
            testId="market-topic-products"
          />
        </Form.Item>
      </Form>
      {problem && (
        <Typography.Text type="error" data-testid="market-topic-problem">
          {problem}
        </Typography.Text>
      )}
    </Modal>
  );
}

export function PagesAdmin() {
  const api = useApi();
  const q = useQuery({
    queryKey: ['market', 'admin', 'pages'],
    queryFn: () => api.call(AdminPageConfig, undefined),
  });
  if (!q.data) return null;
  return <PagesForm initial={q.data} />;
}

function PagesForm({ initial }: { initial: { landing: Landing; recommend: { home: string[]; explore: string[] } } }) {
  const { t } = useTranslation('marketplace');
  const api = useApi();
  const qc = useQueryClient();
  const [landing, setLanding] = useState(initial.landing);
  const [recommend, setRecommend] = useState(initial.recommend);
  const [problem, setProblem] = useState('');
  const handled = (e: ApiError) => (e.status === 400 ? (setProblem(e.msg), true) : false);
  const done = async (msg: string) => {
    toast.success(msg);
    setProblem('');
    await qc.invalidateQueries({ queryKey: ['market'] });
  };
  const saveLanding = useMutation({
    mutationFn: () => api.call(AdminLandingConfigSet, landing, { handled }),
    onSuccess: () => done(t('curation.landingSaved')),
  });
  const saveRecommend = useMutation({
    mutationFn: (scene: 'home' | 'explore') =>
      recommend[scene].length
        ? api.call(AdminRecommendConfigSet, { scene, product_ids: recommend[scene] }, { handled })
        : api.call(AdminRecommendConfigDelete, { scene }),
    onSuccess: () => done(t('curation.recommendSaved')),
  });
  return (
    <div data-testid="market-admin-pages" style={{ maxWidth: 720 }}>
      <Typography.Title heading={6}>{t('curation.landing')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('curation.landingHelp')}</Typography.Paragraph>
      <Form layout="vertical">
        <Form.Item label={t('curation.titleEn')}>
          <Input
            value={landing.title}
            maxLength={100}
            onChange={(title) => setLanding({ ...landing, title })}
            data-testid="market-landing-title"
          />
        </Form.Item>
        <Form.Item label={t('curation.titleZh')}>
          <Input
            value={landing.title_zh}
            maxLength={100}
            onChange={(title_zh) => setLanding({ ...landing, title_zh })}
          />
        </Form.Item>
        <Form.Item label={t('curation.subtitleEn')}>
          <Input
            value={landing.subtitle}
            maxLength={300}
            onChange={(subtitle) => setLanding({ ...landing, subtitle })}
            data-testid="market-landing-subtitle"
          />
        </Form.Item>
        <Form.Item label={t('curation.subtitleZh')}>
          <Input
            value={landing.subtitle_zh}
            maxLength={300}
            onChange={(subtitle_zh) => setLanding({ ...landing, subtitle_zh })}
          />
        </Form.Item>
        <Form.Item label={t('curation.cover')}>
          <Input
            value={landing.cover}
            placeholder="https://…"
            onChange={(cover) => setLanding({ ...landing, cover })}
          />
        </Form.Item>
        <Button
          type="primary"
          loading={saveLanding.isPending}
          onClick={() => saveLanding.mutate()}
          data-testid="market-landing-save"
        >
          {t('admin.save')}
        </Button>
      </Form>
      {(['home', 'explore'] as const).map((scene) => (
        <div key={scene} style={{ marginTop: 24 }}>
          <Typography.Title heading={6}>{t(`curation.recommend.${scene}`)}</Typography.Title>
          <Space direction="vertical" style={{ width: '100%' }}>
            <ProductPicker
              value={recommend[scene]}
              onChange={(ids) => setRecommend({ ...recommend, [scene]: ids })}
              known={new Map()}
              testId={`market-recommend-${scene}`}
            />
            <Button
              loading={saveRecommend.isPending && saveRecommend.variables === scene}
              onClick={() => saveRecommend.mutate(scene)}
              data-testid={`market-recommend-${scene}-save`}
            >
              {t('admin.save')}
            </Button>
          </Space>
        </div>
      ))}
      {problem && (
        <Typography.Text type="error" style={{ display: 'block', marginTop: 8 }}>
          {problem}
        </Typography.Text>
      )}
    </div>
  );
}
