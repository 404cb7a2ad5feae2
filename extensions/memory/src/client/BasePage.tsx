// One memory base: its name and description, the keys it keeps about users (add, describe, remove), the bots
// bound to it, how many users it remembers something of, and what it remembers about you.
import { Button, Card, Empty, Input, Space, Spin, Table, Tag, Typography } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ApiError, PageHeader, toast, useApi, useItemPath, usePageTitle } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import {
  DeleteFacts,
  DeleteMetas,
  GetMemoryBase,
  ListFacts,
  MetaUsers,
  UpdateMemoryBase,
  UpdateMetas,
  type MemoryBaseDetail as Detail,
} from '../shared/api.ts';
import type { MemoryMeta } from './api.ts';
import { useSpaceId } from './space.ts';

export function BasePage() {
  const { memorybase_id: id = '' } = useParams();
  const [params] = useSearchParams();
  const current = useSpaceId();
  const spaceId = params.get('space_id') ?? current;
  const api = useApi();
  const { t } = useTranslation('memory');
  const q = useQuery({
    queryKey: ['memory', 'base', id],
    enabled: !!spaceId,
    queryFn: () =>
      api.call(GetMemoryBase, { space_id: spaceId!, memorybase_id: id }, { handled: (e) => e.status === 404 }),
  });
  usePageTitle(q.data?.memorybase.name ?? t('bases.title'));
  if (q.isError) return <Empty description={t('bases.missing')} />;
  if (!q.data || !spaceId) return <Spin style={{ margin: 40 }} />;
  return <Base key={id} detail={q.data} spaceId={spaceId} />;
}

