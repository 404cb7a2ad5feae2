// Personal access tokens: create, list, update, delete, the permissions a token can hold (/api/permission_api/pat/...).
import { badRequest, notFound } from '@tessera/sdk';
import { containsText, type ServerContext } from '@tessera/sdk/server';
import type { Kysely } from 'kysely';
import { CheckTokenInWorkspace, CreateToken, DeleteToken, GetToken, ListTokens, UpdateToken } from '../shared/api.ts';
import { TokenPermissions, type PatInfo, checkTokenPermissions } from '../shared/index.ts';
import { ListTokenPermissions } from '../shared/token-permissions.ts';
import { newSecret, sha256 } from './tokens.ts';
import { type Config, nowIso, sec } from './config.ts';
import { type AuthCaches, parsePermissions, parseScopes } from './authenticator.ts';
import { PAT_PREFIX } from './tokens.ts';

/** A personal access token as stored (identity_pat): its secret's hash only. */
export interface PatRow {
  id: string;
  user_id: string;
  name: string;
  token_hash: string;
  hint: string;
  /** JSON: the workspaces and their permissions */
  permissions: string;
  /** JSON: the account's and enterprises' permissions */
  scopes: string;
  created_at: string;
  updated_at: string;
  expire_at: string | null;
  last_used_at: string | null;
}

export function patInfo(row: PatRow): PatInfo {
  const expire = row.expire_at ? sec(row.expire_at) : -1;
  return {
    id: row.id,
    name: row.name,
    hint: row.hint,
    created_at: sec(row.created_at),
    updated_at: sec(row.updated_at),
    expire_at: expire,
    last_used_at: sec(row.last_used_at),
    status: expire !== -1 && expire * 1000 <= Date.now() ? 'expired' : 'active',
    workspace_permission_list: parsePermissions(row.permissions),
    account_permission: { permission_list: parseScopes(row.scopes).account },
    enterprise_permission:
      parseScopes(row.scopes).enterprise.map((e) => ({
        enterprise_id: e.enterprise_id,
        permission_list: e.permissions,
      }))[0] ?? null,
  };
}

type Grants = {
  workspace_permission_list?: { workspace_id: string; permissions: string[] }[];
  account_permission?: { permission_list: string[] };
  enterprise_permission?: { enterprise_id: string; permission_list: string[] };
};

