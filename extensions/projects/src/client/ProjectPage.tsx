// A project, IDE-like: its resources grouped by kind in a side tree, opened in tabs with their kind's editor
// (kinds that give one through ResourceKinds; others open their own page); add from the space, take out;
// publish a version to connectors with the record of what each resource got; history with rollback; copy
// (also into another space), archive, delete.
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Dropdown,
  Empty,
  Grid,
  Input,
  Menu,
  Popconfirm,
  Select,
  Space,
  Spin,
  Table,
  Tabs,
  Tag,
  Typography,
} from '@arco-design/web-react';
import { IconCode, IconHome, IconMinusCircle, IconMore, IconPlus } from '@arco-design/web-react/icon';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  BackLink,
  Modal,
  type RegistryEntry,
  type ResourceKind,
  ResourceKinds,
  SchemaFields,
  SidePanel,
  toast,
  useApi,
  useFormat,
  usePageTitle,
  useRegistryEntries,
  useConnectorView,
  ConnectorPanel,
  ResourceActionsBar,
  testId,
} from '@tessera/sdk/client';
import { Suspense, useMemo, useState } from 'react';
import './project.css';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { SpaceSelect } from '@tessera/ext-spaces/widgets';
import { useSpaceId } from './space.ts';
import { VariablesPane } from './VariablesPane.tsx';
import {
  AddProjectResources,
  ArchiveProject,
  CheckVersion,
  CopyProject,
  CopyProjectToSpace,
  DeleteProject,
  GetProject,
  ListPublishConnectors,
  ListPublishRecords,
  ProjectHistory,
  PublishProject,
  RemoveProjectResources,
  RollbackProject,
  type ProjectInfo,
  type ProjectResourceView,
} from '../shared/api.ts';
import type { EndpointOutput } from '@tessera/sdk';
import type { ListResources } from '@tessera/ext-library/api';

type Resource = ProjectResourceView;
type Info = ProjectInfo;
type PublishResult = EndpointOutput<typeof PublishProject>['results'][number];

function KindName({ entry, kind }: { entry?: RegistryEntry<ResourceKind>; kind: string }) {
  const { t } = useTranslation(entry?.owner ?? 'projects');
  return <>{entry ? t(entry.value.label) : kind}</>;
}

export function ProjectPage() {
  const { project_id: id } = useParams();
  const [params] = useSearchParams();
  const currentSpace = useSpaceId();
  const spaceId = params.get('space_id') ?? currentSpace;
  const api = useApi();
  const { t } = useTranslation('projects');
  const q = useQuery({
    queryKey: ['projects', 'info', id],
    queryFn: () => api.call(GetProject, { project_id: id ?? '' }, { handled: (e) => e.status === 404 }),
  });
  usePageTitle(q.data?.project.name ?? t('title'));
  if (q.isError) return <Empty description={t('missing')} />;
  if (!q.data || !spaceId) return <Spin style={{ margin: 40 }} />;
  return <Project info={q.data} spaceId={q.data.project.space_id} />;
}

/** The variables pane's key among the tabs. */
const VARIABLES = 'variables';
/** A resource in the page's tabs: `kind:id`. */
const tabKey = (r: { res_type: string; res_id: string }) => `${r.res_type}:${r.res_id}`;

