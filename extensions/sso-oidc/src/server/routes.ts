// The single sign-on routes: platform administrators' connections (and their test sign-in), and the two routes a
// browser goes through: /api/sso/oidc/{id}/start and the provider's return to /api/sso/oidc/callback.
import { describeError } from '@tessera/sdk';
import type { ApiReply, Caller, ServerContext } from '@tessera/sdk/server';
import { EnterpriseDirectoryService } from '@tessera/ext-enterprise/shared';
import { z } from 'zod';
import {
  CreateConnection,
  DeleteConnection,
  ListConnections,
  TestConnection,
  TestConnectionResult,
  UpdateConnection,
} from '../shared/api.ts';
import { iso, type ConnectionRow, type Connections } from './connections.ts';
import type { SignInFlow } from './flow.ts';
import { texts } from './texts.ts';

const redirect = (reply: ApiReply, to: string) => {
  reply.status(302);
  reply.header('location', to);
  reply.header('cache-control', 'no-store');
  reply.send('', 'text/plain');
};

/** Only a path of this studio ('/...', not '//host'): anything else goes home. */
export const safeNext = (next: unknown) =>
  typeof next === 'string' && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\')
    ? next.slice(0, 1000)
    : '/';

/**
 * Who keeps a connection: platform administrators every one; an enterprise's super admins and admins its own. A
 * connection of an enterprise maps groups only to its spaces and organizations.
 */
function keepers(ctx: ServerContext) {
  const directory = () => ctx.optionalService(EnterpriseDirectoryService);
  const administers = async (caller: Caller, enterpriseId: string) => {
    const role = await directory()?.roleOf(enterpriseId, caller.userId);
    return role === 1 || role === 2;
  };
  return {
    administers,
    async assert(caller: Caller, enterpriseId: string): Promise<void> {
      if (caller.isPlatformAdmin) return;
      if (!enterpriseId) throw texts.error(403, 'studioOnly');
      if (!(await administers(caller, enterpriseId))) throw texts.error(403, 'enterpriseAdmin');
    },
    async checkMappings(enterpriseId: string, roles: { space_id: string; organization_id: string }[]): Promise<void> {
      const d = directory();
      if (!enterpriseId) {
        if (roles.some((r) => r.organization_id) && !d) throw texts.error(400, 'noOrganizations');
        return;
      }
      if (!d) throw texts.error(400, 'noEnterprises');
      const spaces = new Set(await d.spacesOf(enterpriseId));
      for (const r of roles) {
        if (r.space_id && !spaces.has(r.space_id))
          throw texts.error(400, 'spaceOutside', { id: r.space_id }, { detail: { field: 'group_roles' } });
        if (r.organization_id && (await d.enterpriseOfOrganization(r.organization_id)) !== enterpriseId)
          throw texts.error(
            400,
            'organizationOutside',
            { id: r.organization_id },
            { detail: { field: 'group_roles' } },
          );
      }
    },
  };
}

