// The single sign-on routes: platform administrators' connections (and their test sign-in), and the two routes a
// browser goes through: /api/sso/oidc/{id}/start and the provider's return to /api/sso/oidc/callback.
import { notFound } from '@tessera/sdk';
import type { ApiReply, ServerContext } from '@tessera/sdk/server';
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

export function registerRoutes(
  ctx: ServerContext,
  connections: Connections,
  signInFlow: () => Promise<SignInFlow>,
): void {
  const admin = 'platformAdmin' as const;
  ctx.route({
    ...CreateConnection,
    audit: { action: 'sso.connection.create', target: 'name' },
    auth: admin,
    handler: async ({ body, caller }) => {
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
    handler: async ({ body }) => {
      const row = await connections.get(body.id);
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
    handler: async ({ body }) => {
      await connections.get(body.id);
      await connections.db.deleteFrom('sso_oidc_connection').where('id', '=', body.id).execute();
      await connections.db.deleteFrom('sso_oidc_identity').where('connection_id', '=', body.id).execute();
      connections.forget(body.id);
      return {};
    },
  });
  ctx.route({
    ...ListConnections,
    auth: admin,
    handler: async () => ({ connections: (await connections.all()).map((c) => connections.view(c)) }),
  });
  ctx.route({
    ...TestConnection,
    auth: admin,
    handler: async ({ body, caller }) => {
      const c = await connections.get(body.id);
      const started = await (
        await signInFlow()
      )
        .start(c, { next: '/settings/sso', testBy: caller!.userId })
        .catch((e: Error) => {
          throw notFound(`The identity provider of ${c.name} could not be read: ${e.message}`);
        });
      return { url: started.url, test_id: started.flowId };
    },
  });
  ctx.route({
    ...TestConnectionResult,
    auth: admin,
    handler: async ({ body, caller }) => {
      const r = await (await signInFlow()).result(body.test_id, caller!.userId);
      if (!r) throw notFound('There is no test sign-in of yours with this id.');
      return r;
    },
  });

  ctx.route({
    method: 'GET',
    path: '/api/sso/oidc/:connection_id/start',
    auth: 'anonymous',
    rateLimit: { max: 60 },
    summary: 'Start a single sign-on: the browser goes to the identity provider',
    params: z.object({ connection_id: z.string().min(1).max(32) }),
    query: z.object({ next: z.string().max(1000).default('/') }),
    handler: async ({ params, query, raw }, reply) => {
      // The sign-in cookie must be set where the provider will send the browser back: the studio's public address.
      const r = raw as { protocol?: string; host?: string; url?: string };
      const publicUrl = new URL(ctx.host.publicUrl);
      if (r.host && `${r.protocol}://${r.host}` !== publicUrl.origin)
        return redirect(reply, `${publicUrl.origin}${r.url ?? ''}`);
      const c = await connections.get(params.connection_id).catch(() => undefined);
      if (!c || c.status !== 'active')
        return redirect(
          reply,
          `/sign-in?sso_error=${encodeURIComponent('This single sign-on connection is not available.')}`,
        );
      try {
        redirect(reply, (await (await signInFlow()).start(c, { next: safeNext(query.next), reply })).url);
      } catch (e) {
        ctx.logger.warn(`sso-oidc: ${c.name}: ${(e as Error).message}`);
        redirect(
          reply,
          `/sign-in?sso_error=${encodeURIComponent(`The identity provider of ${c.name} cannot be reached right now.`)}`,
        );
      }
    },
  });
  ctx.route({
    method: 'GET',
    path: '/api/sso/oidc/callback',
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
