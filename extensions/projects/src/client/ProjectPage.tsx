// A project, IDE-like: its resources grouped by kind in a side tree, opened in tabs with their kind's editor
// (kinds that give one through ResourceKinds; others open their own page); add from the space, take out;
// publish a version to connectors with the record of what each resource got; history with rollback; copy
// (also into another space), archive, delete.
import {
  Button,
  Card,
  Dropdown,
  Empty,
  Grid,
  Menu,
  Popconfirm,
  Space,
  Spin,
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
  toast,
  useApi,
  usePageTitle,
  useRegistryEntries,
  ResourceActionsBar,
  testId,
} from '@tessera/sdk/client';
import { Suspense, useMemo, useState } from 'react';
import './project.css';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { useSpaceId } from './space.ts';
import { VariablesPane } from './VariablesPane.tsx';
import {
  ArchiveProject,
  CopyProject,
  DeleteProject,
  GetProject,
  RemoveProjectResources,
  type ProjectInfo,
  type ProjectResourceView,
} from '../shared/api.ts';
import { CopyToModal, AddModal } from './ProjectDialogs.tsx';
import { PublishModal } from './PublishModal.tsx';
import { HistoryDrawer, RecordsDrawer } from './ProjectHistory.tsx';

type Resource = ProjectResourceView;
type Info = ProjectInfo;
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
