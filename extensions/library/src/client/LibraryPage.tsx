// The library: every kind of resource of the space in one list (type, name, creator), folders to sort
// them into, and the recycle bin. Kinds come from the ResourceKinds points; this page names none.
import {
  Button,
  Dropdown,
  Empty,
  Input,
  Menu,
  Popconfirm,
  Radio,
  Select,
  Space,
  Table,
  Tag,
  Tree,
  Typography,
} from '@arco-design/web-react';
import { IconDelete, IconEdit, IconFolder, IconFolderAdd, IconMore } from '@arco-design/web-react/icon';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  itemPathOf,
  Modal,
  PageHeading,
  ResourceKinds,
  SearchInput,
  toast,
  useApi,
  useFormat,
  usePageTitle,
  useRegistryEntries,
  type RegistryEntry,
  type ResourceKind,
  testId,
} from '@tessera/sdk/client';
import { Suspense, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LibraryActions, type LibraryAction } from './points.ts';
import { SpaceSelect } from '@tessera/ext-spaces/widgets';
import {
  CopyResource,
  CreateFolder,
  DeleteFolder,
  DeleteResource,
  ExportResource,
  FolderTree as GetFolderTree,
  ImportResource,
  ListKinds,
  ListRecycled,
  ListResources,
  MoveResources,
  PurgeResource,
  RestoreResource,
  UpdateFolder,
  type FolderView,
  type ResourceView,
} from '../shared/api.ts';
import { useSpaceId } from './space.ts';

/** What the library does to one resource, by the action's name. */
const ACTIONS = { delete: DeleteResource, restore: RestoreResource, purge: PurgeResource };

type Item = ResourceView;
const PAGE = 30;
const BIN = '__bin__';

export function LibraryPage() {
  const { t } = useTranslation('library');
  usePageTitle(t('title'));
  const spaceId = useSpaceId();
  if (!spaceId) return <Typography.Paragraph>{t('noSpace')}</Typography.Paragraph>;
  return <Library spaceId={spaceId} />;
}

