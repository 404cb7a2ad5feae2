// The spaces extension (server half): personal and team spaces, members and roles, invites, the open API.
// Its parts: service.ts (reads and writes), routes.ts, invites.ts, open-api.ts.
import { ErrorTexts, SpaceAuthorizers, defineExtension } from '@tessera/sdk/server';
import { TokenPermissions, UserCreated } from '@tessera/ext-identity/shared';
import { ROLE_NAMES, SpacesService } from '../shared/index.ts';
import { makeSpaces } from './service.ts';
import { registerMemberRoutes, registerSpaceRoutes } from './routes.ts';
import { registerInviteRoutes } from './invites.ts';
import { registerOpenApi } from './open-api.ts';

export default defineExtension({
  id: 'spaces',
  register(ctx) {
    ctx.register(ErrorTexts, {
      key: 'spaces.nameTaken',
      texts: {
        'en-US': 'You already have a team space named "{{name}}". Choose another name.',
        'zh-CN': '你已有名为“{{name}}”的团队空间，请换一个名称。',
      },
    });
    ctx.migrations([
      {
        name: '0001_spaces',
        up: async (db) => {
          await db.schema
            .createTable('spaces_space')
            .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
            .addColumn('name', 'varchar(50)', (c) => c.notNull())
            .addColumn('description', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
            .addColumn('icon_uri', 'text', (c) => c.notNull().defaultTo(''))
            .addColumn('space_type', 'integer', (c) => c.notNull())
            .addColumn('owner_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
            .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
            .addColumn('deleted_at', 'varchar(32)')
            .execute();
          await db.schema
            .createTable('spaces_member')
            .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('role_type', 'integer', (c) => c.notNull())
            .addColumn('joined_at', 'varchar(32)', (c) => c.notNull())
            .addPrimaryKeyConstraint('spaces_member_pk', ['space_id', 'user_id'])
            .execute();
          await db.schema.createIndex('spaces_member_user').on('spaces_member').column('user_id').execute();
          await db.schema
            .createTable('spaces_invite')
            .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
            .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('invite_key', 'varchar(64)', (c) => c.notNull().unique())
            .addColumn('role_type', 'integer', (c) => c.notNull())
            .addColumn('need_approval', 'integer', (c) => c.notNull().defaultTo(0))
            .addColumn('status', 'integer', (c) => c.notNull())
            .addColumn('created_by', 'varchar(32)', (c) => c.notNull())
            .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
            .addColumn('expire_at', 'varchar(32)', (c) => c.notNull())
            .addColumn('join_count', 'integer', (c) => c.notNull().defaultTo(0))
            .execute();
          await db.schema
            .createTable('spaces_apply')
            .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
            .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('status', 'integer', (c) => c.notNull())
            .addColumn('message', 'varchar(500)', (c) => c.notNull().defaultTo(''))
            .addColumn('role_type', 'integer', (c) => c.notNull())
            .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
            .addColumn('decided_by', 'varchar(32)')
            .addColumn('decided_at', 'varchar(32)')
            .execute();
          await db.schema
            .createIndex('spaces_apply_space')
            .on('spaces_apply')
            .columns(['space_id', 'status'])
            .execute();
          await db.schema
            .createTable('spaces_publish_member')
            .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
            .addPrimaryKeyConstraint('spaces_publish_member_pk', ['space_id', 'user_id'])
            .execute();
        },
      },
    ]);

    const spaces = makeSpaces(ctx);
    ctx.provide(SpacesService, spaces.api);
    ctx.tap(SpaceAuthorizers, 'membership', async (caller, spaceId) => {
      const role = await spaces.api.roleOf(spaceId, caller.userId);
      return role ? { allowed: true, role: ROLE_NAMES[role] } : { allowed: false };
    });
    ctx.on(UserCreated, async ({ user }) => void (await spaces.api.personalSpaceOf(user.user_id)));
    for (const [key, en, zh] of [
      ['workspace.read', 'Read workspaces', '查看工作空间'],
      ['workspace.manage', 'Create and delete workspaces', '创建和删除工作空间'],
      ['member.read', 'Read members', '查看成员'],
      ['member.manage', 'Manage members', '管理成员'],
    ] as const) {
      ctx.register(TokenPermissions, { key, label: { 'en-US': en, 'zh-CN': zh }, group: 'workspace' });
    }
    registerSpaceRoutes(ctx, spaces);
    registerMemberRoutes(ctx, spaces);
    registerInviteRoutes(ctx, spaces);
    registerOpenApi(ctx, spaces);
  },
});
