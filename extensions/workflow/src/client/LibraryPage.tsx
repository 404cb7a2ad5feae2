import {
  Button,
  Checkbox,
  Form,
  Input,
  Popconfirm,
  Radio,
  Select,
  Space,
  Tag,
  Typography,
} from '@arco-design/web-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  EmptyState,
  fieldErrors,
  InfiniteTable,
  LimitedInput,
  Modal,
  PageHeading,
  SearchInput,
  toast,
  useApi,
  useCreateDialog,
  useFormat,
  usePageTitle,
  testId,
} from '@tessera/sdk/client';
import { Link, useNavigate } from 'react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSpaceId } from './space.ts';
import { WORKFLOW_ICONS, WorkflowIcon, type WorkflowListItem } from './icons.tsx';
import { ListStatus, OrderBy, PublishStatus, SortDirection, WorkflowMode } from '@tessera/workflow-sdk';
import { CopyWorkflow, CreateWorkflow, DeleteWorkflow, ListReferences, ListWorkflows } from '../shared/api.ts';

interface Filters {
  name: string;
  flowMode: number;
  status: number;
  mine: boolean;
  orderBy: number;
  sort: number;
}

const PAGE = 20;

export function LibraryPage() {
  const format = useFormat();
  const { t } = useTranslation('workflow');
  usePageTitle(t('title'));
  const spaceId = useSpaceId();
  const [filters, setFilters] = useState<Filters>({
    name: '',
    flowMode: WorkflowMode.All,
    status: 0,
    mine: false,
    orderBy: OrderBy.UpdateTime,
    sort: SortDirection.Desc,
  });
  // ?create=1 (the home page's create button) opens the create dialog.
  const create = useCreateDialog();
  const api = useApi();
  const set = (patch: Partial<Filters>) => setFilters((f) => ({ ...f, ...patch }));
  if (!spaceId) return <Typography.Paragraph>{t('noSpace')}</Typography.Paragraph>;
  const filtered = filters.name || filters.flowMode !== WorkflowMode.All || filters.status || filters.mine;

  return (
    <div data-testid="workflow-library">
      <PageHeading
        title={t('title')}
        intro={t('intro')}
        action={
          <Button type="primary" onClick={create.show} data-testid="workflow-create">
            {t('create')}
          </Button>
        }
      />
      <Space wrap style={{ marginBottom: 12 }}>
        <SearchInput placeholder={t('search')} onSearch={(name) => set({ name })} data-testid="workflow-search" />
        <Select
          style={{ width: 140 }}
          value={filters.flowMode}
          onChange={(flowMode) => set({ flowMode })}
          data-testid="workflow-filter-mode"
          aria-label={t('filter.mode')}
        >
          <Select.Option value={WorkflowMode.All}>{`${t('filter.mode')}: ${t('filter.all')}`}</Select.Option>
          <Select.Option value={WorkflowMode.Workflow}>{t('mode.0')}</Select.Option>
          <Select.Option value={WorkflowMode.ChatFlow}>{t('mode.3')}</Select.Option>
        </Select>
        <Select
          style={{ width: 150 }}
          value={filters.status}
          onChange={(status) => set({ status })}
          data-testid="workflow-filter-status"
          aria-label={t('filter.status')}
        >
          <Select.Option value={0}>{`${t('filter.status')}: ${t('filter.all')}`}</Select.Option>
          <Select.Option value={ListStatus.UnPublished}>{t('status.unpublished')}</Select.Option>
          <Select.Option value={ListStatus.HadPublished}>{t('status.published')}</Select.Option>
        </Select>
        <Select
          style={{ width: 150 }}
          value={filters.orderBy}
          onChange={(orderBy) => set({ orderBy })}
          data-testid="workflow-sort"
          aria-label={t('sort.label')}
        >
          <Select.Option value={OrderBy.UpdateTime}>{t('sort.updated')}</Select.Option>
          <Select.Option value={OrderBy.CreateTime}>{t('sort.created')}</Select.Option>
          <Select.Option value={OrderBy.PublishTime}>{t('sort.published')}</Select.Option>
        </Select>
        <Select
          style={{ width: 130 }}
          value={filters.sort}
          onChange={(sort) => set({ sort })}
          data-testid="workflow-sort-direction"
        >
          <Select.Option value={SortDirection.Desc}>{t('sort.desc')}</Select.Option>
          <Select.Option value={SortDirection.Asc}>{t('sort.asc')}</Select.Option>
        </Select>
        <Checkbox checked={filters.mine} onChange={(mine) => set({ mine })} data-testid="workflow-filter-mine">
          {t('filter.mine')}
        </Checkbox>
      </Space>
      <InfiniteTable<WorkflowListItem>
        data-testid="workflow-table"
        rowKey="workflow_id"
        queryKey={['workflow', 'list', spaceId, filters]}
        // Nothing yet: what would be here and the button that makes the first one; nothing found: just that.
        empty={
          filtered ? (
            <EmptyState description={t('emptySearch')} />
          ) : (
            <EmptyState
              description={t('empty')}
              action={
                <Button type="primary" onClick={create.show} data-testid="workflow-empty-create">
                  {t('create')}
                </Button>
              }
            />
          )
        }
        fetchPage={async (cursor) => {
          const page = Number(cursor ?? 1);
          const r = await api.call(ListWorkflows, {
            space_id: spaceId,
            page,
            size: PAGE,
            name: filters.name || undefined,
            flow_mode: filters.flowMode,
            status: filters.status || undefined,
            login_user_create: filters.mine || undefined,
            order_by: filters.orderBy,
            sort_type: filters.sort,
          });
          return { items: r.workflow_list, next: r.has_more ? page + 1 : undefined };
        }}
        columns={[
          {
            title: t('columns.name'),
            dataIndex: 'name',
            render: (_: unknown, w: WorkflowListItem) => (
              <Space data-testid="workflow-row" data-workflow-id={w.workflow_id}>
                <WorkflowIcon item={w} />
                <div>
                  <Link
                    to={`/workflows/${w.workflow_id}?space_id=${w.space_id}`}
                    style={{ fontWeight: 500, display: 'block' }}
                    data-testid="workflow-name"
                  >
                    {w.name}
                  </Link>
                  {w.desc && (
                    <Typography.Text type="secondary" ellipsis style={{ maxWidth: 420, display: 'block' }}>
                      {w.desc}
                    </Typography.Text>
                  )}
                </div>
              </Space>
            ),
          },
          {
            title: t('columns.mode'),
            dataIndex: 'flow_mode',
            width: 110,
            render: (m: number) => <Tag>{t(`mode.${m === WorkflowMode.ChatFlow ? 3 : 0}`)}</Tag>,
          },
          {
            title: t('columns.status'),
            dataIndex: 'publish_status',
            width: 150,
            render: (s: number) => (
              <Tag
                color={
                  s === PublishStatus.HadPublished ? 'green' : s === PublishStatus.CanPublish ? 'arcoblue' : 'gray'
                }
              >
                {t(`publish.${s}`)}
              </Tag>
            ),
          },
          {
            title: t('columns.version'),
            dataIndex: 'latest_version',
            width: 100,
            render: (v: string | null) => v ?? '—',
          },
          {
            title: t('columns.updated'),
            dataIndex: 'update_time',
            width: 200,
            render: (s: number) => <span style={{ whiteSpace: 'nowrap' }}>{format.dateTime(s * 1000)}</span>,
          },
          {
            title: '',
            key: 'actions',
            width: 150,
            render: (_: unknown, w: WorkflowListItem) => <RowActions item={w} spaceId={spaceId} />,
          },
        ]}
      />
      {create.open && <CreateModal spaceId={spaceId} onClose={create.close} />}
    </div>
  );
}

