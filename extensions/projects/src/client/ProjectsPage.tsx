// The projects of the space: active or archived, search, create.
import { Button, Empty, Grid, Input, Radio, Space, Spin, Tag, Typography, Card } from '@arco-design/web-react';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  Modal,
  PageHeading,
  SearchInput,
  fieldErrors,
  toast,
  useApi,
  useFormat,
  usePageTitle,
  useCreateDialog,
  testId,
} from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useSpaceId } from './space.ts';
import { CreateProject, ListProjects } from '../shared/api.ts';

const PAGE = 30;

export function ProjectsPage() {
  const { t } = useTranslation('projects');
  usePageTitle(t('title'));
  const spaceId = useSpaceId();
  const api = useApi();
  const format = useFormat();
  const [name, setName] = useState('');
  const [archived, setArchived] = useState(false);
  const create = useCreateDialog();
  // A page of cards at a time; "Load more" asks for the next.
  const list = useInfiniteQuery({
    queryKey: ['projects', 'list', spaceId, name, archived],
    enabled: !!spaceId,
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      api.call(ListProjects, {
        space_id: spaceId ?? '',
        name: name || undefined,
        archived,
        page: pageParam,
        size: PAGE,
      }),
    getNextPageParam: (last, pages) => (last.has_more ? pages.length + 1 : undefined),
  });
  const projects = list.data?.pages.flatMap((p) => p.intelligences) ?? [];
  if (!spaceId) return <Typography.Paragraph>{t('noSpace')}</Typography.Paragraph>;
  return (
    <div data-testid="projects-page">
      <PageHeading
        title={t('title')}
        intro={t('intro')}
        action={
          <Button type="primary" onClick={create.show} data-testid="project-create">
            {t('create')}
          </Button>
        }
      />
      <Space style={{ marginBottom: 12 }}>
        <SearchInput placeholder={t('search')} onSearch={setName} />
        <Radio.Group type="button" value={archived} onChange={setArchived}>
          <Radio value={false}>{t('active')}</Radio>
          <Radio value={true}>{t('archived')}</Radio>
        </Radio.Group>
      </Space>
      {list.isLoading && <Spin style={{ display: 'block', margin: 24 }} />}
      {list.data && !projects.length && (
        <Empty description={archived ? t('noArchived') : name ? t('noMatch') : t('empty')} />
      )}
      <Grid.Row gutter={[12, 12]}>
        {projects.map((p) => (
          <Grid.Col key={p.project_id} xs={24} md={12} lg={8}>
            <Card hoverable data-testid="project-card">
              <Space direction="vertical" size={4} style={{ width: '100%' }}>
                <Space>
                  <Link
                    to={`/projects/${p.project_id}?space_id=${spaceId}`}
                    style={{ fontWeight: 600 }}
                    data-testid="project-link"
                  >
                    {p.name}
                  </Link>
                  {p.version && <Tag color="green">{p.version}</Tag>}
                </Space>
                <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ margin: 0 }}>
                  {p.description || '—'}
                </Typography.Paragraph>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t('cardMeta', { n: p.resource_count, time: format.dateTime(p.update_time * 1000) })}
                </Typography.Text>
              </Space>
            </Card>
          </Grid.Col>
        ))}
      </Grid.Row>
      {list.hasNextPage && (
        <Button
          long
          style={{ marginTop: 12 }}
          loading={list.isFetchingNextPage}
          onClick={() => void list.fetchNextPage()}
          data-testid="projects-more"
        >
          {t('loadMore')}
        </Button>
      )}
      {create.open && <CreateModal spaceId={spaceId} onClose={create.close} />}
    </div>
  );
}

function CreateModal({ spaceId, onClose }: { spaceId: string; onClose(): void }) {
  const { t } = useTranslation('projects');
  const api = useApi();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [problem, setProblem] = useState('');
  const create = useMutation({
    mutationFn: () =>
      api.call(
        CreateProject,
        { space_id: spaceId, name: name.trim(), description },
        {
          handled: (e) =>
            e.status === 409 ? (setProblem(e.msg), true) : fieldErrors(['name'], (_f, m) => setProblem(m))(e),
        },
      ),
    onSuccess: async (r) => {
      toast.success(t('created'));
      await qc.invalidateQueries({ queryKey: ['projects'] });
      onClose();
      void navigate(`/projects/${r.project_id}?space_id=${spaceId}`);
    },
  });
  return (
    <Modal
      visible
      title={t('create')}
      onCancel={onClose}
      onOk={() => create.mutate()}
      confirmLoading={create.isPending}
      okButtonProps={{ disabled: !name.trim(), ...testId('project-create-save') }}
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Input
          placeholder={t('name')}
          value={name}
          maxLength={100}
          onChange={(v) => (setName(v), setProblem(''))}
          status={problem ? 'error' : undefined}
          data-testid="project-create-name"
        />
        {problem && <Typography.Text type="error">{problem}</Typography.Text>}
        <Input.TextArea
          placeholder={t('description')}
          value={description}
          maxLength={2000}
          onChange={setDescription}
          autoSize={{ minRows: 2, maxRows: 5 }}
        />
      </Space>
    </Modal>
  );
}