function Library({ spaceId }: { spaceId: string }) {
  const { t } = useTranslation('library');
  const api = useApi();
  const qc = useQueryClient();
  const format = useFormat();
  const entries = useRegistryEntries(ResourceKinds);
  const kinds = useMemo(() => new Map(entries.map((e) => [e.value.kind, e])), [entries]);
  const caps = useQuery({
    queryKey: ['library', 'kinds'],
    queryFn: () => api.call(ListKinds, undefined),
  });
  const capsOf = (kind: string) => caps.data?.kinds.find((k) => k.kind === kind);
  const [types, setTypes] = useState<string[]>([]);
  const [name, setName] = useState('');
  const [creator, setCreator] = useState<'all' | 'me'>('all');
  const [place, setPlace] = useState<string>(''); // '' all, folder id, or BIN
  const [moving, setMoving] = useState<Item | undefined>();
  const [copying, setCopying] = useState<Item | undefined>();
  const actionEntries = useRegistryEntries(LibraryActions);
  const actions = useMemo(
    () => [...actionEntries].sort((a, b) => (a.value.order ?? 100) - (b.value.order ?? 100)),
    [actionEntries],
  );
  const [acting, setActing] = useState<{ action: LibraryAction; item: Item } | undefined>();
  const importInput = useRef<HTMLInputElement>(null);
  const importFile = useMutation({
    mutationFn: async (file: File) => {
      let bundle: unknown;
      try {
        bundle = JSON.parse(await file.text());
      } catch {
        throw new Error(t('importNotJson'));
      }
      return api.call(ImportResource, {
        space_id: spaceId,
        bundle,
      });
    },
    onSuccess: async () => {
      toast.success(t('imported'));
      await refresh();
    },
    onError: (e) => {
      if (!(e as { code?: number }).code) toast.error(e.message);
    },
  });
  const exportItem = async (i: Item) => {
    const r = await api.call(ExportResource, {
      space_id: spaceId,
      res_type: i.res_type,
      res_id: i.res_id,
    });
    const url = URL.createObjectURL(new Blob([JSON.stringify(r.bundle, null, 2)], { type: 'application/json' }));
    const a = Object.assign(document.createElement('a'), { href: url, download: r.file_name });
    a.click();
    URL.revokeObjectURL(url);
  };
  const bin = place === BIN;
  const folders = useQuery({
    queryKey: ['library', 'folders', spaceId],
    queryFn: () => api.call(GetFolderTree, { space_id: spaceId }),
  });
  const list = useInfiniteQuery({
    queryKey: ['library', 'list', spaceId, types, name, creator, place],
    initialPageParam: '',
    queryFn: ({ pageParam }) =>
      api.call(bin ? ListRecycled : ListResources, {
        space_id: spaceId,
        res_type_filter: types.length ? types : undefined,
        name: name || undefined,
        creator: creator === 'me' ? 'me' : undefined,
        folder_id: place && !bin ? place : undefined,
        cursor: pageParam || undefined,
        size: PAGE,
      }),
    getNextPageParam: (last) => (last.has_more ? last.cursor : undefined),
  });
  const refresh = () => qc.invalidateQueries({ queryKey: ['library'] });
  const act = useMutation({
    mutationFn: ({ path, item }: { path: keyof typeof ACTIONS; item: Item }) =>
      api.call(ACTIONS[path], {
        space_id: spaceId,
        res_type: item.res_type,
        res_id: item.res_id,
      }),
    onSuccess: async (r, v) => {
      toast.success(
        v.path === 'delete'
          ? 'recycled' in r && r.recycled
            ? t('toBin')
            : t('deleted')
          : v.path === 'restore'
            ? t('restored')
            : t('purged'),
      );
      await refresh();
    },
  });
  const items = list.data?.pages.flatMap((p) => p.resource_list) ?? [];
  const folderName = (id: string) => folders.data?.folders.find((f) => f.id === id)?.name ?? '';

  return (
    <div data-testid="library-page">
      <PageHeading
        title={t('title')}
        intro={t('intro')}
        action={
          <>
            <Button
              loading={importFile.isPending}
              onClick={() => importInput.current?.click()}
              data-testid="library-import"
            >
              {t('import')}
            </Button>
            <input
              ref={importInput}
              type="file"
              accept=".json,application/json"
              style={{ display: 'none' }}
              data-testid="library-import-file"
              onChange={(e) => e.target.files?.[0] && importFile.mutate(e.target.files[0])}
            />
          </>
        }
      />
      <div style={{ display: 'flex', gap: 16, alignItems: 'flex-start' }}>
        <FolderTree spaceId={spaceId} folders={folders.data?.folders ?? []} place={place} onPlace={setPlace} />
        <div style={{ flex: 1, minWidth: 0 }}>
          <Space wrap style={{ marginBottom: 12 }}>
            <SearchInput placeholder={t('search')} onSearch={setName} data-testid="library-search" />
            <Select
              mode="multiple"
              style={{ minWidth: 220 }}
              placeholder={t('allTypes')}
              value={types}
              onChange={setTypes}
              allowClear
              data-testid="library-type-filter"
            >
              {entries.map((e) => (
                <Select.Option key={e.value.kind} value={e.value.kind}>
                  <KindLabel entry={e} />
                </Select.Option>
              ))}
            </Select>
            <Radio.Group type="button" value={creator} onChange={setCreator} data-testid="library-creator">
              <Radio value="all">{t('everyone')}</Radio>
              <Radio value="me">{t('mine')}</Radio>
            </Radio.Group>
          </Space>
          <Table<Item>
            rowKey={(i) => `${i.res_type}:${i.res_id}`}
            loading={list.isLoading}
            pagination={false}
            data={items}
            noDataElement={
              <Empty
                description={
                  bin
                    ? t('binEmpty')
                    : name || types.length || creator === 'me'
                      ? t('emptySearch')
                      : place
                        ? t('folderEmpty')
                        : t('empty')
                }
              />
            }
            columns={[
              {
                title: t('columns.name'),
                dataIndex: 'name',
                render: (_: unknown, i) => {
                  const k = kinds.get(i.res_type);
                  const Icon = k?.value.icon;
                  const to = k ? itemPathOf(k.value, i.res_id, spaceId) : undefined;
                  return (
                    <div data-testid="library-item" data-kind={i.res_type} data-id={i.res_id}>
                      <Space size={6}>
                        {Icon && <Icon />}
                        {to && !bin ? (
                          <Link to={to} style={{ fontWeight: 500 }} data-testid="library-item-link">
                            {i.name}
                          </Link>
                        ) : (
                          <span style={{ fontWeight: 500 }}>{i.name}</span>
                        )}
                      </Space>
                      {i.desc && (
                        <Typography.Text type="secondary" ellipsis style={{ display: 'block', maxWidth: 520 }}>
                          {i.desc}
                        </Typography.Text>
                      )}
                    </div>
                  );
                },
              },
              {
                title: t('columns.type'),
                dataIndex: 'res_type',
                width: 100,
                render: (k: string) => <Tag>{kinds.get(k) ? <KindLabel entry={kinds.get(k)!} /> : k}</Tag>,
              },
              {
                title: t('columns.status'),
                dataIndex: 'published',
                width: 80,
                render: (p?: boolean) =>
                  p === undefined ? '' : <Tag color={p ? 'green' : undefined}>{p ? t('published') : t('draft')}</Tag>,
              },
              { title: t('columns.creator'), dataIndex: 'creator_name', width: 110, ellipsis: true },
              {
                title: bin ? t('columns.deleted') : t('columns.edited'),
                dataIndex: 'edit_time',
                width: 150,
                render: (s: number, i) => format.dateTime((bin ? (i.delete_time ?? s) : s) * 1000),
              },
              ...(bin
                ? []
                : [
                    {
                      title: t('columns.folder'),
                      dataIndex: 'folder_id',
                      width: 110,
                      ellipsis: true,
                      render: (f: string) => folderName(f),
                    },
                  ]),
              {
                title: '',
                key: 'actions',
                width: 160,
                render: (_: unknown, i: Item) =>
                  bin ? (
                    <Space size={0}>
                      <Button
                        size="mini"
                        type="text"
                        onClick={() => act.mutate({ path: 'restore', item: i })}
                        data-testid="library-restore"
                      >
                        {t('restore')}
                      </Button>
                      {capsOf(i.res_type)?.can_purge && (
                        <Popconfirm
                          title={t('purgeTitle', { name: i.name })}
                          onOk={() => act.mutate({ path: 'purge', item: i })}
                        >
                          <Button size="mini" type="text" status="danger" data-testid="library-purge">
                            {t('purge')}
                          </Button>
                        </Popconfirm>
                      )}
                    </Space>
                  ) : (
                    <Space size={0}>
                      <Button size="mini" type="text" onClick={() => setMoving(i)} data-testid="library-move">
                        {t('move')}
                      </Button>
                      {(capsOf(i.res_type)?.can_export ||
                        actions.some(
                          (a) =>
                            a.value.applies?.(i, capsOf(i.res_type) ?? { can_export: false, can_import: false }) ??
                            true,
                        )) && (
                        <Dropdown
                          trigger="click"
                          droplist={
                            <Menu
                              onClickMenuItem={(key) => {
                                if (key === 'copy') setCopying(i);
                                else if (key === 'export') void exportItem(i);
                                else {
                                  const a = actions.find((x) => `action:${x.key}` === key);
                                  if (a) setActing({ action: a.value, item: i });
                                }
                              }}
                            >
                              {capsOf(i.res_type)?.can_export && (
                                <Menu.Item key="copy" data-testid="library-copy">
                                  {t('copy')}
                                </Menu.Item>
                              )}
                              {capsOf(i.res_type)?.can_export && (
                                <Menu.Item key="export" data-testid="library-export">
                                  {t('export')}
                                </Menu.Item>
                              )}
                              {actions
                                .filter(
                                  (a) =>
                                    a.value.applies?.(
                                      i,
                                      capsOf(i.res_type) ?? { can_export: false, can_import: false },
                                    ) ?? true,
                                )
                                .map((a) => (
                                  <Menu.Item key={`action:${a.key}`} data-testid={`library-action-${a.key}`}>
                                    <ActionLabel owner={a.owner} label={a.value.label} />
                                  </Menu.Item>
                                ))}
                            </Menu>
                          }
                        >
                          <Button
                            size="mini"
                            type="text"
                            icon={<IconMore />}
                            aria-label={t('moreActions')}
                            data-testid="library-more-actions"
                          />
                        </Dropdown>
                      )}
                      {capsOf(i.res_type)?.can_delete && (
                        <Popconfirm
                          title={t('deleteTitle', { name: i.name })}
                          content={capsOf(i.res_type)?.recyclable ? t('deleteToBin') : t('deleteForGood')}
                          onOk={() => act.mutate({ path: 'delete', item: i })}
                        >
                          <Button size="mini" type="text" status="danger" data-testid="library-delete">
                            {t('delete')}
                          </Button>
                        </Popconfirm>
                      )}
                    </Space>
                  ),
              },
            ]}
          />
          {list.hasNextPage && (
            <Button
              long
              style={{ marginTop: 8 }}
              loading={list.isFetchingNextPage}
              onClick={() => void list.fetchNextPage()}
              data-testid="library-more"
            >
              {t('more')}
            </Button>
          )}
        </div>
      </div>
      {moving && (
        <MoveModal
          spaceId={spaceId}
          item={moving}
          folders={folders.data?.folders ?? []}
          onClose={() => setMoving(undefined)}
        />
      )}
      {copying && <CopyModal spaceId={spaceId} item={copying} onClose={() => setCopying(undefined)} />}
      {acting && (
        <Suspense fallback={null}>
          <acting.action.Dialog spaceId={spaceId} item={acting.item} onClose={() => setActing(undefined)} />
        </Suspense>
      )}
    </div>
  );
}