function RowActions({ item, spaceId }: { item: WorkflowListItem; spaceId: string }) {
  const { t } = useTranslation('workflow');
  const api = useApi();
  const qc = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const refresh = () => qc.invalidateQueries({ queryKey: ['workflow', 'list', spaceId] });
  const copy = useMutation({
    mutationFn: () => api.call(CopyWorkflow, { space_id: spaceId, workflow_id: item.workflow_id }),
    onSuccess: async () => {
      toast.success(t('copied', { name: `${item.name} (copy)` }));
      await refresh();
    },
  });
  // The delete check: who uses this workflow, asked when the confirmation opens.
  const refs = useQuery({
    queryKey: ['workflow', 'references', item.workflow_id],
    enabled: confirming,
    queryFn: () =>
      api.call(ListReferences, {
        space_id: spaceId,
        workflow_id: item.workflow_id,
      }),
  });
  const remove = useMutation({
    mutationFn: () => api.call(DeleteWorkflow, { space_id: spaceId, workflow_id: item.workflow_id }),
    onSuccess: async () => {
      toast.success(t('deleted'));
      await refresh();
    },
  });
  const used = refs.data?.workflow_list ?? [];
  return (
    <Space size={4}>
      <Button
        size="mini"
        type="text"
        loading={copy.isPending}
        onClick={() => copy.mutate()}
        data-testid="workflow-copy"
      >
        {t('copy')}
      </Button>
      <Popconfirm
        popupVisible={confirming}
        onVisibleChange={setConfirming}
        title={t('deleteTitle', { name: item.name })}
        content={
          <div data-testid="workflow-delete-check" style={{ maxWidth: 320 }}>
            {refs.isLoading ? (
              t('deleteChecking')
            ) : used.length ? (
              <Typography.Text type="warning">
                {t('deleteUsed', { names: used.map((u) => u.name).join(', ') })}
              </Typography.Text>
            ) : (
              t('deleteFree')
            )}
          </div>
        }
        okButtonProps={{
          status: 'danger',
          disabled: refs.isLoading,
          ...testId('workflow-delete-confirm'),
        }}
        onOk={() => remove.mutate()}
      >
        <Button size="mini" type="text" status="danger" data-testid="workflow-delete">
          {t('delete')}
        </Button>
      </Popconfirm>
    </Space>
  );
}