function Project({ info, spaceId }: { info: Info; spaceId: string }) {
  const { t } = useTranslation('projects');
  const api = useApi();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const entries = useRegistryEntries(ResourceKinds);
  const kinds = useMemo(() => new Map(entries.map((e) => [e.value.kind, e])), [entries]);
  const [params, setParams] = useSearchParams();
  const [adding, setAdding] = useState(false);
  const [publishing, setPublishing] = useState(false);
  const [copyingTo, setCopyingTo] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [panel, setPanel] = useState<'history' | 'records' | undefined>();
  const p = info.project;
  const here = `/projects/${p.project_id}?space_id=${spaceId}`;
  // The resources open in tabs (the active one is in the address, so a reload or a link opens it again).
  const active = params.get('open') ?? '';
  const [open, setOpen] = useState<string[]>(() => (active ? [active] : []));
  const byKey = new Map(info.resources.map((r) => [tabKey(r), r]));
  const tabs = open.filter((k) => byKey.has(k) || k === VARIABLES);
  const show = (key: string) => {
    setOpen((o) => (o.includes(key) ? o : [...o, key]));
    setParams((q) => (key ? q.set('open', key) : q.delete('open'), q), { replace: true });
  };
  const close = (key: string) => {
    const rest = tabs.filter((k) => k !== key);
    setOpen(rest);
    if (key === active) show(rest[rest.length - 1] ?? '');
  };
  const refresh = () => qc.invalidateQueries({ queryKey: ['projects'] });
  const take = useMutation({
    mutationFn: (r: Resource) =>
      api.call(RemoveProjectResources, {
        project_id: p.project_id,
        resources: [{ res_type: r.res_type, res_id: r.res_id }],
      }),
    onSuccess: async (_d, r) => {
      close(tabKey(r));
      await refresh();
    },
  });
  const archive = useMutation({
    mutationFn: () => api.call(ArchiveProject, { project_id: p.project_id, archive: !p.archived }),
    onSuccess: refresh,
  });
  const copied = async (r: { project_id: string; skipped: unknown[] }, to: string) => {
    toast.success(r.skipped.length ? t('copiedSkipped', { n: r.skipped.length }) : t('copied'));
    await refresh();
    void navigate(`/projects/${r.project_id}?space_id=${to}`);
  };
  const copy = useMutation({
    mutationFn: () => api.call(CopyProject, { project_id: p.project_id }),
    onSuccess: (r) => copied(r, spaceId),
  });
  const remove = useMutation({
    mutationFn: () => api.call(DeleteProject, { project_id: p.project_id }),
    onSuccess: async () => {
      toast.success(t('deleted'));
      await refresh();
      void navigate(`/projects?space_id=${spaceId}`);
    },
  });
  const groups = [...new Set(info.resources.map((r) => r.res_type))];
  const current = byKey.get(active);
  const CurrentEditor = current ? kinds.get(current.res_type)?.value.editor : undefined;
  const linkOf = (r: Resource) => {
    const k = kinds.get(r.res_type)?.value;
    return k ? (k.itemPath?.(r.res_id, spaceId) ?? `${k.path}/${r.res_id}?space_id=${spaceId}`) : undefined;
  };
  const more = (
    <Menu
      onClickMenuItem={(key) => {
        if (key === 'history' || key === 'records') setPanel(key);
        else if (key === 'copy') copy.mutate();
        else if (key === 'copyTo') setCopyingTo(true);
        else if (key === 'archive') archive.mutate();
        else if (key === 'delete') setDeleting(true);
      }}
    >
      <Menu.Item key="history" data-testid="project-history">
        {t('history')}
      </Menu.Item>
      <Menu.Item key="records" data-testid="project-records">
        {t('records')}
      </Menu.Item>
      <Menu.Item key="copy">{t('copy')}</Menu.Item>
      <Menu.Item key="copyTo" data-testid="project-copy-to">
        {t('copyTo')}
      </Menu.Item>
      <Menu.Item key="archive">{p.archived ? t('unarchive') : t('archive')}</Menu.Item>
      <Menu.Item key="delete" data-testid="project-delete">
        {t('delete')}
      </Menu.Item>
    </Menu>
  );
  return (
    <div
      data-testid="project-page"
      data-project-id={p.project_id}
      style={{ display: 'flex', height: '100vh', overflow: 'hidden' }}
    >
      <aside
        style={{
          width: 280,
          flex: 'none',
          borderRight: '1px solid var(--color-border-2)',
          display: 'flex',
          flexDirection: 'column',
          background: 'var(--color-bg-2)',
        }}
      >
        <div style={{ padding: '12px 12px 8px', borderBottom: '1px solid var(--color-border-2)' }}>
          <Space align="start" style={{ width: '100%' }}>
            <BackLink to={`/projects?space_id=${spaceId}`} label={t('back')} testId="project-back" />
            <div style={{ minWidth: 0 }}>
              <Typography.Text bold ellipsis data-testid="project-name" style={{ display: 'block', margin: 0 }}>
                {p.name}
              </Typography.Text>
              <Space size={4}>
                {p.version ? (
                  <Tag size="small" color="green" data-testid="project-version">
                    {p.version}
                  </Tag>
                ) : (
                  <Tag size="small">{t('draft')}</Tag>
                )}
                {p.archived && <Tag size="small">{t('archivedTag')}</Tag>}
              </Space>
            </div>
          </Space>
          <Space style={{ marginTop: 8 }}>
            <Button
              type="primary"
              size="small"
              onClick={() => setPublishing(true)}
              disabled={!info.resources.length}
              data-testid="project-publish"
            >
              {t('publish')}
            </Button>
            <ResourceActionsBar kind="project" spaceId={spaceId} resourceId={p.project_id} />
            <Dropdown droplist={more} trigger="click" position="bl">
              <Button
                size="small"
                icon={<IconMore />}
                aria-label={t('more')}
                data-testid="project-more"
                loading={copy.isPending}
              />
            </Dropdown>
          </Space>
        </div>
        <div style={{ flex: 1, overflow: 'auto', padding: '8px 4px' }} data-testid="project-tree">
          <div
            className={`tessera-project-item${!active ? ' active' : ''}`}
            role="button"
            tabIndex={0}
            onClick={() => show('')}
            onKeyDown={(e) => e.key === 'Enter' && show('')}
            data-testid="project-overview-link"
          >
            <IconHome /> {t('overview')}
          </div>
          <div
            className={`tessera-project-item${active === VARIABLES ? ' active' : ''}`}
            role="button"
            tabIndex={0}
            onClick={() => show(VARIABLES)}
            onKeyDown={(e) => e.key === 'Enter' && show(VARIABLES)}
            data-testid="project-variables-link"
          >
            <IconCode /> {t('variables')}
          </div>
          <Space style={{ width: '100%', justifyContent: 'space-between', padding: '8px 8px 4px' }}>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('resources')}
            </Typography.Text>
            <Button
              size="mini"
              type="text"
              icon={<IconPlus />}
              onClick={() => setAdding(true)}
              aria-label={t('add')}
              data-testid="project-add"
            />
          </Space>
          {!info.resources.length && (
            <Typography.Paragraph type="secondary" style={{ padding: '0 8px', fontSize: 12 }}>
              {t('noResources')}
            </Typography.Paragraph>
          )}
          {groups.map((g) => {
            const Icon = kinds.get(g)?.value.icon;
            return (
              <div key={g}>
                <Typography.Text type="secondary" style={{ fontSize: 12, padding: '4px 8px', display: 'block' }}>
                  {Icon && <Icon style={{ marginRight: 4 }} />}
                  <KindName entry={kinds.get(g)} kind={g} />
                </Typography.Text>
                {info.resources
                  .filter((r) => r.res_type === g)
                  .map((r) => {
                    const key = tabKey(r);
                    const editable = !!kinds.get(r.res_type)?.value.editor;
                    const to = linkOf(r);
                    const label = (
                      <span className="tessera-project-item-name" title={r.name}>
                        {r.name}
                      </span>
                    );
                    return (
                      <div
                        key={key}
                        className={`tessera-project-item${key === active ? ' active' : ''}`}
                        data-testid="project-resource"
                        data-kind={r.res_type}
                        data-name={r.name}
                      >
                        {editable ? (
                          <span
                            role="button"
                            tabIndex={0}
                            style={{ flex: 1, minWidth: 0, display: 'flex' }}
                            onClick={() => show(key)}
                            onKeyDown={(e) => e.key === 'Enter' && show(key)}
                            data-testid="project-resource-open"
                          >
                            {label}
                          </span>
                        ) : to ? (
                          <Link
                            to={to}
                            style={{ flex: 1, minWidth: 0, display: 'flex' }}
                            data-testid="project-resource-open"
                          >
                            {label}
                          </Link>
                        ) : (
                          label
                        )}
                        {r.published !== undefined && (
                          <span
                            title={r.published ? t('published') : t('draft')}
                            className={`tessera-project-dot${r.published ? ' published' : ''}`}
                          />
                        )}
                        <Popconfirm
                          title={t('takeOutTitle', { name: r.name })}
                          content={t('takeOutHelp')}
                          onOk={() => take.mutate(r)}
                        >
                          <Button
                            size="mini"
                            type="text"
                            icon={<IconMinusCircle />}
                            aria-label={t('takeOut')}
                            className="tessera-project-item-action"
                            data-testid="project-resource-remove"
                          />
                        </Popconfirm>
                      </div>
                    );
                  })}
              </div>
            );
          })}
        </div>
      </aside>
      <main style={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        {tabs.length > 0 && (
          <Tabs
            type="card-gutter"
            size="small"
            editable
            activeTab={active || 'overview'}
            onChange={(k) => show(k === 'overview' ? '' : k)}
            onDeleteTab={close}
            showAddButton={false}
            style={{ flex: 'none' }}
            data-testid="project-tabs"
          >
            <Tabs.TabPane key="overview" title={t('overview')} closable={false} />
            {tabs.map((k) => (
              <Tabs.TabPane
                key={k}
                title={<span data-testid="project-tab">{k === VARIABLES ? t('variables') : byKey.get(k)!.name}</span>}
              />
            ))}
          </Tabs>
        )}
        <div style={{ flex: 1, minHeight: 0, overflow: current && CurrentEditor ? 'hidden' : 'auto' }}>
          {active === VARIABLES ? (
            <VariablesPane projectId={p.project_id} />
          ) : current && CurrentEditor ? (
            <Suspense fallback={<Spin style={{ display: 'block', margin: '80px auto' }} />}>
              <CurrentEditor key={active} id={current.res_id} spaceId={spaceId} embedded={{ backTo: here }} />
            </Suspense>
          ) : (
            <Overview
              info={info}
              kinds={kinds}
              onOpen={(r) =>
                kinds.get(r.res_type)?.value.editor ? show(tabKey(r)) : linkOf(r) && navigate(linkOf(r)!)
              }
              onAdd={() => setAdding(true)}
            />
          )}
        </div>
      </main>
      {adding && <AddModal spaceId={spaceId} info={info} onClose={() => setAdding(false)} />}
      {publishing && (
        <PublishModal info={info} onClose={() => setPublishing(false)} onDone={() => setPanel('records')} />
      )}
      {deleting && (
        <Modal
          visible
          title={t('deleteTitle', { name: p.name })}
          onCancel={() => setDeleting(false)}
          onOk={() => remove.mutate()}
          confirmLoading={remove.isPending}
          okText={t('delete')}
          okButtonProps={{ status: 'danger', ...testId('project-delete-confirm') }}
        >
          {t('deleteHelp')}
        </Modal>
      )}
      {copyingTo && (
        <CopyToModal project={p} onClose={() => setCopyingTo(false)} onCopied={(r, to) => void copied(r, to)} />
      )}
      <HistoryDrawer projectId={p.project_id} visible={panel === 'history'} onClose={() => setPanel(undefined)} />
      <RecordsDrawer projectId={p.project_id} visible={panel === 'records'} onClose={() => setPanel(undefined)} />
    </div>
  );
}

