// The audit log (server half): every answered request of a route that declares `audit` (RequestsCompleted), and
// sign-ins by other methods than a password (UserSignedIn), kept in the studio's database for `retentionDays`.
import { defineExtension, RequestsCompleted } from '@tessera/sdk/server';
import { UserSignedIn } from '@tessera/ext-identity/shared';
import { z } from 'zod';
import { migrations } from './migrations.ts';
import { registerRoutes } from './routes.ts';
import { AuditStore } from './store.ts';

export default defineExtension({
  id: 'audit',
  configSchema: z.object({ retentionDays: z.number().int().min(1).max(3650).default(365) }),
  register(ctx) {
    ctx.migrations(migrations);
    const store = ctx.resolve(AuditStore);
    ctx.tap(RequestsCompleted, 'audit-log', (r) => {
      if (!r.audit) return;
      const row = store.fromRequest(r);
      if (row) store.record(row);
    });
    // A password sign-in is the login route's own event; other methods sign in on their callback.
    ctx.on(UserSignedIn, (e) => {
      if (e.method === 'password') return;
      store.record({
        id: ctx.host.newId(),
        at: new Date().toISOString(),
        action: 'identity.sign_in',
        outcome: 'success',
        status: 200,
        actor_kind: 'user',
        actor_id: e.user_id,
        credential_id: '',
        app_id: '',
        session_name: '',
        target_id: e.method,
        space_id: '',
        ip: e.ip.slice(0, 64),
        user_agent: '',
        route: `sign-in ${e.method}`,
        log_id: '',
      });
    });
    registerRoutes(ctx, store, ctx.config.retentionDays);
    ctx.job({ name: 'audit.prune', everyMs: 6 * 3600_000, handler: () => store.prune(ctx.config.retentionDays) });
  },
});
