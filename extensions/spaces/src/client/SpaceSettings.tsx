import {
  Alert,
  Button,
  Card,
  Checkbox,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Select,
  Space,
  Table,
  Tabs,
  Tag,
  Typography,
} from '@arco-design/web-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PageHeader, SearchInput, toast, useApi, useFormat, usePageTitle } from '@tessera/sdk/client';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  AddMembers,
  AddPublishMembers,
  CreateInvite,
  DecideApply,
  DeleteSpace,
  ExitSpace,
  ListApplies,
  ListInvites,
  ListSpaces,
  RemoveMember,
  RemovePublishMember,
  RevokeInvite,
  SearchMembers,
  TransferSpace,
  UpdateMember,
  UpdateSpace,
  type ApplyView,
  type InviteView,
  type SpaceInfo,
  type SpaceMemberInfo,
} from '../shared/index.ts';
import { useCurrentSpace, useRoleAuth, type RoleAuth } from './api.ts';
import { currentSpace } from './current.ts';

type TabProps = { space: SpaceInfo; auth: RoleAuth };

function useMembers(spaceId: string, search = '') {
  const api = useApi();
  return useQuery({
    queryKey: ['spaces', 'members', spaceId, search],
    queryFn: () =>
      api.call(SearchMembers, {
        space_id: spaceId,
        search_word: search || undefined,
        size: 100,
      }),
  });
}

function Overview({ space, auth }: TabProps) {
  const { t } = useTranslation('spaces');
  const api = useApi();
  const qc = useQueryClient();
  const [name, setName] = useState(space.name);
  const [description, setDescription] = useState(space.description);
  const [successor, setSuccessor] = useState<string | undefined>();
  const [newOwner, setNewOwner] = useState<string | undefined>();
  const members = useMembers(space.space_id);
  const others = (members.data?.members ?? []).filter((m) => m.space_role_type !== 1);
  useEffect(() => {
    setName(space.name);
    setDescription(space.description);
  }, [space]);
  const refresh = () => qc.invalidateQueries({ queryKey: ['spaces'] });
  const isOwner = auth.space_role_type === 1;
  const leaveToPersonal = async () => {
    await refresh();
    const list = await api.call(ListSpaces, {});
    if (list.spaces[0]) currentSpace().set(list.spaces[0].space_id);
  };
  return (
    <Space direction="vertical" size="large" style={{ width: '100%', maxWidth: 640 }}>
      <Form layout="vertical">
        <Form.Item label={t('create.name')}>
          <Input
            value={name}
            onChange={setName}
            maxLength={50}
            disabled={!auth.permissions.update_space}
            data-testid="space-name"
          />
        </Form.Item>
        <Form.Item label={t('create.description')}>
          <Input.TextArea
            value={description}
            onChange={setDescription}
            maxLength={2000}
            disabled={!auth.permissions.update_space}
          />
        </Form.Item>
        {auth.permissions.update_space && (
          <Button
            type="primary"
            style={{ width: 'auto' }}
            data-testid="space-save"
            onClick={async () => {
              await api.call(UpdateSpace, { space_id: space.space_id, name, description });
              toast.success(t('settings.saved'));
              await refresh();
            }}
          >
            {t('settings.save')}
          </Button>
        )}
      </Form>
      {space.space_type === 2 && (
        <Card title={t('settings.danger')} size="small">
          <Space direction="vertical" style={{ width: '100%' }}>
            {auth.permissions.transfer_ownership && (
              <Space wrap>
                <Select
                  placeholder={t('settings.transferTo')}
                  style={{ width: 240 }}
                  value={newOwner}
                  onChange={setNewOwner}
                  options={others.map((m) => ({ label: `${m.name} (${m.email})`, value: m.user_id }))}
                  data-testid="transfer-select"
                />
                <Button
                  disabled={!newOwner}
                  data-testid="transfer-submit"
                  onClick={async () => {
                    if (!newOwner) return;
                    await api.call(TransferSpace, { space_id: space.space_id, user_id: newOwner });
                    toast.success(t('settings.transferred'));
                    await refresh();
                  }}
                >
                  {t('settings.transfer')}
                </Button>
              </Space>
            )}
            <Space wrap>
              {isOwner && (
                <Select
                  placeholder={t('settings.exitSuccessor')}
                  style={{ width: 240 }}
                  value={successor}
                  onChange={setSuccessor}
                  options={others.map((m) => ({ label: `${m.name} (${m.email})`, value: m.user_id }))}
                  data-testid="exit-successor"
                />
              )}
              <Popconfirm
                title={t('settings.exitConfirm')}
                onOk={async () => {
                  await api.call(ExitSpace, {
                    space_id: space.space_id,
                    successor_user_id: isOwner ? successor : undefined,
                  });
                  toast.success(t('settings.left'));
                  await leaveToPersonal();
                }}
              >
                <Button status="warning" disabled={isOwner && !successor} data-testid="space-exit">
                  {t('settings.exit')}
                </Button>
              </Popconfirm>
            </Space>
            {auth.permissions.delete_space && (
              <Popconfirm
                title={t('settings.deleteConfirm')}
                onOk={async () => {
                  await api.call(DeleteSpace, { space_id: space.space_id });
                  toast.success(t('settings.deleted'));
                  await leaveToPersonal();
                }}
              >
                <Button status="danger" data-testid="space-delete">
                  {t('settings.delete')}
                </Button>
              </Popconfirm>
            )}
          </Space>
        </Card>
      )}
    </Space>
  );
}