/** The project at a glance: what it is for, its resources by kind (open one), its latest publication. */
function Overview({
  info,
  kinds,
  onOpen,
  onAdd,
}: {
  info: Info;
  kinds: Map<string, RegistryEntry<ResourceKind>>;
  onOpen(r: Resource): void;
  onAdd(): void;
}) {
  const { t } = useTranslation('projects');
  const p = info.project;
  return (
    <div style={{ padding: 24, maxWidth: 960 }} data-testid="project-overview">
      <Typography.Title heading={5} style={{ marginTop: 0 }}>
        {p.name}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{p.description || t('noDescription')}</Typography.Paragraph>
      {!info.resources.length ? (
        <Empty
          description={
            <Space direction="vertical">
              {t('noResources')}
              <Button type="primary" onClick={onAdd}>
                {t('add')}
              </Button>
            </Space>
          }
        />
      ) : (
        <Grid.Row gutter={[12, 12]}>
          {info.resources.map((r) => {
            const Icon = kinds.get(r.res_type)?.value.icon;
            return (
              <Grid.Col key={tabKey(r)} xs={24} md={12} lg={8}>
                <Card
                  hoverable
                  size="small"
                  onClick={() => onOpen(r)}
                  style={{ cursor: 'pointer' }}
                  data-testid="project-card-resource"
                >
                  <Space direction="vertical" size={2} style={{ width: '100%' }}>
                    <Space>
                      {Icon && <Icon />}
                      <Typography.Text bold>{r.name}</Typography.Text>
                    </Space>
                    <Space size={4}>
                      <Tag size="small">
                        <KindName entry={kinds.get(r.res_type)} kind={r.res_type} />
                      </Tag>
                      {r.published !== undefined && (
                        <Tag size="small" color={r.published ? 'green' : undefined}>
                          {r.published ? t('published') : t('draft')}
                        </Tag>
                      )}
                    </Space>
                    <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ margin: 0, fontSize: 12 }}>
                      {r.desc || '—'}
                    </Typography.Paragraph>
                  </Space>
                </Card>
              </Grid.Col>
            );
          })}
        </Grid.Row>
      )}
    </div>
  );
}