function ActionLabel({ owner, label }: { owner: string; label: string }) {
  const { t } = useTranslation(owner);
  return <>{t(label)}</>;
}

function KindLabel({ entry }: { entry: RegistryEntry<ResourceKind> }) {
  const { t } = useTranslation(entry.owner);
  return <>{t(entry.value.label)}</>;
}

type TreeNode = { key: string; title: React.ReactNode; children?: TreeNode[] };

function FolderTree({
  spaceId,
  folders,
  place,
  onPlace,
}: {
  spaceId: string;
  folders: FolderView[];
  place: string;
  onPlace(p: string): void;
}) {
  const { t } = useTranslation('library');
  const api = useApi();
  const qc = useQueryClient();
  const [editing, setEditing] = useState<{ id?: string; parent?: string; name: string } | undefined>();
  const done = () => qc.invalidateQueries({ queryKey: ['library'] });
  const save = useMutation({
    mutationFn: async (e: { id?: string; parent?: string; name: string }) => {
      if (e.id) await api.call(UpdateFolder, { space_id: spaceId, folder_id: e.id, name: e.name.trim() });
      else await api.call(CreateFolder, { space_id: spaceId, name: e.name.trim(), parent_id: e.parent || undefined });
    },
    onSuccess: async () => {
      setEditing(undefined);
      await done();
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => api.call(DeleteFolder, { space_id: spaceId, folder_id: id }),
    onSuccess: async (_r, id) => {
      if (place === id) onPlace('');
      await done();
    },
  });
  const nodes = (parent: string): TreeNode[] =>
    folders
      .filter((f) => f.parent_id === parent)
      .map((f) => ({
        key: f.id,
        title: (
          <Space size={4} data-testid="library-folder" data-name={f.name}>
            <span>{f.name}</span>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {f.resource_count}
            </Typography.Text>
            <Dropdown
              trigger="click"
              droplist={
                <Menu
                  onClickMenuItem={(key) => {
                    if (key === 'add') setEditing({ parent: f.id, name: '' });
                    if (key === 'rename') setEditing({ id: f.id, name: f.name });
                    if (key === 'delete') remove.mutate(f.id);
                  }}
                >
                  <Menu.Item key="add">
                    <IconFolderAdd /> {t('folder.add')}
                  </Menu.Item>
                  <Menu.Item key="rename">
                    <IconEdit /> {t('folder.rename')}
                  </Menu.Item>
                  <Menu.Item key="delete">
                    <IconDelete /> {t('folder.delete')}
                  </Menu.Item>
                </Menu>
              }
            >
              <IconMore onClick={(e) => e.stopPropagation()} data-testid="library-folder-menu" />
            </Dropdown>
          </Space>
        ),
        children: nodes(f.id),
      }));
  return (
    <div style={{ width: 200, flex: 'none' }} data-testid="library-folders">
      <Menu
        selectedKeys={[place || 'all']}
        onClickMenuItem={(key) => onPlace(key === 'all' ? '' : key)}
        style={{ marginBottom: 8 }}
      >
        <Menu.Item key="all" data-testid="library-all">
          {t('all')}
        </Menu.Item>
        <Menu.Item key={BIN} data-testid="library-bin">
          <IconDelete /> {t('bin')}
        </Menu.Item>
      </Menu>
      <Space style={{ justifyContent: 'space-between', width: '100%' }}>
        <Typography.Text type="secondary">
          <IconFolder /> {t('folders')}
        </Typography.Text>
        <Button
          size="mini"
          type="text"
          icon={<IconFolderAdd />}
          onClick={() => setEditing({ name: '' })}
          aria-label={t('folder.new')}
          data-testid="library-folder-new"
        />
      </Space>
      {folders.length ? (
        <Tree treeData={nodes('')} selectedKeys={[place]} onSelect={([key]) => key && onPlace(String(key))} blockNode />
      ) : (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('noFolders')}
        </Typography.Text>
      )}
      {editing && (
        <Modal
          visible
          title={editing.id ? t('folder.rename') : t('folder.new')}
          onCancel={() => setEditing(undefined)}
          onOk={() => save.mutate(editing)}
          confirmLoading={save.isPending}
          okButtonProps={{ disabled: !editing.name.trim(), ...testId('library-folder-save') }}
        >
          <Input
            autoFocus
            value={editing.name}
            maxLength={100}
            onChange={(name) => setEditing({ ...editing, name })}
            onPressEnter={() => editing.name.trim() && save.mutate(editing)}
            data-testid="library-folder-name"
          />
        </Modal>
      )}
    </div>
  );
}