function Members({ space, auth }: TabProps) {
  const format = useFormat();
  const { t } = useTranslation('spaces');
  const api = useApi();
  const qc = useQueryClient();
  const [search, setSearch] = useState('');
  const [email, setEmail] = useState('');
  const members = useMembers(space.space_id, search);
  const refresh = () => qc.invalidateQueries({ queryKey: ['spaces'] });
  const isOwner = auth.space_role_type === 1;
  const canManage = (m: SpaceMemberInfo) =>
    auth.permissions.manage_members && m.space_role_type !== 1 && (isOwner || m.space_role_type === 3);
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space wrap>
        <SearchInput placeholder={t('members.search')} onSearch={setSearch} data-testid="member-search" />
        {auth.permissions.manage_members && (
          <>
            <Input
              placeholder={t('members.addEmail')}
              value={email}
              onChange={setEmail}
              style={{ width: 240 }}
              data-testid="member-add-email"
            />
            <Button
              disabled={!email.trim()}
              data-testid="member-add"
              onClick={async () => {
                const r = await api.call(AddMembers, {
                  space_id: space.space_id,
                  emails: [email.trim()],
                });
                if (r.not_exist.length) toast.warning(t('members.notFound'));
                else toast.success(t('members.added'));
                setEmail('');
                await refresh();
              }}
            >
              {t('members.add')}
            </Button>
          </>
        )}
      </Space>
      <Table<SpaceMemberInfo>
        rowKey="user_id"
        loading={members.isLoading}
        data={members.data?.members ?? []}
        pagination={false}
        data-testid="members-table"
        columns={[
          { title: t('members.name'), dataIndex: 'name' },
          { title: t('members.email'), dataIndex: 'email' },
          {
            title: t('members.role'),
            dataIndex: 'space_role_type',
            render: (role: number, m) =>
              canManage(m) ? (
                <Select
                  size="small"
                  value={role}
                  style={{ width: 120 }}
                  data-testid={`member-role-${m.user_id}`}
                  onChange={async (v) => {
                    await api.call(UpdateMember, {
                      space_id: space.space_id,
                      user_id: m.user_id,
                      space_role_type: v,
                    });
                    toast.success(t('members.roleChanged'));
                    await refresh();
                  }}
                  options={[2, 3]
                    .filter((r) => isOwner || r === 3 || r === role)
                    .map((r) => ({ label: t(`roles.${r}`), value: r }))}
                />
              ) : (
                <Tag data-testid={`member-role-tag-${m.user_id}`}>{t(`roles.${role}`)}</Tag>
              ),
          },
          { title: t('members.joined'), dataIndex: 'joined_at', render: (d: string) => format.date(d) },
          {
            title: '',
            render: (_: unknown, m) =>
              canManage(m) && (
                <Popconfirm
                  title={t('members.removeConfirm')}
                  onOk={async () => {
                    await api.call(RemoveMember, { space_id: space.space_id, user_id: m.user_id });
                    toast.success(t('members.removed'));
                    await refresh();
                  }}
                >
                  <Button size="mini" status="danger">
                    {t('members.remove')}
                  </Button>
                </Popconfirm>
              ),
          },
        ]}
      />
    </Space>
  );
}

