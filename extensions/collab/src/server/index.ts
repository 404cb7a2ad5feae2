// Editing together (server half): `/api/collab/sync?doc=<kind>:<id>` speaks y-websocket's protocol for a shared
// document of a resource the caller's space holds; documents are kept as Yjs updates (collab_update) and relayed
// between studio processes. A document belongs to its resource's space (the kind's `spaceOf`): the host checks the
// caller is a member and asks the change policies whether they may change it (refused: they join read-only).
import { BroadcastService, defineExtension, ResourceKinds, type ServerContext } from '@tessera/sdk/server';
import { IdentityService } from '@tessera/ext-identity/shared';
import { MemberRemoved, SpaceDeleted } from '@tessera/ext-spaces/shared';
import { z } from 'zod';
import { migrations } from './migrations.ts';
import type { Rooms } from './rooms.ts';
import { texts } from './texts.ts';

/** A document's name: the resource's kind and id, `workflow:7312…`. */
/** Who left a space, told to every process. */
const EVICT = 'collab:evict';
const DOC_NAME = /^([a-z][a-z0-9_-]{0,31}):([A-Za-z0-9_-]{1,64})$/;

function partsOf(doc: string): { kind: string; id: string } {
  const [, kind, id] = DOC_NAME.exec(doc)!;
  return { kind, id };
}

async function spaceOfDoc(ctx: ServerContext, doc: string): Promise<string> {
  const { kind, id } = partsOf(doc);
  const def = ctx
    .registry(ResourceKinds)
    .list()
    .find((k) => k.kind === kind);
  if (!def?.spaceOf) throw texts.error(404, 'unknownKind', { kind });
  const spaceId = await def.spaceOf(id);
  if (!spaceId) throw texts.error(404, 'noResource', { kind, id });
  return spaceId;
}

export default defineExtension({
  id: 'collab',
  register(ctx) {
    ctx.migrations(migrations);
    texts.register(ctx);
    // Yjs and the rooms load with the first connection (a studio nobody edits together in does not carry them).
    let rooms: Promise<Rooms> | undefined;
    const roomsNow = () =>
      (rooms ??= Promise.all([import('./rooms.ts'), import('./store.ts')])
        .then(
          ([{ Rooms }, { UpdateStore }]) =>
            new Rooms({
              store: new UpdateStore(
                () => ctx.db,
                () => ctx.host.newId(),
              ),
              broadcast: ctx.service(BroadcastService),
              processId: ctx.host.newId(),
              distributed: ctx.host.distributed,
              report: (e, detail) => ctx.report(e, detail),
            }),
        )
        .then((r) => {
          // A member who leaves a space (in whichever process it was done) is let go of its documents at once.
          ctx.onDispose(
            ctx.service(BroadcastService).subscribe(EVICT, (m) => {
              const e = m as { space_id?: string; user_id?: string };
              if (e.space_id) void r.evict(e.space_id, e.user_id);
            }),
          );
          return r;
        }));
    const evict = (e: { space_id: string; user_id?: string }) => ctx.service(BroadcastService).publish(EVICT, e);
    ctx.on(MemberRemoved, evict);
    ctx.on(SpaceDeleted, evict);
    ctx.onDispose(async () => (await rooms)?.closeAll());
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
        await (
          await roomsNow()
        ).join(req.query.doc, conn, {
          userId,
          name: user?.name || userId,
          readOnly: req.readOnly,
          spaceId: req.spaceId!,
        });
      },
    });
  },
});