function CopyToModal({
  project,
  onClose,
  onCopied,
}: {
  project: Info['project'];
  onClose(): void;
  onCopied(r: { project_id: string; skipped: unknown[] }, to: string): void;
}) {
  const { t } = useTranslation('projects');
  const api = useApi();
  const [to, setTo] = useState<string>();
  const copy = useMutation({
    mutationFn: () =>
      api.call(CopyProjectToSpace, {
        project_id: project.project_id,
        to_space_id: to ?? '',
      }),
    onSuccess: (r) => {
      onClose();
      onCopied(r, to!);
    },
  });
  return (
    <Modal
      visible
      title={t('copyToTitle', { name: project.name })}
      onCancel={onClose}
      onOk={() => copy.mutate()}
      confirmLoading={copy.isPending}
      okButtonProps={{ disabled: !to, ...testId('project-copy-to-save') }}
    >
      <Typography.Paragraph type="secondary">{t('copyToHelp')}</Typography.Paragraph>
      <SpaceSelect placeholder={t('copyToSpace')} value={to} onChange={setTo} testId="project-copy-to-space" />
    </Modal>
  );
}

function AddModal({ spaceId, info, onClose }: { spaceId: string; info: Info; onClose(): void }) {
  const { t } = useTranslation('projects');
  const api = useApi();
  const qc = useQueryClient();
  const [chosen, setChosen] = useState<string[]>([]);
  const have = new Set(info.resources.map((r) => `${r.res_type}:${r.res_id}`));
  const list = useQuery({
    queryKey: ['projects', 'space-resources', spaceId],
    queryFn: () =>
      api.post<EndpointOutput<typeof ListResources>>('/api/resource/library_resource_list', {
        space_id: spaceId,
        size: 100,
      }),
  });
  const options = (list.data?.resource_list ?? []).filter(
    (r) => r.res_type !== 'project' && !have.has(`${r.res_type}:${r.res_id}`),
  );
  const add = useMutation({
    mutationFn: () =>
      api.call(AddProjectResources, {
        project_id: info.project.project_id,
        resources: chosen.map((c) => ({ res_type: c.split(':')[0], res_id: c.split(':')[1] })),
      }),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['projects'] });
      onClose();
    },
  });
  return (
    <Modal
      visible
      title={t('addTitle')}
      onCancel={onClose}
      onOk={() => add.mutate()}
      confirmLoading={add.isPending}
      okButtonProps={{ disabled: !chosen.length, ...testId('project-add-save') }}
    >
      <Select
        mode="multiple"
        style={{ width: '100%' }}
        placeholder={t('addHelp')}
        value={chosen}
        onChange={setChosen}
        loading={list.isLoading}
        data-testid="project-add-select"
        showSearch
        filterOption={(input, o) =>
          String((o as { props?: { children?: unknown } }).props?.children ?? '')
            .toLowerCase()
            .includes(input.toLowerCase())
        }
      >
        {options.map((r) => (
          <Select.Option key={`${r.res_type}:${r.res_id}`} value={`${r.res_type}:${r.res_id}`}>
            {r.name}
          </Select.Option>
        ))}
      </Select>
    </Modal>
  );
}