function Invites({ space, auth }: TabProps) {
  const format = useFormat();
  const { t } = useTranslation('spaces');
  const api = useApi();
  const qc = useQueryClient();
  const [role, setRole] = useState(3);
  const [approval, setApproval] = useState(false);
  const [days, setDays] = useState(7);
  const list = useQuery({
    queryKey: ['spaces', 'invites', space.space_id],
    queryFn: () => api.call(ListInvites, { space_id: space.space_id }),
  });
  const refresh = () => qc.invalidateQueries({ queryKey: ['spaces', 'invites', space.space_id] });
  const copy = (path: string) =>
    navigator.clipboard?.writeText(`${location.origin}${path}`).then(() => toast.success(t('invites.copied')));
  const create = useMutation({
    mutationFn: () =>
      api.call(CreateInvite, {
        space_id: space.space_id,
        space_role_type: role,
        need_approval: approval,
        expire_days: days,
      }),
    onSuccess: async (inv) => {
      await refresh();
      void copy(inv.invite_path);
    },
  });
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space wrap align="center">
        <span>{t('invites.role')}</span>
        <Select
          size="small"
          value={role}
          onChange={setRole}
          style={{ width: 120 }}
          options={[3, ...(auth.space_role_type === 1 ? [2] : [])].map((r) => ({ label: t(`roles.${r}`), value: r }))}
        />
        <Checkbox checked={approval} onChange={setApproval}>
          {t('invites.approval')}
        </Checkbox>
        <span>{t('invites.expireDays')}</span>
        <InputNumber
          size="small"
          min={1}
          max={90}
          value={days}
          onChange={(v) => setDays(Number(v) || 7)}
          style={{ width: 80 }}
        />
        <Button type="primary" loading={create.isPending} onClick={() => create.mutate()} data-testid="invite-create">
          {t('invites.create')}
        </Button>
      </Space>
      <Table<InviteView>
        rowKey="invite_id"
        loading={list.isLoading}
        data={list.data?.invites ?? []}
        pagination={false}
        data-testid="invites-table"
        columns={[
          {
            title: t('invites.link'),
            dataIndex: 'invite_path',
            render: (p: string) => <code data-testid="invite-link">{`${location.origin}${p}`}</code>,
          },
          { title: t('invites.role'), dataIndex: 'space_role_type', render: (r: number) => t(`roles.${r}`) },
          { title: t('invites.approval'), dataIndex: 'need_approval', render: (a: boolean) => (a ? '✓' : '') },
          {
            title: t('invites.status'),
            dataIndex: 'status',
            render: (s: number) => <Tag color={s === 1 ? 'green' : 'gray'}>{t(`invites.statuses.${s}`)}</Tag>,
          },
          { title: t('invites.joins'), dataIndex: 'join_count' },
          { title: t('invites.expires'), dataIndex: 'expire_at', render: (d: string) => format.dateTime(d) },
          {
            title: '',
            render: (_: unknown, inv) =>
              inv.status === 1 && (
                <Space>
                  <Button size="mini" onClick={() => void copy(inv.invite_path)}>
                    {t('invites.copy')}
                  </Button>
                  <Button
                    size="mini"
                    status="danger"
                    data-testid="invite-revoke"
                    onClick={async () => {
                      await api.call(RevokeInvite, {
                        space_id: space.space_id,
                        invite_id: inv.invite_id,
                      });
                      toast.success(t('invites.revoked'));
                      await refresh();
                    }}
                  >
                    {t('invites.revoke')}
                  </Button>
                </Space>
              ),
          },
        ]}
      />
    </Space>
  );
}

function Applications({ space }: TabProps) {
  const { t } = useTranslation('spaces');
  const api = useApi();
  const qc = useQueryClient();
  const list = useQuery({
    queryKey: ['spaces', 'applies', space.space_id],
    queryFn: () => api.call(ListApplies, { space_id: space.space_id }),
  });
  const operate = async (apply_id: string, action: 'approve' | 'reject') => {
    await api.call(DecideApply, { space_id: space.space_id, apply_id, action });
    toast.success(t(action === 'approve' ? 'applications.approved' : 'applications.rejected'));
    await qc.invalidateQueries({ queryKey: ['spaces'] });
  };
  return (
    <Table<ApplyView>
      rowKey="apply_id"
      loading={list.isLoading}
      data={list.data?.applies ?? []}
      pagination={false}
      noDataElement={t('applications.empty')}
      data-testid="applications-table"
      columns={[
        { title: t('applications.user'), render: (_: unknown, a) => `${a.name} (${a.email})` },
        { title: t('applications.message'), dataIndex: 'message' },
        {
          title: t('applications.status'),
          dataIndex: 'status',
          render: (s: number) => (
            <Tag color={s === 1 ? 'orange' : s === 2 ? 'green' : 'gray'}>{t(`applications.statuses.${s}`)}</Tag>
          ),
        },
        {
          title: '',
          render: (_: unknown, a) =>
            a.status === 1 && (
              <Space>
                <Button
                  size="mini"
                  type="primary"
                  onClick={() => void operate(a.apply_id, 'approve')}
                  data-testid="apply-approve"
                >
                  {t('applications.approve')}
                </Button>
                <Button size="mini" onClick={() => void operate(a.apply_id, 'reject')} data-testid="apply-reject">
                  {t('applications.reject')}
                </Button>
              </Space>
            ),
        },
      ]}
    />
  );
}