function CreateModal({ spaceId, onClose }: { spaceId: string; onClose(): void }) {
  const { t } = useTranslation('workflow');
  const api = useApi();
  const qc = useQueryClient();
  const [name, setName] = useState('');
  const [desc, setDesc] = useState('');
  const [icon, setIcon] = useState('branch');
  const [mode, setMode] = useState<0 | 3>(WorkflowMode.Workflow);
  const navigate = useNavigate();
  // A problem with the name (taken in this space) is shown under the field: its one place.
  const [nameProblem, setNameProblem] = useState('');
  const create = useMutation({
    mutationFn: () =>
      api.call(
        CreateWorkflow,
        { space_id: spaceId, name: name.trim(), desc, icon_uri: `icon:${icon}`, flow_mode: mode },
        { handled: fieldErrors(['name'], (_f, msg) => setNameProblem(msg)) },
      ),
    onSuccess: async (r) => {
      toast.success(t('created'));
      await qc.invalidateQueries({ queryKey: ['workflow', 'list', spaceId] });
      onClose();
      // A new workflow opens in the editor.
      void navigate(`/workflows/${r.workflow_id}?space_id=${spaceId}`);
    },
  });
  return (
    <Modal
      visible
      size="medium"
      title={t('form.title')}
      onCancel={onClose}
      onOk={() => create.mutate()}
      confirmLoading={create.isPending}
      okButtonProps={{ disabled: !name.trim(), ...testId('workflow-create-save') }}
    >
      <Form layout="vertical">
        <Form.Item label={t('form.mode')}>
          <Radio.Group type="button" value={mode} onChange={setMode} data-testid="workflow-create-mode">
            <Radio value={WorkflowMode.Workflow}>{t('mode.0')}</Radio>
            <Radio value={WorkflowMode.ChatFlow}>{t('mode.3')}</Radio>
          </Radio.Group>
          <Typography.Text type="secondary" style={{ display: 'block', marginTop: 4 }}>
            {t(`form.modeHelp.${mode === WorkflowMode.ChatFlow ? 3 : 0}`)}
          </Typography.Text>
        </Form.Item>
        <Form.Item label={t('form.name')} required>
          <LimitedInput
            value={name}
            maxLength={100}
            problem={nameProblem}
            placeholder={t('form.namePlaceholder')}
            onChange={(v) => {
              setName(v);
              setNameProblem('');
            }}
            testId="workflow-create-name"
          />
        </Form.Item>
        <Form.Item label={t('form.desc')}>
          <Input.TextArea
            value={desc}
            maxLength={2000}
            showWordLimit
            autoSize={{ minRows: 2, maxRows: 5 }}
            onChange={setDesc}
            data-testid="workflow-create-desc"
          />
        </Form.Item>
        <Form.Item label={t('form.icon')}>
          <Space wrap data-testid="workflow-create-icons">
            {Object.keys(WORKFLOW_ICONS).map((key) => (
              <button
                key={key}
                type="button"
                onClick={() => setIcon(key)}
                aria-pressed={key === icon}
                aria-label={key}
                style={{
                  padding: 2,
                  border: `2px solid ${key === icon ? 'rgb(var(--primary-6))' : 'transparent'}`,
                  borderRadius: 6,
                  background: 'none',
                  cursor: 'pointer',
                }}
              >
                <WorkflowIcon item={{ icon_uri: `icon:${key}`, name }} size={28} />
              </button>
            ))}
          </Space>
        </Form.Item>
      </Form>
    </Modal>
  );
}