function Base({ detail, spaceId }: { detail: Detail; spaceId: string }) {
  const { t } = useTranslation('memory');
  const itemPath = useItemPath();
  const api = useApi();
  const qc = useQueryClient();
  const b = detail.memorybase;
  const id = b.memorybase_id;
  const [name, setName] = useState(b.name);
  const [description, setDescription] = useState(b.description);
  const [nameProblem, setNameProblem] = useState('');
  const refresh = () => qc.invalidateQueries({ queryKey: ['memory'] });
  const rename = useMutation({
    mutationFn: () =>
      api.call(
        UpdateMemoryBase,
        { space_id: spaceId, memorybase_id: id, name: name.trim(), description },
        { handled: (e: ApiError) => (e.status === 409 || e.status === 400 ? (setNameProblem(e.msg), true) : false) },
      ),
    onSuccess: async () => {
      toast.success(t('bases.saved'));
      await refresh();
    },
  });
  const [key, setKey] = useState('');
  const [keyHelp, setKeyHelp] = useState('');
  const [keyProblem, setKeyProblem] = useState('');
  const putMeta = useMutation({
    mutationFn: (m: MemoryMeta) =>
      api.call(
        UpdateMetas,
        { space_id: spaceId, memorybase_id: id, metas: [m] },
        { handled: (e: ApiError) => (e.status === 400 ? (setKeyProblem(e.msg), true) : false) },
      ),
    onSuccess: async () => {
      setKey('');
      setKeyHelp('');
      await refresh();
    },
  });
  const dropMeta = useMutation({
    mutationFn: (k: string) => api.call(DeleteMetas, { space_id: spaceId, memorybase_id: id, keys: [k] }),
    onSuccess: refresh,
  });
  const users = useQuery({
    queryKey: ['memory', 'base-users', id],
    queryFn: () => api.call(MetaUsers, { space_id: spaceId, memorybase_id: id }),
  });
  const mine = useQuery({
    queryKey: ['memory', 'base-mine', id],
    queryFn: () => api.call(ListFacts, { space_id: spaceId, memorybase_id: id }),
  });
  const forget = useMutation({
    mutationFn: (keys?: string[]) => api.call(DeleteFacts, { space_id: spaceId, memorybase_id: id, keys }),
    onSuccess: refresh,
  });
  const perKey = new Map((users.data?.keys ?? []).map((k) => [k.key, k.user_count]));
  return (
    <div data-testid="memory-base" style={{ maxWidth: 960 }}>
      <PageHeader back={{ to: `/memory?space_id=${spaceId}`, label: t('bases.back') }} title={b.name} />
      <Card title={t('bases.about')} size="small" style={{ marginBottom: 12 }}>
        <Space direction="vertical" style={{ width: '100%' }}>
          <Input
            value={name}
            maxLength={100}
            onChange={(v) => (setName(v), setNameProblem(''))}
            status={nameProblem ? 'error' : undefined}
            aria-label={t('bases.name')}
            data-testid="memory-base-rename"
          />
          {nameProblem && <Typography.Text type="error">{nameProblem}</Typography.Text>}
          <Input.TextArea
            value={description}
            maxLength={2000}
            onChange={setDescription}
            placeholder={t('bases.description')}
            autoSize={{ minRows: 2, maxRows: 5 }}
          />
          <Button
            type="primary"
            size="small"
            disabled={!name.trim() || (name === b.name && description === b.description)}
            loading={rename.isPending}
            onClick={() => rename.mutate()}
            data-testid="memory-base-save"
          >
            {t('bases.save')}
          </Button>
        </Space>
      </Card>
      <Card title={t('bases.keys')} size="small" style={{ marginBottom: 12 }}>
        <Typography.Paragraph type="secondary">{t('bases.keysHelp')}</Typography.Paragraph>
        <Table
          size="small"
          rowKey="key"
          pagination={false}
          data={b.metas}
          noDataElement={<Typography.Text type="secondary">{t('bases.anyKey')}</Typography.Text>}
          columns={[
            {
              title: t('bases.key'),
              dataIndex: 'key',
              width: 200,
              render: (k: string) => <Tag data-testid="memory-base-key">{k}</Tag>,
            },
            { title: t('bases.keyHelp'), dataIndex: 'description' },
            {
              title: t('bases.usersWithKey'),
              width: 140,
              render: (_: unknown, m: MemoryMeta) => perKey.get(m.key) ?? 0,
            },
            {
              title: '',
              width: 48,
              render: (_: unknown, m: MemoryMeta) => (
                <Button
                  size="mini"
                  type="text"
                  icon={<IconDelete />}
                  aria-label={t('bases.removeKey')}
                  onClick={() => dropMeta.mutate(m.key)}
                />
              ),
            },
          ]}
        />
        <Space style={{ marginTop: 8 }} align="start">
          <Input
            size="small"
            placeholder="city"
            value={key}
            onChange={(v) => (setKey(v), setKeyProblem(''))}
            status={keyProblem ? 'error' : undefined}
            style={{ width: 180 }}
            data-testid="memory-base-key-input"
          />
          <Input
            size="small"
            placeholder={t('bases.keyHelp')}
            value={keyHelp}
            maxLength={300}
            onChange={setKeyHelp}
            style={{ width: 320 }}
          />
          <Button
            size="small"
            icon={<IconPlus />}
            disabled={!key.trim()}
            loading={putMeta.isPending}
            onClick={() => putMeta.mutate({ key: key.trim(), description: keyHelp })}
            data-testid="memory-base-key-add"
          >
            {t('bases.addKey')}
          </Button>
        </Space>
        {keyProblem && (
          <Typography.Text type="error" style={{ display: 'block' }} data-testid="memory-base-key-problem">
            {keyProblem}
          </Typography.Text>
        )}
      </Card>
      <Card title={t('bases.usedBy')} size="small" style={{ marginBottom: 12 }}>
        {detail.used_by.length ? (
          <Space wrap>
            {detail.used_by.map((u) => (
              <Link key={u.id} to={itemPath('bot', u.id, spaceId) ?? ''} data-testid="memory-base-user">
                {u.name}
              </Link>
            ))}
          </Space>
        ) : (
          <Typography.Text type="secondary">{t('bases.unused')}</Typography.Text>
        )}
        <Typography.Paragraph
          type="secondary"
          style={{ marginTop: 8, marginBottom: 0 }}
          data-testid="memory-base-user-count"
        >
          {t('bases.userCount', { n: users.data?.user_count ?? 0 })}
        </Typography.Paragraph>
      </Card>
      <Card title={t('aboutYou')} size="small">
        {!mine.data?.facts.length && <Typography.Text type="secondary">{t('nothing')}</Typography.Text>}
        <Space wrap>
          {(mine.data?.facts ?? []).map((f) => (
            <Tag key={f.key} closable onClose={() => forget.mutate([f.key])}>
              {f.key}: {f.value}
            </Tag>
          ))}
        </Space>
      </Card>
    </div>
  );
}
