// A user's authorisation of an OAuth plugin: its status, revoking it, and the provider's redirect back.
import { describeError } from '@tessera/sdk';
import { type ServerContext } from '@tessera/sdk/server';
import { z } from 'zod';
import { AuthorizationType } from '../../shared/index.ts';
import { GetOAuthStatus, Id, RevokeAuthToken } from '../../shared/api.ts';
import { inSpace, type Deps, esc } from './common.ts';

export function registerOAuthRoutes(ctx: ServerContext<unknown>, { store, tokens }: Deps) {
  ctx.route({
    ...GetOAuthStatus,
    auth: inSpace,
    handler: async ({ body, caller: who }) => {
      const plugin = await store.get(body.plugin_id, body.space_id);
      if (Number(plugin.auth_type) !== AuthorizationType.OAuth) return { is_oauth: false, status: 0, content: '' };
      const ok = await tokens.authorized(plugin.id, who!.userId);
      return { is_oauth: true, status: ok ? 1 : 2, content: ok ? '' : await tokens.authorizeUrl(plugin, who!.userId) };
    },
  });

  ctx.route({
    ...RevokeAuthToken,
    auth: inSpace,
    handler: async ({ body, caller: who }) => {
      const plugin = await store.get(body.plugin_id, body.space_id);
      await tokens.revoke(plugin.id, who!.userId);
      return {};
    },
  });

  ctx.route({
    method: 'GET',
    path: '/api/plugin_oauth/:plugin_id/authorization_code',
    produces: 'text/html',
    auth: 'anonymous',
    summary: "The OAuth provider's redirect back: exchanges the code for the user named by the one-time state",
    params: z.object({ plugin_id: Id }),
    query: z.object({
      code: z.string().max(4000).optional(),
      state: z.string().max(200).optional(),
      error: z.string().max(200).optional(),
      error_description: z.string().max(1000).optional(),
    }),
    handler: async ({ params, query }, reply) => {
      const page = (title: string, text: string, ok: boolean) => {
        reply.status(ok ? 200 : 400);
        reply.send(
          `<!doctype html><meta charset="utf-8"><title>${esc(title)}</title><body style="font-family:sans-serif;padding:40px"><h2 data-ok="${ok}">${esc(title)}</h2><p>${esc(text)}</p></body>`,
          'text/html; charset=utf-8',
        );
      };
      if (query.error)
        return page(
          'Authorisation refused',
          `The provider answered: ${query.error}${query.error_description ? ` (${query.error_description})` : ''}. Start again from the studio.`,
          false,
        );
      if (!query.code || !query.state)
        return page(
          'Authorisation incomplete',
          'The provider sent no code or state. Start again from the studio.',
          false,
        );
      try {
        const r = await tokens.complete(params.plugin_id, query.code, query.state);
        return page(
          'Authorised',
          `${r.plugin.name} is authorised. You can close this window and continue in the studio.`,
          true,
        );
      } catch (e) {
        return page('Authorisation failed', describeError(e), false);
      }
    },
  });
}
