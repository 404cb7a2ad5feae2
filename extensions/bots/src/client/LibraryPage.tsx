import { Button, Form, Input, Popconfirm, Select, Space, Tag, Typography } from '@arco-design/web-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
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
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { BotListItem } from './api.ts';
import { BOT_COLORS, BotIcon, IconPicker } from './BotIcon.tsx';
import { useSpaceId } from './space.ts';
import { CreateBot, DeleteBot, DuplicateBot, ListBots } from '../shared/api.ts';

const PAGE = 20;

export function LibraryPage() {
  const { t } = useTranslation('bots');
  usePageTitle(t('title'));
  const format = useFormat();
  const api = useApi();
  const spaceId = useSpaceId();
  const [name, setName] = useState('');
  const [orderBy, setOrderBy] = useState<'update_time' | 'create_time' | 'name'>('update_time');
  const [published, setPublished] = useState<'all' | 'yes' | 'no'>('all');
  const create = useCreateDialog();
  if (!spaceId) return <Typography.Paragraph>{t('noSpace')}</Typography.Paragraph>;
  return (
    <div data-testid="bot-library">
      <PageHeading
        title={t('title')}
        intro={t('intro')}
        action={
          <Button type="primary" onClick={create.show} data-testid="bot-create">
            {t('create')}
          </Button>
        }
      />
      <Space wrap style={{ marginBottom: 12 }}>
        <SearchInput placeholder={t('search')} onSearch={setName} data-testid="bot-search" />
        <Select
          style={{ width: 150 }}
          value={orderBy}
          onChange={setOrderBy}
          aria-label={t('sort.label')}
          data-testid="bot-sort"
        >
          <Select.Option value="update_time">{t('sort.updated')}</Select.Option>
          <Select.Option value="create_time">{t('sort.created')}</Select.Option>
          <Select.Option value="name">{t('sort.name')}</Select.Option>
        </Select>
        <Select
          style={{ width: 150 }}
          value={published}
          onChange={setPublished}
          aria-label={t('filter.status')}
          data-testid="bot-filter-status"
        >
          <Select.Option value="all">{`${t('filter.status')}: ${t('filter.all')}`}</Select.Option>
          <Select.Option value="yes">{t('status.published')}</Select.Option>
          <Select.Option value="no">{t('status.unpublished')}</Select.Option>
        </Select>
      </Space>
      <InfiniteTable<BotListItem>
        data-testid="bot-table"
        rowKey="bot_id"
        queryKey={['bots', 'list', spaceId, name, orderBy, published]}
        // Nothing yet: what would be here and the button that makes the first one; nothing found: just that.
        empty={
          name || published !== 'all' ? (
            <EmptyState description={t('emptySearch')} />
          ) : (
            <EmptyState
              description={t('empty')}
              action={
                <Button type="primary" onClick={create.show} data-testid="bot-empty-create">
                  {t('create')}
                </Button>
              }
            />
          )
        }
        fetchPage={async (cursor) => {
          const page = Number(cursor ?? 1);
          const r = await api.call(ListBots, {
            space_id: spaceId,
            bot_name: name || undefined,
            order_by: orderBy,
            page_index: page,
            page_size: PAGE,
            is_publish: published === 'all' ? undefined : published === 'yes',
          });
          return { items: r.bot_draft_list, next: r.has_more ? page + 1 : undefined };
        }}
        columns={[
          {
            title: t('columns.name'),
            dataIndex: 'name',
            render: (_: unknown, b: BotListItem) => (
              <Space data-testid="bot-row" data-bot-id={b.bot_id}>
                <BotIcon bot={b} />
                <div>
                  <Link
                    to={`/bots/${b.bot_id}?space_id=${b.space_id}`}
                    style={{ fontWeight: 500, display: 'block' }}
                    data-testid="bot-name-link"
                  >
                    {b.name}
                  </Link>
                  {b.description && (
                    <Typography.Text type="secondary" ellipsis style={{ maxWidth: 420, display: 'block' }}>
                      {b.description}
                    </Typography.Text>
                  )}
                </div>
              </Space>
            ),
          },
          {
            title: t('columns.status'),
            dataIndex: 'latest_version',
            width: 160,
            render: (v: string | null, b: BotListItem) =>
              v ? (
                <Tag color={b.has_unpublished_changes ? 'orange' : 'green'}>
                  {b.has_unpublished_changes ? t('editor.changedSince', { version: v }) : v}
                </Tag>
              ) : (
                <Tag>{t('status.unpublished')}</Tag>
              ),
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
            width: 200,
            render: (_: unknown, b: BotListItem) => <RowActions bot={b} spaceId={spaceId} />,
          },
        ]}
      />
      {create.open && <CreateModal spaceId={spaceId} onClose={create.close} />}
    </div>
  );
}