function MoveModal({
  spaceId,
  item,
  folders,
  onClose,
}: {
  spaceId: string;
  item: Item;
  folders: FolderView[];
  onClose(): void;
}) {
  const { t } = useTranslation('library');
  const api = useApi();
  const qc = useQueryClient();
  const [to, setTo] = useState(item.folder_id);
  const pathOf = (f: FolderView): string => {
    const parent = folders.find((x) => x.id === f.parent_id);
    return parent ? `${pathOf(parent)} / ${f.name}` : f.name;
  };
  const move = useMutation({
    mutationFn: () =>
      api.call(MoveResources, {
        space_id: spaceId,
        resources: [{ res_type: item.res_type, res_id: item.res_id }],
        folder_id: to,
      }),
    onSuccess: async () => {
      toast.success(t('moved'));
      await qc.invalidateQueries({ queryKey: ['library'] });
      onClose();
    },
  });
  return (
    <Modal
      visible
      title={t('moveTitle', { name: item.name })}
      onCancel={onClose}
      onOk={() => move.mutate()}
      confirmLoading={move.isPending}
      okButtonProps={{ ...testId('library-move-save') }}
    >
      <Select style={{ width: '100%' }} value={to} onChange={setTo} data-testid="library-move-folder">
        <Select.Option value="">{t('noFolder')}</Select.Option>
        {folders.map((f) => (
          <Select.Option key={f.id} value={f.id}>
            {pathOf(f)}
          </Select.Option>
        ))}
      </Select>
    </Modal>
  );
}

