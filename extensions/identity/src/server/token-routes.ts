// Personal access tokens: create, list, update, delete, the permissions a token can hold (/api/permission_api/pat/...).
import { badRequest, notFound } from '@tessera/sdk';
import { containsText, type ServerContext } from '@tessera/sdk/server';
import { z } from 'zod';
import {
  CreatePat,
  TokenPermissions,
  WorkspacePermission,
  type PatInfo,
  checkTokenPermissions,
} from '../shared/index.ts';
import { newSecret, sha256 } from './tokens.ts';
import { type Config, nowIso, sec } from './config.ts';
import { type AuthCaches, parsePermissions } from './authenticator.ts';
import { PAT_PREFIX } from './tokens.ts';

export function patInfo(row: Record<string, any>): PatInfo {
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
  };
}

export function registerTokenRoutes(ctx: ServerContext<Config>, cache: AuthCaches) {
  const base = '/api/permission_api/pat';
  const checkPermissions = (list: { workspace_id: string; permissions: string[] }[]) =>
    checkTokenPermissions(
      ctx.registry(TokenPermissions).list(),
      list.flatMap((w) => w.permissions),
    );
  const mine = async (id: string, userId: string) => {
    const row = await ctx.db
      .selectFrom('identity_pat')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row) throw notFound('No access token with this id.');
    return row;
  };

  ctx.route({
    method: 'POST',
    path: `${base}/create`,
    audit: { action: 'token.create', target: 'name' },
    auth: 'user',
    summary: 'Create a personal access token; the secret is returned only here',
    body: CreatePat,
    handler: async ({ body, caller }) => {
      checkPermissions(body.workspace_permission_list);
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
        created_at: now,
        updated_at: now,
        expire_at: expire,
        last_used_at: null,
      };
      await ctx.db.insertInto('identity_pat').values(row).execute();
      return { personal_access_token: patInfo(row), token: secret };
    },
  });

  ctx.route({
    method: 'GET',
    path: `${base}/list_personal_access_tokens`,
    auth: 'user',
    summary: "The caller's tokens (never their secrets)",
    query: z.object({
      page: z.coerce.number().int().min(1).default(1),
      size: z.coerce.number().int().min(1).max(100).default(20),
      search_option: z.string().max(100).optional(),
    }),
    handler: async ({ query, caller }) => {
      let q = ctx.db.selectFrom('identity_pat').where('user_id', '=', caller!.userId);
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
    method: 'GET',
    path: `${base}/get_personal_access_token_and_permission`,
    auth: 'user',
    summary: 'One token and its permissions',
    query: z.object({ id: z.string().min(1) }),
    handler: async ({ query, caller }) => ({ personal_access_token: patInfo(await mine(query.id, caller!.userId)) }),
  });

  ctx.route({
    method: 'POST',
    path: `${base}/update`,
    audit: { action: 'token.update', target: 'id' },
    auth: 'user',
    summary: 'Rename a token or change its workspace permissions',
    body: z.object({
      id: z.string().min(1),
      name: z.string().trim().min(1).max(100).optional(),
      workspace_permission_list: z.array(WorkspacePermission).max(100).optional(),
    }),
    handler: async ({ body, caller }) => {
      await mine(body.id, caller!.userId);
      if (body.workspace_permission_list) checkPermissions(body.workspace_permission_list);
      await ctx.db
        .updateTable('identity_pat')
        .set({
          ...(body.name ? { name: body.name } : {}),
          ...(body.workspace_permission_list ? { permissions: JSON.stringify(body.workspace_permission_list) } : {}),
          updated_at: nowIso(),
        })
        .where('id', '=', body.id)
        .execute();
      cache.tokens.clear((_hash, t) => t.id === body.id);
      return { personal_access_token: patInfo(await mine(body.id, caller!.userId)) };
    },
  });

  ctx.route({
    method: 'POST',
    path: `${base}/delete`,
    audit: { action: 'token.delete', target: 'id' },
    auth: 'user',
    summary: 'Delete a token; it stops working at once',
    body: z.object({ id: z.string().min(1) }),
    handler: async ({ body, caller }) => {
      await mine(body.id, caller!.userId);
      await ctx.db.deleteFrom('identity_pat').where('id', '=', body.id).execute();
      cache.tokens.clear((_hash, t) => t.id === body.id);
      return null;
    },
  });

  ctx.route({
    method: 'GET',
    path: `${base}/list_personal_access_token_support_permissions`,
    auth: 'user',
    summary: 'Permissions a token can hold per workspace',
    handler: () => ({ permissions: ctx.registry(TokenPermissions).list() }),
  });

  ctx.route({
    method: 'POST',
    path: `${base}/check_personal_access_token_in_workspace`,
    auth: 'user',
    summary: 'Whether one of your tokens may act in a workspace (optionally with a permission)',
    body: z.object({ id: z.string().min(1), workspace_id: z.string().min(1), permission: z.string().optional() }),
    handler: async ({ body, caller }) => {
      const info = patInfo(await mine(body.id, caller!.userId));
      const w = info.workspace_permission_list.find((x) => x.workspace_id === body.workspace_id);
      const allowed = info.status === 'active' && !!w && (!body.permission || w.permissions.includes(body.permission));
      return { allowed, status: info.status, permissions: w?.permissions ?? [] };
    },
  });
}
