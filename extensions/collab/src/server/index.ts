// Editing together (server half): `/api/collab/sync?doc=<kind>:<id>` speaks y-websocket's protocol for a shared
// document of a resource the caller's space holds; documents are kept as Yjs updates (collab_update) and relayed
// between studio processes.
import { BroadcastService, defineExtension } from '@tessera/sdk/server';
import { IdentityService } from '@tessera/ext-identity/shared';
import { z } from 'zod';
import { DOC_NAME, partsOf, spaceOfDoc } from './access.ts';
import { migrations } from './migrations.ts';
import { Rooms } from './rooms.ts';
import { UpdateStore } from './store.ts';
import { texts } from './texts.ts';

export default defineExtension({
  id: 'collab',
  register(ctx) {
    ctx.migrations(migrations);
    texts.register(ctx);
    let rooms: Rooms | undefined;
    const roomsNow = () =>
      (rooms ??= new Rooms({
        store: new UpdateStore(
          () => ctx.db,
          () => ctx.host.newId(),
        ),
        broadcast: ctx.service(BroadcastService),
        processId: ctx.host.newId(),
        report: (e, detail) => ctx.report(e, detail),
      }));
    ctx.onDispose(() => rooms?.closeAll());
    ctx.websocket<{ doc: string }>({
      path: '/api/collab/sync',
      auth: 'user',
      binary: true,
      summary: 'A shared document (Yjs sync and awareness, y-websocket protocol): doc=<kind>:<id>',
      query: z.object({
        doc: z.string().regex(DOC_NAME, 'must be <kind>:<id>, such as workflow:7312'),
      }),
      // A member of the resource's space; one its change policies refuse (collaborators) joins read-only.
      space: (q) => spaceOfDoc(ctx, q.doc),
      resource: (q) => ({ ...partsOf(q.doc), write: 'or-read-only' }),
      handler: async (conn, req) => {
        const userId = req.caller!.userId;
        const user = await ctx.optionalService(IdentityService)?.getUser(userId);
        await roomsNow().join(req.query.doc, conn, { userId, name: user?.name || userId, readOnly: req.readOnly });
      },
    });
  },
});