function CopyModal({ spaceId, item, onClose }: { spaceId: string; item: Item; onClose(): void }) {
  const { t } = useTranslation('library');
  const api = useApi();
  const qc = useQueryClient();
  const [to, setTo] = useState(spaceId);
  const [name, setName] = useState(item.name);
  const copy = useMutation({
    mutationFn: () =>
      api.call(CopyResource, {
        space_id: spaceId,
        res_type: item.res_type,
        res_id: item.res_id,
        to_space_id: to,
        name: name.trim(),
      }),
    onSuccess: async () => {
      toast.success(to === spaceId ? t('copied') : t('copiedTo'));
      await qc.invalidateQueries({ queryKey: ['library'] });
      onClose();
    },
  });
  return (
    <Modal
      visible
      title={t('copyTitle', { name: item.name })}
      onCancel={onClose}
      onOk={() => copy.mutate()}
      confirmLoading={copy.isPending}
      okButtonProps={{ disabled: !name.trim(), ...testId('library-copy-save') }}
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t('copyTo')}</Typography.Text>
        <SpaceSelect value={to} onChange={setTo} testId="library-copy-space" />
        <Typography.Text type="secondary">{t('copyName')}</Typography.Text>
        <Input value={name} maxLength={100} onChange={setName} data-testid="library-copy-name" />
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('copyHelp')}
        </Typography.Text>
      </Space>
    </Modal>
  );
}