function PublishModal({ info, onClose, onDone }: { info: Info; onClose(): void; onDone(): void }) {
  const { t, i18n } = useTranslation('projects');
  const api = useApi();
  const qc = useQueryClient();
  const p = info.project;
  const suggested = p.version ? p.version.replace(/(\d+)$/, (d) => String(Number(d) + 1)) : '1.0.0';
  const [version, setVersion] = useState(suggested);
  const [description, setDescription] = useState('');
  const connectors = useQuery({
    queryKey: ['projects', 'connectors', p.project_id],
    queryFn: () => api.call(ListPublishConnectors, { project_id: p.project_id }),
  });
  const [chosen, setChosen] = useState<string[] | undefined>();
  const picked = chosen ?? connectors.data?.connectors.map((c) => c.id) ?? [];
  // The last publication's connector settings (the Web SDK's allowed origins ...) are the starting point.
  const records = useQuery({
    queryKey: ['projects', 'records', p.project_id],
    queryFn: () => api.call(ListPublishRecords, { project_id: p.project_id }),
  });
  const [settings, setSettings] = useState<Record<string, Record<string, unknown>>>({});
  const settingsOf = (id: string) => settings[id] ?? records.data?.records[0]?.connector_settings?.[id] ?? {};
  const [settingsProblem, setSettingsProblem] = useState('');
  const check = useQuery({
    queryKey: ['projects', 'check', p.project_id, version],
    queryFn: () =>
      api.call(CheckVersion, {
        project_id: p.project_id,
        version_number: version.trim(),
      }),
  });
  const [results, setResults] = useState<PublishResult[] | undefined>();
  const publish = useMutation({
    mutationFn: () =>
      api.call(
        PublishProject,
        {
          project_id: p.project_id,
          version_number: version.trim(),
          description,
          connectors: picked,
          connector_settings: Object.fromEntries(picked.map((id) => [id, settingsOf(id)])),
        },
        {
          handled: (e) =>
            String(e.detail?.field ?? '').startsWith('connector_settings') ? (setSettingsProblem(e.msg), true) : false,
        },
      ),
    onSuccess: (r) => {
      setResults(r.results);
      toast[r.status === 1 ? 'success' : 'warning'](t(`publishStatus.${r.status}`));
      // Not awaited: the dialog's Done button is ready with the results (a busy studio refetches for a while, and a
      // click on a button still loading is lost).
      void qc.invalidateQueries({ queryKey: ['projects'] });
    },
  });
  return (
    <Modal
      visible
      size="medium"
      title={t('publishTitle', { name: p.name })}
      onCancel={results ? () => (onClose(), onDone()) : onClose}
      onOk={() => (results ? (onClose(), onDone()) : publish.mutate())}
      confirmLoading={publish.isPending}
      okText={results ? t('done') : t('publish')}
      okButtonProps={{
        // Until the connectors are known, a publication would go nowhere (an empty list of them).
        disabled: !results && (!check.data?.is_valid || !connectors.data),
        ...testId('project-publish-confirm'),
      }}
    >
      {results ? (
        <ResultsTable results={results} />
      ) : (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Typography.Text>{t('version')}</Typography.Text>
          <Input
            value={version}
            onChange={setVersion}
            status={check.data && !check.data.is_valid ? 'error' : undefined}
            data-testid="project-publish-version"
          />
          {check.data && !check.data.is_valid && (
            <Typography.Text type="error" data-testid="project-version-problem">
              {check.data.msg}
            </Typography.Text>
          )}
          <Typography.Text>{t('changes')}</Typography.Text>
          <Input.TextArea
            value={description}
            onChange={setDescription}
            maxLength={2000}
            autoSize={{ minRows: 2, maxRows: 4 }}
          />
          <Typography.Text>{t('connectors')}</Typography.Text>
          <Checkbox.Group value={picked} onChange={setChosen}>
            {(connectors.data?.connectors ?? []).map((c) => (
              <Checkbox key={c.id} value={c.id}>
                {c.name[i18n.language] ?? c.name['en-US'] ?? c.id}
              </Checkbox>
            ))}
          </Checkbox.Group>
          {(connectors.data?.connectors ?? [])
            .filter((c) => picked.includes(c.id) && c.settings_schema?.properties)
            .map((c) => (
              <div key={c.id} data-testid={`project-publish-settings-${c.id}`}>
                <Typography.Text type="secondary">
                  {c.description?.[i18n.language] ?? c.name[i18n.language] ?? c.id}
                </Typography.Text>
                <SchemaFields
                  schema={c.settings_schema!}
                  value={settingsOf(c.id)}
                  onChange={(v) => (setSettings({ ...settings, [c.id]: v }), setSettingsProblem(''))}
                  label={(field) => t(`setting.${field}`, { defaultValue: field })}
                  testIdPrefix="project-publish-setting"
                />
              </div>
            ))}
          {settingsProblem && (
            <Typography.Text type="error" data-testid="project-publish-settings-problem">
              {settingsProblem}
            </Typography.Text>
          )}
          <Alert type="info" content={t('publishHelp')} />
        </Space>
      )}
    </Modal>
  );
}