export function registerTokenRoutes(ctx: ServerContext<Config>, cache: AuthCaches) {
  const db = () => ctx.db as Kysely<{ identity_pat: PatRow }>;
  /** Each permission known, and asked where its scope says it is held (a workspace, the account, an enterprise). */
  const checkPermissions = (g: Grants) => {
    const declared = ctx.registry(TokenPermissions).list();
    const asked: [string, string[]][] = [
      ['workspace', (g.workspace_permission_list ?? []).flatMap((w) => w.permissions)],
      ['account', g.account_permission?.permission_list ?? []],
      ['enterprise', g.enterprise_permission?.permission_list ?? []],
    ];
    for (const [scope, list] of asked) {
      checkTokenPermissions(declared, list);
      const misplaced = list.filter((p) => (declared.find((d) => d.key === p)?.scope ?? 'workspace') !== scope);
      if (misplaced.length)
        throw badRequest(
          `${misplaced.join(', ')} ${misplaced.length > 1 ? 'are' : 'is'} not held per ${scope}: give ${misplaced.length > 1 ? 'them' : 'it'} where list_personal_access_token_support_permissions says (its scope).`,
        );
    }
  };
  const scopesOf = (g: Grants) =>
    JSON.stringify({
      account: [...new Set(g.account_permission?.permission_list ?? [])],
      enterprise: g.enterprise_permission
        ? [
            {
              enterprise_id: g.enterprise_permission.enterprise_id,
              permissions: [...new Set(g.enterprise_permission.permission_list)],
            },
          ]
        : [],
    });
  const mine = async (id: string, userId: string) => {
    const row = await db()
      .selectFrom('identity_pat')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row) throw notFound('No access token with this id.');
    return row;
  };

  ctx.route({
    ...CreateToken,
    audit: { action: 'token.create', target: 'name' },
    auth: 'user',
    handler: async ({ body, caller }) => {
      checkPermissions(body);
      let expire: string | null;
      if (body.expire_at !== undefined) {
        if (body.expire_at * 1000 <= Date.now()) throw badRequest('expire_at must be in the future.');
        expire = new Date(body.expire_at * 1000).toISOString();
      } else if (body.duration_day === 'permanent') expire = null;
      else expire = new Date(Date.now() + Number(body.duration_day) * 86400_000).toISOString();
      const secret = newSecret(PAT_PREFIX);
      const now = nowIso();
      const row = {
        id: ctx.host.newId(),
        user_id: caller!.userId,
        name: body.name,
        token_hash: sha256(secret),
        hint: secret.slice(-4),
        permissions: JSON.stringify(body.workspace_permission_list),
        scopes: scopesOf(body),
        created_at: now,
        updated_at: now,
        expire_at: expire,
        last_used_at: null,
      };
      await db().insertInto('identity_pat').values(row).execute();
      return { personal_access_token: patInfo(row), token: secret };
    },
  });

  ctx.route({
    ...ListTokens,
    auth: 'user',
    handler: async ({ query, caller }) => {
      let q = db().selectFrom('identity_pat').where('user_id', '=', caller!.userId);
      if (query.search_option) q = q.where(containsText('name', query.search_option));
      const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = await q
        .selectAll()
        .orderBy('created_at', 'desc')
        .limit(query.size)
        .offset((query.page - 1) * query.size)
        .execute();
      return { personal_access_tokens: rows.map(patInfo), total, has_more: query.page * query.size < total };
    },
  });

  ctx.route({
    ...GetToken,
    auth: 'user',
    handler: async ({ query, caller }) => ({ personal_access_token: patInfo(await mine(query.id, caller!.userId)) }),
  });

  ctx.route({
    ...UpdateToken,
    audit: { action: 'token.update', target: 'id' },
    auth: 'user',
    handler: async ({ body, caller }) => {
      const had = patInfo(await mine(body.id, caller!.userId));
      checkPermissions({ ...body, enterprise_permission: body.enterprise_permission ?? undefined });
      const scopesChanged = body.account_permission !== undefined || body.enterprise_permission !== undefined;
      const scopes = scopesOf({
        account_permission: body.account_permission ?? had.account_permission,
        enterprise_permission:
          body.enterprise_permission === null
            ? undefined
            : (body.enterprise_permission ?? had.enterprise_permission ?? undefined),
      });
      await db()
        .updateTable('identity_pat')
        .set({
          ...(body.name ? { name: body.name } : {}),
          ...(body.workspace_permission_list ? { permissions: JSON.stringify(body.workspace_permission_list) } : {}),
          ...(scopesChanged ? { scopes } : {}),
          updated_at: nowIso(),
        })
        .where('id', '=', body.id)
        .execute();
      cache.tokens.clear((_hash, t) => t.id === body.id);
      return { personal_access_token: patInfo(await mine(body.id, caller!.userId)) };
    },
  });

  ctx.route({
    ...DeleteToken,
    audit: { action: 'token.delete', target: 'id' },
    auth: 'user',
    handler: async ({ body, caller }) => {
      await mine(body.id, caller!.userId);
      await db().deleteFrom('identity_pat').where('id', '=', body.id).execute();
      cache.tokens.clear((_hash, t) => t.id === body.id);
      return null;
    },
  });

  ctx.route({
    ...ListTokenPermissions,
    auth: 'user',
    handler: () => ({ permissions: ctx.registry(TokenPermissions).list() }),
  });

  ctx.route({
    ...CheckTokenInWorkspace,
    auth: 'user',
    handler: async ({ body, caller }) => {
      const info = patInfo(await mine(body.id, caller!.userId));
      const w = info.workspace_permission_list.find((x) => x.workspace_id === body.workspace_id);
      const allowed = info.status === 'active' && !!w && (!body.permission || w.permissions.includes(body.permission));
      return { allowed, status: info.status, permissions: w?.permissions ?? [] };
    },
  });
}
