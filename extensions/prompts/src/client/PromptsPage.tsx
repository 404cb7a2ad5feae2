// The prompts of the space: search, create (a key apps fetch it by, a name), open.
import { Button, Input, Space, Tag, Typography } from '@arco-design/web-react';
import { useMutation } from '@tanstack/react-query';
import {
  type ApiError,
  EmptyState,
  fieldErrors,
  InfiniteTable,
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
import { CreatePrompt, ListPrompts } from '../shared/api.ts';
import type { PromptItem } from './api.ts';
import { useSpaceId } from './space.ts';

const PAGE = 50;

export function PromptsPage() {
  const { t } = useTranslation('prompts');
  usePageTitle(t('title'));
  const spaceId = useSpaceId();
  const api = useApi();
  const format = useFormat();
  const [kw, setKw] = useState('');
  const create = useCreateDialog();
  if (!spaceId) return <Typography.Paragraph>{t('noSpace')}</Typography.Paragraph>;
  return (
    <div data-testid="prompts-page">
      <PageHeading
        title={t('title')}
        intro={t('intro')}
        action={
          <Button type="primary" onClick={create.show} data-testid="prompt-create">
            {t('create')}
          </Button>
        }
      />
      <div style={{ marginBottom: 12 }}>
        <SearchInput placeholder={t('search')} onSearch={setKw} />
      </div>
      {/* A page at a time, the next as the list scrolls to its end. */}
      <InfiniteTable<PromptItem>
        rowKey="id"
        queryKey={['prompts', 'list', spaceId, kw]}
        fetchPage={async (cursor) => {
          const page = Number(cursor ?? 1);
          const r = await api.call(ListPrompts, {
            workspace_id: spaceId,
            key_word: kw || undefined,
            page_num: page,
            page_size: PAGE,
          });
          return { items: r.prompts, next: page * PAGE < r.total ? page + 1 : undefined };
        }}
        empty={
          kw ? (
            <EmptyState description={t('noMatch')} />
          ) : (
            <EmptyState
              description={t('empty')}
              action={
                <Button type="primary" onClick={create.show} data-testid="prompt-empty-create">
                  {t('create')}
                </Button>
              }
            />
          )
        }
        columns={[
          {
            title: t('name'),
            render: (_: unknown, p) => (
              <div>
                <Link
                  to={`/prompts/${p.id}?space_id=${p.workspace_id}`}
                  style={{ fontWeight: 500 }}
                  data-testid="prompt-link"
                >
                  {p.prompt_basic.display_name}
                </Link>
                <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
                  {p.prompt_key}
                </Typography.Text>
              </div>
            ),
          },
          { title: t('description'), render: (_: unknown, p) => p.prompt_basic.description || '—' },
          {
            title: t('latest'),
            width: 120,
            render: (_: unknown, p) =>
              p.prompt_basic.latest_version ? (
                <Tag color="green">{p.prompt_basic.latest_version}</Tag>
              ) : (
                <Tag>{t('draftOnly')}</Tag>
              ),
          },
          {
            title: t('updated'),
            width: 190,
            render: (_: unknown, p) => format.dateTime(p.prompt_basic.updated_at * 1000),
          },
        ]}
      />
      {create.open && <CreateModal spaceId={spaceId} onClose={create.close} />}
    </div>
  );
}

function CreateModal({ spaceId, onClose }: { spaceId: string; onClose(): void }) {
  const { t } = useTranslation('prompts');
  const api = useApi();
  const navigate = useNavigate();
  const [key, setKey] = useState('');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [problem, setProblem] = useState<{ field: string; msg: string }>();
  const create = useMutation({
    mutationFn: () =>
      api.call(
        CreatePrompt,
        { workspace_id: spaceId, prompt_key: key.trim(), prompt_name: name.trim(), prompt_description: description },
        {
          handled: (e: ApiError) =>
            e.status === 409
              ? (setProblem({ field: 'prompt_key', msg: e.msg }), true)
              : fieldErrors(['prompt_key', 'prompt_name'], (field, msg) => setProblem({ field, msg }))(e),
        },
      ),
    onSuccess: (r) => {
      toast.success(t('created'));
      onClose();
      void navigate(`/prompts/${r.prompt_id}?space_id=${spaceId}`);
    },
  });
  return (
    <Modal
      visible
      title={t('create')}
      onCancel={onClose}
      onOk={() => create.mutate()}
      confirmLoading={create.isPending}
      okButtonProps={{ disabled: !key.trim() || !name.trim(), ...testId('prompt-create-save') }}
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Text>{t('key')}</Typography.Text>
        <Input
          placeholder="support.reply"
          value={key}
          onChange={(v) => (setKey(v), setProblem(undefined))}
          status={problem?.field === 'prompt_key' ? 'error' : undefined}
          data-testid="prompt-key"
        />
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('keyHelp')}
        </Typography.Text>
        <Typography.Text>{t('name')}</Typography.Text>
        <Input
          value={name}
          maxLength={100}
          onChange={(v) => (setName(v), setProblem(undefined))}
          status={problem?.field === 'prompt_name' ? 'error' : undefined}
          data-testid="prompt-name"
        />
        {problem && <Typography.Text type="error">{problem.msg}</Typography.Text>}
        <Typography.Text>{t('description')}</Typography.Text>
        <Input.TextArea
          value={description}
          maxLength={2000}
          onChange={setDescription}
          autoSize={{ minRows: 2, maxRows: 4 }}
        />
      </Space>
    </Modal>
  );
}