function PublishMembers({ space, auth }: TabProps) {
  const { t } = useTranslation('spaces');
  const api = useApi();
  const qc = useQueryClient();
  const [pick, setPick] = useState<string | undefined>();
  const members = useMembers(space.space_id);
  const publishers = (members.data?.members ?? []).filter((m) => m.is_publish_member);
  const refresh = () => qc.invalidateQueries({ queryKey: ['spaces', 'members', space.space_id] });
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Typography.Text type="secondary">{t('publish.intro')}</Typography.Text>
      {auth.permissions.manage_publish_members && (
        <Space>
          <Select
            style={{ width: 260 }}
            value={pick}
            onChange={setPick}
            options={(members.data?.members ?? [])
              .filter((m) => !m.is_publish_member)
              .map((m) => ({ label: `${m.name} (${m.email})`, value: m.user_id }))}
            data-testid="publish-pick"
          />
          <Button
            disabled={!pick}
            data-testid="publish-add"
            onClick={async () => {
              if (!pick) return;
              await api.call(AddPublishMembers, {
                space_id: space.space_id,
                user_ids: [pick],
              });
              setPick(undefined);
              await refresh();
            }}
          >
            {t('publish.add')}
          </Button>
        </Space>
      )}
      <Table<SpaceMemberInfo>
        rowKey="user_id"
        data={publishers}
        pagination={false}
        noDataElement={t('publish.empty')}
        data-testid="publish-table"
        columns={[
          { title: t('members.name'), dataIndex: 'name' },
          { title: t('members.email'), dataIndex: 'email' },
          {
            title: '',
            render: (_: unknown, m) =>
              auth.permissions.manage_publish_members && (
                <Button
                  size="mini"
                  onClick={async () => {
                    await api.call(RemovePublishMember, {
                      space_id: space.space_id,
                      user_id: m.user_id,
                    });
                    await refresh();
                  }}
                >
                  {t('publish.remove')}
                </Button>
              ),
          },
        ]}
      />
    </Space>
  );
}

export function SpaceSettingsPage() {
  const { t } = useTranslation('spaces');
  const { space } = useCurrentSpace();
  const auth = useRoleAuth(space?.space_id);
  usePageTitle(t('settings.title'));
  if (!space || !auth.data) return null;
  const a = auth.data;
  const team = space.space_type === 2;
  return (
    <div className="tessera-page" data-testid="space-settings" data-space-id={space.space_id}>
      <PageHeader title={`${t('settings.title')} · ${space.name}`} />
      {!team && <Alert type="info" content={t('settings.personalNote')} style={{ marginBottom: 16 }} />}
      <Tabs defaultActiveTab="overview" key={space.space_id}>
        <Tabs.TabPane key="overview" title={t('settings.tabs.overview')}>
          <Overview space={space} auth={a} />
        </Tabs.TabPane>
        {team && (
          <Tabs.TabPane key="members" title={<span data-testid="tab-members">{t('settings.tabs.members')}</span>}>
            <Members space={space} auth={a} />
          </Tabs.TabPane>
        )}
        {team && a.permissions.manage_invites && (
          <Tabs.TabPane key="invites" title={<span data-testid="tab-invites">{t('settings.tabs.invites')}</span>}>
            <Invites space={space} auth={a} />
          </Tabs.TabPane>
        )}
        {team && a.permissions.review_applications && (
          <Tabs.TabPane
            key="applications"
            title={<span data-testid="tab-applications">{t('settings.tabs.applications')}</span>}
          >
            <Applications space={space} auth={a} />
          </Tabs.TabPane>
        )}
        {team && (
          <Tabs.TabPane key="publish" title={<span data-testid="tab-publish">{t('settings.tabs.publish')}</span>}>
            <PublishMembers space={space} auth={a} />
          </Tabs.TabPane>
        )}
      </Tabs>
    </div>
  );
}