function ResultsTable({ results }: { results: PublishResult[] }) {
  const { t } = useTranslation('projects');
  return (
    <Table
      size="small"
      rowKey="res_id"
      pagination={false}
      data={results}
      data-testid="project-publish-results"
      columns={[
        { title: t('resource'), dataIndex: 'name', width: 180 },
        {
          title: t('result'),
          dataIndex: 'status',
          width: 130,
          render: (s: string) => (
            <Tag
              color={s === 'published' ? 'green' : s === 'failed' ? 'red' : undefined}
              data-testid="project-publish-result"
            >
              {t(`result_${s}`)}
            </Tag>
          ),
        },
        { title: t('detail'), dataIndex: 'version', render: (v: string, r: PublishResult) => v ?? r.reason ?? '' },
      ]}
    />
  );
}

function HistoryDrawer({ projectId, visible, onClose }: { projectId: string; visible: boolean; onClose(): void }) {
  const { t } = useTranslation('projects');
  const api = useApi();
  const qc = useQueryClient();
  const format = useFormat();
  const q = useQuery({
    queryKey: ['projects', 'history', projectId],
    enabled: visible,
    queryFn: () => api.call(ProjectHistory, { project_id: projectId }),
  });
  const rollback = useMutation({
    mutationFn: (history_id: string) =>
      api.call(RollbackProject, {
        project_id: projectId,
        history_id,
      }),
    onSuccess: async (r) => {
      toast.success(r.missing.length ? t('rolledBackMissing', { n: r.missing.length }) : t('rolledBack'));
      await qc.invalidateQueries({ queryKey: ['projects'] });
    },
  });
  return (
    <SidePanel size="small" visible={visible} title={t('history')} onCancel={onClose}>
      {q.isLoading && <Spin />}
      {(q.data?.history ?? []).map((h, i) => (
        <div
          key={h.history_id}
          data-testid="project-history-item"
          style={{ borderBottom: '1px solid var(--color-border-1)', padding: '8px 0' }}
        >
          <Space style={{ width: '100%', justifyContent: 'space-between' }}>
            <span>
              <Tag size="small">{t(`action.${h.action}`, { defaultValue: h.action })}</Tag> {h.snapshot.name} ·{' '}
              {t('count', { n: h.snapshot.members.length })}
            </span>
            {i > 0 && (
              <Popconfirm title={t('rollbackTitle')} onOk={() => rollback.mutate(h.history_id)}>
                <Button size="mini" type="text" data-testid="project-rollback">
                  {t('rollback')}
                </Button>
              </Popconfirm>
            )}
          </Space>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {format.dateTime(h.create_time * 1000)}
          </Typography.Text>
        </div>
      ))}
    </SidePanel>
  );
}

