// What administrators curate, as people see it: the explore page's banner, recommended products, live
// topics (rows of products), and one topic's page (a draft one with its preview id).
import { Alert, Empty, Grid, Space, Spin, Typography } from '@arco-design/web-react';
import { useQuery } from '@tanstack/react-query';
import { PageHeader, useApi, usePageTitle } from '@tessera/sdk/client';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { localized, type Product } from './api.ts';
import { ProductCard } from './ProductCard.tsx';
// The home page's templates section draws these: the contract is read as types only, to keep it off the first page.
import type { EndpointOutput } from '@tessera/sdk';
import type { GetLandingInfo, GetTopicDetail, TopicGetCurrent } from '../shared/api.ts';

export function ProductRow({
  title,
  products,
  more,
  testId,
}: {
  title: React.ReactNode;
  products: Product[];
  more?: React.ReactNode;
  testId?: string;
}) {
  return (
    <div data-testid={testId} style={{ marginBottom: 16 }}>
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Title heading={6} style={{ margin: '8px 0' }}>
          {title}
        </Typography.Title>
        {more}
      </Space>
      <Grid.Row gutter={[12, 12]}>
        {products.map((p) => (
          <Grid.Col key={p.product_id} xs={24} md={12} lg={6}>
            <ProductCard product={p} />
          </Grid.Col>
        ))}
      </Grid.Row>
    </div>
  );
}

export function useTopics() {
  const api = useApi();
  return useQuery({
    queryKey: ['market', 'topics'],
    queryFn: () => api.get<EndpointOutput<typeof TopicGetCurrent>>('/api/marketplace/topic/get_current'),
  });
}

/** The topics' rows (the first products of each, and a link to the topic's page). */
export function TopicRows({ limit = 10 }: { limit?: number }) {
  const { t, i18n } = useTranslation('marketplace');
  const q = useTopics();
  return (
    <>
      {(q.data?.topics ?? []).slice(0, limit).map((topic) => (
        <ProductRow
          key={topic.topic_id}
          testId="market-topic"
          title={localized(i18n.language, topic.title, topic.title_zh)}
          products={(topic.products ?? []).slice(0, 4)}
          more={<Link to={`/explore/topics/${topic.topic_id}`}>{t('home.more')}</Link>}
        />
      ))}
    </>
  );
}

/** The top of the explore page: the banner, then the recommended products and the topics. */
export function ExploreTop() {
  const { t, i18n } = useTranslation('marketplace');
  const api = useApi();
  const q = useQuery({
    queryKey: ['market', 'landing', 'explore'],
    queryFn: () =>
      api.get<EndpointOutput<typeof GetLandingInfo>>('/api/marketplace/landing_info', { scene: 'explore' }),
  });
  const landing = q.data?.landing;
  const title = landing && localized(i18n.language, landing.title, landing.title_zh);
  return (
    <>
      {title && (
        <div
          data-testid="market-landing"
          style={{
            padding: '20px 24px',
            marginBottom: 16,
            borderRadius: 8,
            background: landing.cover
              ? `center / cover no-repeat url("${landing.cover.replace(/["\\\\]/g, '')}")`
              : 'var(--color-primary-light-1)',
          }}
        >
          <Typography.Title heading={4} style={{ margin: 0 }}>
            {title}
          </Typography.Title>
          <Typography.Text type="secondary">
            {localized(i18n.language, landing.subtitle, landing.subtitle_zh)}
          </Typography.Text>
        </div>
      )}
      {!!q.data?.recommended.length && (
        <ProductRow
          testId="market-recommended"
          title={t('curation.recommended')}
          products={q.data.recommended.slice(0, 8)}
        />
      )}
      <TopicRows />
    </>
  );
}

export function TopicPage() {
  const { topic_id: id = '' } = useParams();
  const [params] = useSearchParams();
  const { t, i18n } = useTranslation('marketplace');
  const api = useApi();
  const preview = params.get('preview_id') ?? undefined;
  const q = useQuery({
    queryKey: ['market', 'topic', id, preview],
    queryFn: () =>
      api.get<EndpointOutput<typeof GetTopicDetail>>(
        '/api/marketplace/topic/detail',
        { topic_id: id, preview_id: preview },
        { handled: (e) => e.status === 404 },
      ),
  });
  const topic = q.data?.topic;
  usePageTitle(topic ? localized(i18n.language, topic.title, topic.title_zh) : t('curation.topics'));
  if (q.isError) return <Empty description={t('curation.topicMissing')} />;
  if (!topic) return <Spin style={{ margin: 40 }} />;
  return (
    <div data-testid="market-topic-page">
      <PageHeader
        back={{ to: '/explore', label: t('curation.back') }}
        title={localized(i18n.language, topic.title, topic.title_zh)}
      />
      {q.data!.preview && (
        <Alert
          type="warning"
          content={t('curation.previewing')}
          style={{ marginBottom: 12 }}
          data-testid="market-topic-preview-note"
        />
      )}
      <Typography.Paragraph type="secondary">
        {localized(i18n.language, topic.description, topic.description_zh)}
      </Typography.Paragraph>
      <ProductRow title="" products={topic.products ?? []} />
    </div>
  );
}
