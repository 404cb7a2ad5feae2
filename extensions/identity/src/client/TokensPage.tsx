import {
  Button,
  Checkbox,
  DatePicker,
  Form,
  Input,
  Popconfirm,
  Select,
  Space,
  Tag,
  Typography,
} from '@arco-design/web-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  InfiniteTable,
  Modal,
  PageHeader,
  toast,
  useApi,
  useFormat,
  usePageTitle,
  useRegistry,
  useStudio,
  testId,
} from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTokenPermissions } from './permissions.ts';
import { CreateToken, DeleteToken, ListTokens } from '../shared/api.ts';
import { PAT_DURATIONS, TokenEnterpriseSources, TokenWorkspaceSources, type PatInfo } from '../shared/index.ts';

/** A duration the form offers (days, as the contract takes them), or a date picked. */
type Expiry = `${(typeof PAT_DURATIONS)[number]}` | 'permanent' | 'custom';

interface WorkspaceRow {
  workspace_id?: string;
  permissions: string[];
}

function CreateTokenModal({
  visible,
  onClose,
  onCreated,
}: {
  visible: boolean;
  onClose(): void;
  onCreated(secret: string): void;
}) {
  const { t } = useTranslation('identity');
  const { language } = useStudio();
  const api = useApi();
  const sources = useRegistry(TokenWorkspaceSources);
  const [name, setName] = useState('');
  const [expiry, setExpiry] = useState<Expiry>('30');
  const [customDate, setCustomDate] = useState<number | undefined>();
  const [rows, setRows] = useState<WorkspaceRow[]>([]);
  const [account, setAccount] = useState<string[]>([]);
  const [enterprise, setEnterprise] = useState<{ id?: string; permissions: string[] }>({ permissions: [] });
  const enterpriseSources = useRegistry(TokenEnterpriseSources);
  const enterprises = useQuery({
    queryKey: ['identity', 'pat-enterprises'],
    queryFn: async () => (await Promise.all(enterpriseSources.map((s) => s.list()))).flat(),
    enabled: visible && enterpriseSources.length > 0,
  });
  const perms = useTokenPermissions();
  const workspaces = useQuery({
    queryKey: ['identity', 'pat-workspaces'],
    queryFn: async () => (await Promise.all(sources.map((s) => s.list()))).flat(),
    enabled: visible,
  });
  /** The permissions held where `scope` says (per workspace, for the account, for an enterprise), as checkboxes. */
  const options = (scope: 'workspace' | 'account' | 'enterprise') =>
    (perms.data ?? [])
      .filter((p) => (p.scope ?? 'workspace') === scope)
      .map((p) => ({ label: p.label[language] ?? p.key, value: p.key }));
  const create = useMutation({
    mutationFn: () =>
      api.call(CreateToken, {
        name,
        ...(expiry === 'custom' ? { expire_at: Math.floor((customDate ?? 0) / 1000) } : { duration_day: expiry }),
        workspace_permission_list: rows.flatMap((r) =>
          r.workspace_id ? [{ workspace_id: r.workspace_id, permissions: r.permissions }] : [],
        ),
        account_permission: { permission_list: account },
        ...(enterprise.id
          ? { enterprise_permission: { enterprise_id: enterprise.id, permission_list: enterprise.permissions } }
          : {}),
      }),
    onSuccess: (r) => {
      setName('');
      setRows([]);
      setAccount([]);
      setEnterprise({ permissions: [] });
      onCreated(r.token);
    },
  });
  return (
    <Modal
      visible={visible}
      size="medium"
      title={t('tokens.create')}
      onCancel={onClose}
      onOk={() => create.mutate()}
      confirmLoading={create.isPending}
      okButtonProps={{
        disabled: !name.trim() || (expiry === 'custom' && !customDate),
        ...testId('token-create-ok'),
      }}
    >
      <Form layout="vertical">
        <Form.Item label={t('tokens.name')} required>
          <Input value={name} onChange={setName} data-testid="token-name" maxLength={100} />
        </Form.Item>
        <Form.Item label={t('tokens.expiry')} required>
          <Space>
            <Select value={expiry} onChange={setExpiry} style={{ width: 180 }} data-testid="token-expiry">
              {PAT_DURATIONS.map((d) => (
                <Select.Option key={d} value={String(d)}>
                  {t('tokens.days', { count: d })}
                </Select.Option>
              ))}
              <Select.Option value="permanent">{t('tokens.permanent')}</Select.Option>
              <Select.Option value="custom">{t('tokens.custom')}</Select.Option>
            </Select>
            {expiry === 'custom' && (
              <DatePicker
                showTime
                placeholder={t('tokens.customDate')}
                disabledDate={(d) => d.valueOf() < Date.now()}
                onChange={(_, d) => setCustomDate(d?.valueOf())}
              />
            )}
          </Space>
        </Form.Item>
        <Form.Item label={t('tokens.workspaces')}>
          {rows.length === 0 && <Typography.Text type="secondary">{t('tokens.noWorkspaces')}</Typography.Text>}
          {rows.map((row, i) => (
            <div
              key={i}
              style={{ border: '1px solid var(--color-border-2)', borderRadius: 4, padding: 8, marginBottom: 8 }}
              data-testid="token-workspace-row"
            >
              <Space style={{ marginBottom: 8 }}>
                <Select
                  placeholder={t('tokens.workspace')}
                  style={{ width: 240 }}
                  value={row.workspace_id}
                  data-testid="token-workspace-select"
                  onChange={(v) => setRows(rows.map((r, j) => (j === i ? { ...r, workspace_id: v } : r)))}
                  options={(workspaces.data ?? []).map((w) => ({
                    label: w.name,
                    value: w.id,
                    disabled: rows.some((r, j) => j !== i && r.workspace_id === w.id),
                  }))}
                />
                <Button size="small" status="danger" onClick={() => setRows(rows.filter((_, j) => j !== i))}>
                  ✕
                </Button>
              </Space>
              <Checkbox.Group
                value={row.permissions}
                onChange={(v) => setRows(rows.map((r, j) => (j === i ? { ...r, permissions: v } : r)))}
                options={options('workspace')}
              />
            </div>
          ))}
          <Button
            size="small"
            onClick={() => setRows([...rows, { permissions: options('workspace').map((p) => p.value) }])}
            data-testid="token-add-workspace"
          >
            {t('tokens.addWorkspace')}
          </Button>
        </Form.Item>
        {options('account').length > 0 && (
          <Form.Item label={t('tokens.account')} extra={t('tokens.accountHint')}>
            <div data-testid="token-account">
              <Checkbox.Group value={account} onChange={setAccount} options={options('account')} />
            </div>
          </Form.Item>
        )}
        {options('enterprise').length > 0 && !!enterprises.data?.length && (
          <Form.Item label={t('tokens.enterprise')} extra={t('tokens.enterpriseHint')}>
            <Select
              allowClear
              placeholder={t('tokens.enterpriseChoose')}
              style={{ width: 240, marginBottom: 8 }}
              value={enterprise.id}
              onChange={(id?: string) => setEnterprise({ id, permissions: id ? enterprise.permissions : [] })}
              options={enterprises.data.map((e) => ({ label: e.name, value: e.id }))}
              data-testid="token-enterprise"
            />
            {enterprise.id && (
              <Checkbox.Group
                value={enterprise.permissions}
                onChange={(v) => setEnterprise({ ...enterprise, permissions: v })}
                options={options('enterprise')}
              />
            )}
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}

export function TokensPage() {
  const format = useFormat();
  const fmt = (sec: number, never: string) => (sec > 0 ? format.dateTime(sec * 1000) : never);
  const { t } = useTranslation('identity');
  const api = useApi();
  const qc = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  usePageTitle(t('tokens.title'));

  const revoke = useMutation({
    mutationFn: (id: string) => api.call(DeleteToken, { id }),
    onSuccess: () => {
      toast.success(t('tokens.revoked'));
      return qc.invalidateQueries({ queryKey: ['identity', 'pats'] });
    },
  });
  return (
    <div className="tessera-page" data-testid="tokens-page">
      <PageHeader
        title={t('tokens.title')}
        intro={t('tokens.intro')}
        actions={
          <Button type="primary" onClick={() => setCreating(true)} data-testid="token-create">
            {t('tokens.create')}
          </Button>
        }
      />
      <InfiniteTable<PatInfo>
        rowKey="id"
        queryKey={['identity', 'pats']}
        fetchPage={async (cursor) => {
          const page = Number(cursor ?? 1);
          const r = await api.call(ListTokens, { page, size: 50 });
          return { items: r.personal_access_tokens, next: r.has_more ? page + 1 : undefined };
        }}
        empty={t('tokens.empty')}
        data-testid="token-table"
        columns={[
          { title: t('tokens.name'), dataIndex: 'name' },
          { title: t('tokens.hint'), dataIndex: 'hint', render: (h: string) => <code>…{h}</code> },
          { title: t('tokens.created'), dataIndex: 'created_at', render: (s: number) => fmt(s, '') },
          {
            title: t('tokens.expires'),
            dataIndex: 'expire_at',
            render: (s: number) => (s === -1 ? t('tokens.permanent') : fmt(s, '')),
          },
          { title: t('tokens.lastUsed'), dataIndex: 'last_used_at', render: (s: number) => fmt(s, t('tokens.never')) },
          {
            title: t('tokens.permissions'),
            dataIndex: 'workspace_permission_list',
            render: (l: PatInfo['workspace_permission_list']) => l.reduce((n, w) => n + w.permissions.length, 0),
          },
          {
            title: t('tokens.status'),
            dataIndex: 'status',
            render: (s: string) => <Tag color={s === 'active' ? 'green' : 'gray'}>{t(`tokens.${s}`)}</Tag>,
          },
          {
            title: '',
            render: (_: unknown, r: PatInfo) => (
              <Popconfirm title={t('tokens.revokeConfirm')} onOk={() => revoke.mutate(r.id)}>
                <Button size="mini" status="danger" data-testid="token-revoke">
                  {t('tokens.revoke')}
                </Button>
              </Popconfirm>
            ),
          },
        ]}
      />
      <CreateTokenModal
        visible={creating}
        onClose={() => setCreating(false)}
        onCreated={(s) => {
          setCreating(false);
          setSecret(s);
          setCopied(false);
          void qc.invalidateQueries({ queryKey: ['identity', 'pats'] });
        }}
      />
      <Modal
        visible={!!secret}
        size="small"
        title={t('tokens.secretTitle')}
        onCancel={() => setSecret(null)}
        footer={
          <Button type="primary" onClick={() => setSecret(null)} data-testid="token-secret-done">
            {t('tokens.done')}
          </Button>
        }
      >
        <Typography.Paragraph>{t('tokens.secretText')}</Typography.Paragraph>
        <div data-testid="token-secret">
          <Input.Search
            readOnly
            value={secret ?? ''}
            searchButton={copied ? t('tokens.copied') : t('tokens.copy')}
            onSearch={() => void navigator.clipboard?.writeText(secret ?? '').then(() => setCopied(true))}
          />
        </div>
      </Modal>
    </div>
  );
}