function RecordsDrawer({ projectId, visible, onClose }: { projectId: string; visible: boolean; onClose(): void }) {
  const { t } = useTranslation('projects');
  const api = useApi();
  const format = useFormat();
  const q = useQuery({
    queryKey: ['projects', 'records', projectId],
    enabled: visible,
    queryFn: () => api.call(ListPublishRecords, { project_id: projectId }),
  });
  const live = q.data?.records.find((r) => r.status !== 3);
  // The connectors' names as their extensions give them (a channel this page does not know of is named too).
  const { i18n } = useTranslation();
  const connectors = useQuery({
    queryKey: ['projects', 'connectors', projectId],
    enabled: visible,
    queryFn: () => api.call(ListPublishConnectors, { project_id: projectId }),
  });
  const nameOf = (id: string) => {
    const n = connectors.data?.connectors.find((c) => c.id === id)?.name;
    return t(`connector.${id}`, { defaultValue: n?.[i18n.language] ?? n?.['en-US'] ?? id });
  };
  // How a site embeds the published chat-flows, from the chat page and Web SDK connector's extension (if here).
  const embedShown = !!useConnectorView('999');
  const embeddable =
    embedShown && live?.connectors.includes('999')
      ? live.results.filter((r) => r.res_type === 'workflow' && r.status === 'published')
      : [];
  return (
    <SidePanel visible={visible} title={t('records')} onCancel={onClose}>
      {q.data && !q.data.records.length && <Empty description={t('noRecords')} />}
      {live && (
        // The last publication that published something is what answers, on the connectors it went to.
        <div style={{ marginBottom: 12 }} data-testid="project-live">
          <Typography.Text type="secondary">{t('liveNow')}</Typography.Text>
          <div>
            {live.connectors.length ? (
              live.connectors.map((c) => (
                <Tag key={c} color="green" style={{ marginRight: 4 }} data-testid="project-live-connector">
                  {nameOf(c)}: {live.version}
                </Tag>
              ))
            ) : (
              <Typography.Text type="secondary">{t('noConnectors')}</Typography.Text>
            )}
          </div>
        </div>
      )}
      {embedShown && embeddable.length > 0 && (
        <div style={{ marginBottom: 16 }}>
          <Typography.Text bold>{t('embedTitle')}</Typography.Text>
          <Typography.Paragraph type="secondary" style={{ marginBottom: 4 }}>
            {t('embedHelp')}
          </Typography.Paragraph>
          {embeddable.map((r) => (
            <ConnectorPanel
              key={r.res_id}
              connector="999"
              target={{ kind: 'workflow', id: r.res_id, project_id: projectId }}
              title={r.name}
            />
          ))}
        </div>
      )}
      {(q.data?.records ?? []).map((r) => (
        <div key={r.record_id} data-testid="project-record" style={{ marginBottom: 16 }}>
          <Space>
            <Tag color="green">{r.version}</Tag>
            <Typography.Text>{t(`publishStatus.${r.status}`)}</Typography.Text>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {format.dateTime(r.create_time * 1000)}
            </Typography.Text>
          </Space>
          <ResultsTable results={r.results} />
        </div>
      ))}
    </SidePanel>
  );
}