export function registerRoutes(
  ctx: ServerContext,
  connections: Connections,
  signInFlow: () => Promise<SignInFlow>,
): void {
  const admin = 'user' as const;
  const keep = keepers(ctx);
  ctx.route({
    ...CreateConnection,
    audit: { action: 'sso.connection.create', target: 'name' },
    auth: admin,
    handler: async ({ body, caller }) => {
      await keep.assert(caller!, body.enterprise_id);
      await keep.checkMappings(body.enterprise_id, body.group_roles);
      const now = iso();
      const row: ConnectionRow = {
        id: ctx.host.newId(),
        name: body.name,
        issuer: body.issuer.replace(/\/$/, ''),
        client_id: body.client_id,
        client_secret: connections.encrypt(body.client_secret),
        domains: JSON.stringify([...new Set(body.domains)]),
        enforce: body.enforce ? 1 : 0,
        jit: body.jit ? 1 : 0,
        groups_claim: body.groups_claim,
        group_roles: JSON.stringify(body.group_roles),
        status: body.status,
        enterprise_id: body.enterprise_id,
        created_by: caller!.userId,
        created_at: now,
        updated_at: now,
      };
      await connections.db.insertInto('sso_oidc_connection').values(row).execute();
      return { connection: connections.view(row) };
    },
  });
  ctx.route({
    ...UpdateConnection,
    audit: { action: 'sso.connection.update', target: 'id' },
    auth: admin,
    handler: async ({ body, caller }) => {
      const row = await connections.get(body.id);
      await keep.assert(caller!, row.enterprise_id);
      if (body.group_roles) await keep.checkMappings(row.enterprise_id, body.group_roles);
      const set: Partial<ConnectionRow> = { updated_at: iso() };
      if (body.name !== undefined) set.name = body.name;
      if (body.issuer !== undefined) set.issuer = body.issuer.replace(/\/$/, '');
      if (body.client_id !== undefined) set.client_id = body.client_id;
      // A masked secret sent back unchanged (or none) keeps the stored one.
      if (body.client_secret !== undefined && !body.client_secret.includes('*'))
        set.client_secret = connections.encrypt(body.client_secret);
      if (body.domains !== undefined) set.domains = JSON.stringify([...new Set(body.domains)]);
      if (body.enforce !== undefined) set.enforce = body.enforce ? 1 : 0;
      if (body.jit !== undefined) set.jit = body.jit ? 1 : 0;
      if (body.groups_claim !== undefined) set.groups_claim = body.groups_claim;
      if (body.group_roles !== undefined) set.group_roles = JSON.stringify(body.group_roles);
      if (body.status !== undefined) set.status = body.status;
      await connections.db.updateTable('sso_oidc_connection').set(set).where('id', '=', body.id).execute();
      connections.forget(body.id);
      return { connection: connections.view({ ...row, ...set }) };
    },
  });
  ctx.route({
    ...DeleteConnection,
    audit: { action: 'sso.connection.delete', target: 'id' },
    auth: admin,
    handler: async ({ body, caller }) => {
      await keep.assert(caller!, (await connections.get(body.id)).enterprise_id);
      await connections.db.deleteFrom('sso_oidc_connection').where('id', '=', body.id).execute();
      await connections.db.deleteFrom('sso_oidc_identity').where('connection_id', '=', body.id).execute();
      connections.forget(body.id);
      return {};
    },
  });
  ctx.route({
    ...ListConnections,
    auth: admin,
    handler: async ({ body, caller }) => {
      if (body.enterprise_id) await keep.assert(caller!, body.enterprise_id);
      const kept = [];
      for (const c of await connections.all()) {
        if (body.enterprise_id !== undefined && c.enterprise_id !== body.enterprise_id) continue;
        if (caller!.isPlatformAdmin || (c.enterprise_id && (await keep.administers(caller!, c.enterprise_id))))
          kept.push(connections.view(c));
      }
      return { connections: kept };
    },
  });
  ctx.route({
    ...TestConnection,
    auth: admin,
    handler: async ({ body, caller }) => {
      const c = await connections.get(body.id);
      await keep.assert(caller!, c.enterprise_id);
      const started = await (
        await signInFlow()
      )
        .start(c, { next: c.enterprise_id ? '/enterprise?tab=sso' : '/settings/sso', testBy: caller!.userId })
        .catch((e: Error) => {
          throw texts.error(404, 'unreadable', { name: c.name, reason: e.message });
        });
      return { url: started.url, test_id: started.flowId };
    },
  });
  ctx.route({
    ...TestConnectionResult,
    auth: admin,
    handler: async ({ body, caller }) => {
      const r = await (await signInFlow()).result(body.test_id, caller!.userId);
      if (!r) throw texts.error(404, 'noTest');
      return r;
    },
  });

  ctx.route({
    method: 'GET',
    path: '/api/sso/oidc/:connection_id/start',
    produces: 'redirect',
    auth: 'anonymous',
    rateLimit: { max: 60 },
    summary: 'Start a single sign-on: the browser goes to the identity provider',
    params: z.object({ connection_id: z.string().min(1).max(32) }),
    query: z.object({ next: z.string().max(1000).default('/') }),
    handler: async ({ params, query, raw, headers }, reply) => {
      const language = headers['accept-language'];
      // The sign-in cookie must be set where the provider will send the browser back: the studio's public address.
      const r = raw as { protocol?: string; host?: string; url?: string };
      const publicUrl = new URL(ctx.host.publicUrl);
      if (r.host && `${r.protocol}://${r.host}` !== publicUrl.origin)
        return redirect(reply, `${publicUrl.origin}${r.url ?? ''}`);
      const c = await connections.get(params.connection_id).catch(() => undefined);
      if (!c || c.status !== 'active')
        return redirect(reply, `/sign-in?sso_error=${encodeURIComponent(texts.text('unavailable', {}, language))}`);
      try {
        redirect(reply, (await (await signInFlow()).start(c, { next: safeNext(query.next), reply })).url);
      } catch (e) {
        ctx.logger.warn(`sso-oidc: ${c.name}: ${describeError(e)}`);
        redirect(
          reply,
          `/sign-in?sso_error=${encodeURIComponent(texts.text('unreachable', { name: c.name }, language))}`,
        );
      }
    },
  });
  ctx.route({
    method: 'GET',
    path: '/api/sso/oidc/callback',
    produces: 'redirect',
    auth: 'anonymous',
    rateLimit: { max: 60 },
    summary: 'Where the identity provider sends the browser back',
    query: z.record(z.string(), z.unknown()),
    handler: async ({ query, headers, ip, raw }, reply) => {
      const url = (raw as { url?: string }).url ?? '/api/sso/oidc/callback';
      redirect(reply, await (await signInFlow()).callback({ url, query, headers, ip }, reply));
    },
  });
}
