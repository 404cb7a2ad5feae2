// OAuth apps (server half): apps registered by developers, the authorization server that lets users (and service
// apps) give them tokens, and the authenticator that takes those tokens on the open API.
import { defineExtension, ErrorTexts } from '@tessera/sdk/server';
import { z } from 'zod';
import { AppService } from './apps.ts';
import { OAuthAuthenticator } from './authenticator.ts';
import { GrantService } from './grants.ts';
import { migrations } from './migrations.ts';
import { registerOAuth2 } from './oauth2.ts';
import { registerRoutes } from './routes.ts';
import { TEXTS } from './texts.ts';

export default defineExtension({
  id: 'oauth-apps',
  configSchema: z.object({
    /** Seconds a device waits between polls of the token endpoint (faster polls are answered slow_down). */
    deviceIntervalSeconds: z.number().min(0).max(60).default(5),
    /** Audiences a service app's JWT may name besides the host the studio is reached at (e.g. its public name). */
    jwtAudiences: z.array(z.string().min(1)).default([]),
  }),
  register(ctx) {
    ctx.migrations(migrations);
    for (const t of TEXTS) ctx.register(ErrorTexts, { key: `oauth_apps.${t.key}`, texts: t.texts });
    const authenticator = ctx.resolve(OAuthAuthenticator);
    authenticator.register();
    const apps = new AppService(ctx, authenticator.revoked);
    const grants = new GrantService(ctx, apps, authenticator.revoked, ctx.config);
    registerRoutes(ctx, apps, grants);
    registerOAuth2(ctx, grants);
  },
});
