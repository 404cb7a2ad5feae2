import {
  Alert,
  Button,
  Card,
  Checkbox,
  Empty,
  Form,
  Input,
  Popconfirm,
  Select,
  Space,
  Switch,
  Table,
  Tabs,
  Tag,
  Typography,
} from '@arco-design/web-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Modal, PageHeader, toast, useApi, usePageTitle, useStudio, testId } from '@tessera/sdk/client';
import { useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { RoleAuth } from '@tessera/ext-spaces/shared';
import {
  GetModelFilterParams,
  GetModelUsage,
  ListSpaceModels,
  type CredentialTest,
  type CredentialView,
  type ProviderView,
} from '../shared/api.ts';
import { platformScope, spaceScope, type ModelScope } from './scope.ts';
import { currentServices } from './services.ts';
import type { ModelCapabilities, ModelInfo, ModelKind, ModelParams } from '../shared/index.ts';
import { ModelParamsPanel } from './components.tsx';
import { ModelStatus } from './Deprecation.tsx';

type Credential = CredentialView;
type ProviderInfo = ProviderView;
type TestResult = CredentialTest;

function useCurrent() {
  const services = currentServices();
  const space = useSyncExternalStore(services.space.subscribe, services.space.get, services.space.get);
  const user = useSyncExternalStore(services.user.subscribe, services.user.get, services.user.get);
  return { spaceId: space ?? undefined, isPlatformAdmin: !!user?.is_platform_admin };
}

const CAPS: (keyof ModelCapabilities)[] = ['function_call', 'json_output', 'vision', 'reasoning'];

function CredentialForm({
  base,
  providers,
  editing,
  onDone,
}: {
  base: ModelScope;
  providers: ProviderInfo[];
  editing?: Credential;
  onDone(): void;
}) {
  const { t } = useTranslation('models');
  const { language } = useStudio();
  const api = useApi();
  const [provider, setProvider] = useState(editing?.provider ?? providers[0]?.key);
  const [values, setValues] = useState<Record<string, string>>({
    name: editing?.name ?? '',
    base_url: editing?.base_url ?? '',
  });
  const p = providers.find((x) => x.key === provider);
  const save = useMutation({
    mutationFn: () => {
      const extra = Object.fromEntries(
        Object.entries(values).filter(([k]) => !['name', 'base_url', 'api_key'].includes(k)),
      );
      return editing
        ? api.call(base.calls.UpdateCredential, {
            ...base.where,
            credential_id: editing.credential_id,
            name: values.name,
            base_url: values.base_url,
            ...(values.api_key ? { api_key: values.api_key } : {}),
          })
        : api.call(base.calls.CreateCredential, {
            ...base.where,
            provider,
            name: values.name,
            base_url: values.base_url,
            api_key: values.api_key,
            ...(Object.keys(extra).length ? { extra } : {}),
          });
    },
    onSuccess: () => {
      toast.success(t('credential.saved'));
      onDone();
    },
  });
  return (
    <Modal
      visible
      size="medium"
      title={editing ? t('credential.edit') : t('credential.add')}
      onCancel={onDone}
      onOk={() => save.mutate()}
      confirmLoading={save.isPending}
      okButtonProps={{ disabled: !values.name?.trim(), ...testId('credential-save') }}
    >
      <Form layout="vertical">
        <Form.Item label={t('credential.provider')}>
          <Select
            value={provider}
            disabled={!!editing}
            onChange={setProvider}
            data-testid="credential-provider"
            options={providers.map((x) => ({ label: x.label[language] ?? x.key, value: x.key }))}
          />
        </Form.Item>
        <Form.Item label={t('credential.name')} required>
          <Input
            value={values.name}
            onChange={(v) => setValues({ ...values, name: v })}
            data-testid="credential-name"
          />
        </Form.Item>
        {p?.fields.map((f) => (
          <Form.Item
            key={f.name}
            label={f.label[language] ?? f.name}
            required={f.required && !(editing && f.secret)}
            extra={editing && f.secret ? t('credential.keepKey') : undefined}
          >
            {f.secret ? (
              <Input.Password
                value={values[f.name] ?? ''}
                onChange={(v) => setValues({ ...values, [f.name]: v })}
                data-testid={`credential-${f.name}`}
                autoComplete="off"
              />
            ) : (
              <Input
                value={values[f.name] ?? ''}
                placeholder={f.placeholder}
                onChange={(v) => setValues({ ...values, [f.name]: v })}
                data-testid={`credential-${f.name}`}
              />
            )}
          </Form.Item>
        ))}
      </Form>
    </Modal>
  );
}

function AddModelForm({
  base,
  credential,
  kinds,
  suggestions,
  onDone,
}: {
  base: ModelScope;
  credential: Credential;
  kinds: ModelKind[];
  suggestions: string[];
  onDone(): void;
}) {
  const { t } = useTranslation('models');
  const api = useApi();
  const [name, setName] = useState('');
  const [display, setDisplay] = useState('');
  const [kind, setKind] = useState<ModelKind>(kinds[0] ?? 'chat');
  const [caps, setCaps] = useState<string[]>([]);
  const [params, setParams] = useState<ModelParams>({});
  const add = useMutation({
    mutationFn: () =>
      api.call(base.calls.CreateModel, {
        ...base.where,
        credential_id: credential.credential_id,
        model_name: name,
        display_name: display || undefined,
        kind,
        capabilities: Object.fromEntries(CAPS.map((c) => [c, caps.includes(c)])),
        default_params: params,
      }),
    onSuccess: () => {
      toast.success(t('model.added'));
      onDone();
    },
  });
  return (
    <Modal
      visible
      size="medium"
      title={`${t('model.add')} · ${credential.name}`}
      onCancel={onDone}
      onOk={() => add.mutate()}
      confirmLoading={add.isPending}
      okButtonProps={{ disabled: !name.trim(), ...testId('model-save') }}
    >
      <Form layout="vertical">
        <Form.Item label={t('model.name')} required>
          <Select
            allowCreate
            showSearch
            value={name || undefined}
            onChange={setName}
            data-testid="model-name"
            options={suggestions.map((s) => ({ label: s, value: s }))}
            placeholder="gpt-4o, deepseek-chat, qwen2.5 …"
          />
        </Form.Item>
        <Form.Item label={t('model.display')}>
          <Input value={display} onChange={setDisplay} />
        </Form.Item>
        <Form.Item label={t('model.kind')}>
          <Select
            value={kind}
            onChange={setKind}
            options={kinds.map((k) => ({ label: t(`model.kinds.${k}`), value: k }))}
          />
        </Form.Item>
        <Form.Item label={t('model.capabilities')}>
          <Checkbox.Group
            value={caps}
            onChange={(v) => setCaps(v)}
            options={CAPS.map((c) => ({ label: t(`model.caps.${c}`), value: c }))}
          />
        </Form.Item>
        <Form.Item label={t('model.params')}>
          <ModelParamsPanel value={params} onChange={setParams} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function ScopePanel({
  base,
  spaceId,
  canManage,
  scope,
}: {
  base: ModelScope;
  spaceId: string;
  canManage: boolean;
  scope: 'space' | 'platform';
}) {
  const { t } = useTranslation('models');
  const { language } = useStudio();
  const api = useApi();
  const qc = useQueryClient();
  const [editing, setEditing] = useState<Credential | 'new' | null>(null);
  const [adding, setAdding] = useState<Credential | null>(null);
  const [tests, setTests] = useState<Record<string, TestResult | 'running'>>({});
  const providers = useQuery({
    queryKey: ['models', 'providers', spaceId],
    queryFn: () => api.call(GetModelFilterParams, { space_id: spaceId }),
  });
  const creds = useQuery({
    queryKey: ['models', 'credentials', base.key],
    queryFn: () => api.call(base.calls.ListCredentials, base.where),
    enabled: canManage || scope === 'space',
  });
  const models = useQuery({
    queryKey: ['models', 'all', spaceId],
    queryFn: () => api.call(ListSpaceModels, { space_id: spaceId }),
  });
  const refresh = () => qc.invalidateQueries({ queryKey: ['models'] });
  const test = async (c: Credential) => {
    setTests((x) => ({ ...x, [c.credential_id]: 'running' }));
    const r = await api.call(base.calls.TestCredential, {
      ...base.where,
      credential_id: c.credential_id,
    });
    setTests((x) => ({ ...x, [c.credential_id]: r }));
  };
  const providerList = providers.data?.providers ?? [];
  const list = creds.data?.credentials ?? [];
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="medium">
      {!canManage && <Alert type="info" content={t('notAdmin')} />}
      {canManage && (
        <Button type="primary" onClick={() => setEditing('new')} data-testid={`credential-add-${scope}`}>
          {t('credential.add')}
        </Button>
      )}
      {!list.length && !creds.isLoading && <Empty description={t('credential.empty')} />}
      {list.map((c) => {
        const result = tests[c.credential_id];
        const own = (models.data?.models ?? []).filter((m) => m.credential_id === c.credential_id);
        const p = providerList.find((x) => x.key === c.provider);
        return (
          <Card
            key={c.credential_id}
            data-testid="credential-card"
            title={
              <Space>
                <span>{c.name}</span>
                <Tag>{p?.label[language] ?? c.provider}</Tag>
              </Space>
            }
            extra={
              canManage && (
                <Space>
                  <Button
                    size="small"
                    loading={result === 'running'}
                    onClick={() => void test(c)}
                    data-testid="credential-test"
                  >
                    {t('credential.test')}
                  </Button>
                  <Button size="small" onClick={() => setEditing(c)}>
                    {t('credential.edit')}
                  </Button>
                  <Popconfirm
                    title={t('credential.deleteConfirm')}
                    onOk={async () => {
                      await api.call(base.calls.DeleteCredential, {
                        ...base.where,
                        credential_id: c.credential_id,
                      });
                      toast.success(t('credential.deleted'));
                      await refresh();
                    }}
                  >
                    <Button size="small" status="danger">
                      {t('credential.delete')}
                    </Button>
                  </Popconfirm>
                </Space>
              )
            }
          >
            <Typography.Text type="secondary">
              {c.base_url || p?.label[language]} · {c.api_key_masked}
            </Typography.Text>
            {result && result !== 'running' && (
              <Alert
                style={{ marginTop: 8 }}
                data-testid="credential-test-result"
                type={result.ok ? 'success' : 'error'}
                content={
                  result.ok
                    ? `${t('credential.ok', { ms: result.latency_ms })}${result.models ? ` · ${t('credential.found', { count: result.models.length })}` : ''}`
                    : t('credential.failed', { error: result.error })
                }
              />
            )}
            {canManage &&
              result &&
              result !== 'running' &&
              result.ok &&
              result.models &&
              (() => {
                const missing = result.models.filter((m) => !own.some((o) => o.model_name === m.name));
                return missing.length > 0 ? (
                  <Button
                    size="small"
                    type="primary"
                    style={{ marginTop: 8 }}
                    data-testid="models-add-all"
                    onClick={async () => {
                      const r = await api.call(base.calls.BatchCreateModels, {
                        ...base.where,
                        credential_id: c.credential_id,
                        models: missing.map((m) => ({ model_name: m.name, kind: m.kind })),
                      });
                      toast.success(t('model.addedAll', { count: r.added.length }));
                      await refresh();
                    }}
                  >
                    {t('model.addAll', { count: missing.length })}
                  </Button>
                ) : null;
              })()}
            <Table<ModelInfo>
              style={{ marginTop: 12 }}
              rowKey="model_id"
              size="small"
              pagination={false}
              data={own}
              noDataElement={t('model.empty')}
              data-testid="models-table"
              columns={[
                { title: t('model.display'), dataIndex: 'display_name' },
                { title: t('model.name'), dataIndex: 'model_name' },
                { title: t('model.kind'), dataIndex: 'kind', render: (k: string) => t(`model.kinds.${k}`) },
                {
                  title: t('model.capabilities'),
                  dataIndex: 'capabilities',
                  render: (cap: ModelCapabilities) =>
                    CAPS.filter((k) => cap[k]).map((k) => (
                      <Tag key={k} size="small">
                        {t(`model.caps.${k}`)}
                      </Tag>
                    )),
                },
                {
                  title: t('model.enabled'),
                  dataIndex: 'enabled',
                  render: (on: boolean, m) => (
                    <Switch
                      size="small"
                      checked={on}
                      disabled={!canManage}
                      data-testid={`model-enabled-${m.model_name}`}
                      onChange={async (v) => {
                        await api.call(base.calls.UpdateModel, {
                          ...base.where,
                          model_id: m.model_id,
                          enabled: v,
                        });
                        await refresh();
                      }}
                    />
                  ),
                },
                {
                  title: t('status.title'),
                  render: (_: unknown, m) => (
                    <ModelStatus
                      model={m}
                      all={models.data?.models ?? []}
                      base={base}
                      canManage={canManage}
                      onChanged={refresh}
                    />
                  ),
                },
                {
                  title: t('model.default'),
                  dataIndex: 'is_default',
                  render: (isDefault: boolean, m) =>
                    isDefault ? (
                      <Tag size="small" color="arcoblue" data-testid={`model-default-${m.model_name}`}>
                        {t('model.isDefault')}
                      </Tag>
                    ) : (
                      canManage &&
                      m.enabled && (
                        <Button
                          size="mini"
                          type="text"
                          data-testid={`model-set-default-${m.model_name}`}
                          onClick={async () => {
                            await api.call(base.calls.SetDefaultModel, {
                              ...base.where,
                              model_id: m.model_id,
                            });
                            await refresh();
                          }}
                        >
                          {t('model.setDefault')}
                        </Button>
                      )
                    ),
                },
                {
                  title: '',
                  render: (_: unknown, m) =>
                    canManage && (
                      <Button
                        size="mini"
                        onClick={async () => {
                          await api.call(base.calls.DeleteModel, {
                            ...base.where,
                            model_id: m.model_id,
                          });
                          await refresh();
                        }}
                      >
                        {t('model.delete')}
                      </Button>
                    ),
                },
              ]}
            />
            {canManage && (
              <Button size="small" style={{ marginTop: 8 }} onClick={() => setAdding(c)} data-testid="model-add">
                {t('model.add')}
              </Button>
            )}
          </Card>
        );
      })}
      {editing && providerList.length > 0 && (
        <CredentialForm
          base={base}
          providers={providerList}
          editing={editing === 'new' ? undefined : editing}
          onDone={() => {
            setEditing(null);
            void refresh();
          }}
        />
      )}
      {adding && (
        <AddModelForm
          base={base}
          credential={adding}
          kinds={providerList.find((x) => x.key === adding.provider)?.kinds ?? ['chat']}
          suggestions={(() => {
            const r = tests[adding.credential_id];
            return r && r !== 'running' ? (r.models ?? []).map((m) => m.name) : [];
          })()}
          onDone={() => {
            setAdding(null);
            void refresh();
          }}
        />
      )}
    </Space>
  );
}

function Usage({ spaceId }: { spaceId: string }) {
  const { t } = useTranslation('models');
  const api = useApi();
  const usage = useQuery({
    queryKey: ['models', 'usage', spaceId],
    queryFn: () => api.call(GetModelUsage, { space_id: spaceId }),
  });
  const models = useQuery({
    queryKey: ['models', 'all', spaceId],
    queryFn: () => api.call(ListSpaceModels, { space_id: spaceId }),
  });
  const name = (id: string) => models.data?.models.find((m) => m.model_id === id)?.display_name ?? id;
  return (
    <Table
      rowKey={(r) => `${r.model_id}:${r.source}`}
      data={usage.data?.usage ?? []}
      pagination={false}
      noDataElement={t('usage.empty')}
      columns={[
        { title: t('usage.model'), dataIndex: 'model_id', render: (id: string) => name(id) },
        { title: t('usage.source'), dataIndex: 'source' },
        { title: t('usage.input'), dataIndex: 'input_tokens' },
        { title: t('usage.output'), dataIndex: 'output_tokens' },
        { title: t('usage.calls'), dataIndex: 'calls' },
      ]}
    />
  );
}

export function ModelsPage() {
  const { t } = useTranslation('models');
  const api = useApi();
  const { spaceId, isPlatformAdmin } = useCurrent();
  usePageTitle(t('title'));
  const auth = useQuery({
    queryKey: ['models', 'role', spaceId],
    queryFn: () => api.call(RoleAuth, { space_id: spaceId! }),
    enabled: !!spaceId,
  });
  if (!spaceId) return null;
  const canManageSpace = !!auth.data?.permissions.update_space;
  return (
    <div className="tessera-page" data-testid="models-page">
      <PageHeader title={t('title')} intro={t('intro')} />
      <Tabs defaultActiveTab="space">
        <Tabs.TabPane key="space" title={t('tabs.space')}>
          <ScopePanel base={spaceScope(spaceId)} spaceId={spaceId} canManage={canManageSpace} scope="space" />
        </Tabs.TabPane>
        {isPlatformAdmin && (
          <Tabs.TabPane key="platform" title={<span data-testid="tab-platform">{t('tabs.platform')}</span>}>
            <ScopePanel base={platformScope} spaceId={spaceId} canManage scope="platform" />
          </Tabs.TabPane>
        )}
        <Tabs.TabPane key="usage" title={t('tabs.usage')}>
          <Usage spaceId={spaceId} />
        </Tabs.TabPane>
      </Tabs>
    </div>
  );
}