function RowActions({ bot, spaceId }: { bot: BotListItem; spaceId: string }) {
  const { t } = useTranslation('bots');
  const api = useApi();
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries({ queryKey: ['bots', 'list', spaceId] });
  const copy = useMutation({
    mutationFn: () => api.call(DuplicateBot, { space_id: spaceId, bot_id: bot.bot_id }),
    onSuccess: async (r) => {
      toast.success(t('copied', { name: r.name }));
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () => api.call(DeleteBot, { space_id: spaceId, bot_id: bot.bot_id }),
    onSuccess: async () => {
      toast.success(t('deleted'));
      await refresh();
    },
  });
  return (
    <Space size={4}>
      {bot.latest_version && (
        <Link to={`/bots/${bot.bot_id}/chat?space_id=${spaceId}`} data-testid="bot-chat-link">
          {t('editor.chatPage')}
        </Link>
      )}
      <Button size="mini" type="text" loading={copy.isPending} onClick={() => copy.mutate()} data-testid="bot-copy">
        {t('copy')}
      </Button>
      <Popconfirm
        title={t('deleteTitle', { name: bot.name })}
        content={bot.latest_version ? t('deletePublished') : undefined}
        okButtonProps={{ status: 'danger', ...testId('bot-delete-confirm') }}
        onOk={() => remove.mutate()}
      >
        <Button size="mini" type="text" status="danger" data-testid="bot-delete">
          {t('delete')}
        </Button>
      </Popconfirm>
    </Space>
  );
}

function CreateModal({ spaceId, onClose }: { spaceId: string; onClose(): void }) {
  const { t } = useTranslation('bots');
  const api = useApi();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [icon, setIcon] = useState(() => `color:${BOT_COLORS[Math.floor(Math.random() * BOT_COLORS.length)]}`);
  const [nameProblem, setNameProblem] = useState('');
  const create = useMutation({
    mutationFn: () =>
      api.call(
        CreateBot,
        { space_id: spaceId, name: name.trim(), description, icon_uri: icon },
        { handled: fieldErrors(['name'], (_f, msg) => setNameProblem(msg)) },
      ),
    onSuccess: async (r) => {
      toast.success(t('created'));
      await qc.invalidateQueries({ queryKey: ['bots', 'list', spaceId] });
      onClose();
      void navigate(`/bots/${r.bot_id}?space_id=${spaceId}`);
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
      okButtonProps={{ disabled: !name.trim(), ...testId('bot-create-save') }}
    >
      <Form layout="vertical">
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
            testId="bot-create-name"
          />
        </Form.Item>
        <Form.Item label={t('form.desc')}>
          <Input.TextArea
            value={description}
            maxLength={2000}
            showWordLimit
            autoSize={{ minRows: 2, maxRows: 5 }}
            onChange={setDescription}
            data-testid="bot-create-desc"
          />
        </Form.Item>
        <Form.Item label={t('form.icon')}>
          <IconPicker name={name} value={icon} onChange={setIcon} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
