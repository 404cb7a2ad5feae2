// Single sign-on with OpenID Connect (server half): connections kept by platform administrators, offered on the
// sign-in page for their email domains (identity's AuthMethods point; required ones close password sign-in), and the
// sign-in itself.
import { defineExtension } from '@tessera/sdk/server';
import { AuthMethods } from '@tessera/ext-identity/shared';
import { z } from 'zod';
import { Connections } from './connections.ts';
import { migrations } from './migrations.ts';
import { registerRoutes } from './routes.ts';
import { texts } from './texts.ts';

export default defineExtension({
  id: 'sso-oidc',
  configSchema: z.object({
    /** Allow identity providers on plain http beyond this machine (a test network; never in production). */
    allowHttpIssuers: z.boolean().default(false),
  }),
  register(ctx) {
    ctx.migrations(migrations);
    texts.register(ctx);
    const connections = new Connections(ctx, ctx.config.allowHttpIssuers);
    // The sign-in itself (and openid-client) loads with the first sign-in.
    let flow: Promise<import('./flow.ts').SignInFlow> | undefined;
    registerRoutes(
      ctx,
      connections,
      () => (flow ??= import('./flow.ts').then((m) => new m.SignInFlow(ctx, connections))),
    );
    ctx.register(AuthMethods, {
      key: 'oidc',
      optionsFor: async (email) => {
        const options = [];
        for (const c of await connections.forEmail(email))
          options.push({
            key: `oidc:${c.id}`,
            label: { 'en-US': c.name, 'zh-CN': c.name },
            url: `/api/sso/oidc/${c.id}/start`,
            required: !!Number(c.enforce) && (await connections.enforcedOn(c, email)),
          });
        return options;
      },
    });
  },
});
