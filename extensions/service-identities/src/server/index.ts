// Service identities (server half): a space's non-person identities, their keys on the open API, and their place in
// the space (SpaceAuthorizers) without being anyone's member.
import { defineExtension } from '@tessera/sdk/server';
import { SpaceDeleted } from '@tessera/ext-spaces/shared';
import { ServiceAuthenticator } from './authenticator.ts';
import { migrations } from './migrations.ts';
import { texts } from './texts.ts';
import { registerRoutes } from './routes.ts';
import { ServiceStore } from './store.ts';

export default defineExtension({
  id: 'service-identities',
  register(ctx) {
    ctx.migrations(migrations);
    texts.register(ctx);
    const authenticator = ctx.resolve(ServiceAuthenticator);
    const store = new ServiceStore(ctx, authenticator.changed);
    authenticator.register(store);
    registerRoutes(ctx, store);
    // A deleted space takes its service identities with it.
    ctx.on(SpaceDeleted, async ({ space_id }) => {
      for (const s of await store.list(space_id)) await store.remove(space_id, s.service_id);
    });
  },
});
