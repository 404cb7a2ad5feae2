// One list of every kind's resources: each kind answers its newest page after the cursor, the pages are
// merged by (updated_at, id) and cut to the page size; the recycle bin is the same list of deleted ones.
import { badRequest, notFound } from '@tessera/sdk';
import { ResourceKinds, type ResourceItem, type ServerContext } from '@tessera/sdk/server';
import { IdentityService } from '@tessera/ext-identity/shared';
import { z } from 'zod';

const Id = z.string().min(1).max(32);
const inSpace = { space: { from: 'body' as const, field: 'space_id' } };
const secs = (ms: number) => Math.floor(ms / 1000);

const encode = (c: { u: number; i: string }) => Buffer.from(JSON.stringify(c)).toString('base64url');
function decode(cursor: string | undefined): { updatedAt: number; id: string } | undefined {
  if (!cursor) return undefined;
  try {
    const c = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as { u: unknown; i: unknown };
    if (typeof c.u === 'number' && typeof c.i === 'string') return { updatedAt: c.u, id: c.i };
  } catch {
    /* below */
  }
  throw badRequest('The cursor is not one this list gave; start again without it.');
}
/** Newest first, then the larger id: the order every kind's list keeps. */
const newer = (a: ResourceItem, b: ResourceItem) =>
  b.updated_at - a.updated_at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

export const ListBody = z.object({
  space_id: Id,
  /** Kinds to show (none: all). */
  res_type_filter: z.array(z.string().max(32)).max(50).optional(),
  name: z.string().max(100).optional(),
  /** 'me' (what I created), or a user id; absent: everyone's. */
  creator: z.string().max(32).optional(),
  folder_id: Id.optional(),
  cursor: z.string().max(500).optional(),
  size: z.number().int().min(1).max(100).default(20),
});

export function registerListRoutes(ctx: ServerContext<unknown>) {
  const kinds = (filter?: string[]) =>
    ctx
      .registry(ResourceKinds)
      .list()
      .filter((k) => !filter?.length || filter.includes(k.kind));
  const kind = (name: string) => {
    const k = ctx.registry(ResourceKinds).get(name);
    if (!k) throw notFound(`There is no resource kind '${name}' in this studio (is its extension enabled?).`);
    return k;
  };

  async function page(body: z.infer<typeof ListBody>, userId: string, deleted: boolean) {
    const after = decode(body.cursor);
    const creatorId = body.creator === 'me' ? userId : body.creator || undefined;
    // A folder: only what was put in it.
    let idsByKind: Map<string, string[]> | undefined;
    if (body.folder_id) {
      const rows = await ctx.db
        .selectFrom('library_placement')
        .select(['kind', 'resource_id'])
        .where('folder_id', '=', body.folder_id)
        .where('space_id', '=', body.space_id)
        .execute();
      idsByKind = new Map();
      for (const r of rows)
        idsByKind.set(r.kind as string, [...(idsByKind.get(r.kind as string) ?? []), r.resource_id as string]);
    }
    const chosen = kinds(body.res_type_filter).filter(
      (k) => (!deleted || k.restore) && (!idsByKind || idsByKind.has(k.kind)),
    );
    const pages = await Promise.all(
      chosen.map((k) =>
        k
          .list({
            spaceId: body.space_id,
            search: body.name,
            creatorId,
            ids: idsByKind?.get(k.kind),
            deleted,
            after,
            limit: body.size + 1,
          })
          .catch((e) => {
            ctx.logger.warn(`library: the ${k.kind} list failed: ${(e as Error).message}`);
            return [] as ResourceItem[];
          }),
      ),
    );
    const merged = pages.flat().sort(newer);
    const items = merged.slice(0, body.size);
    const placements = items.length
      ? await ctx.db
          .selectFrom('library_placement')
          .select(['kind', 'resource_id', 'folder_id'])
          .where(
            'resource_id',
            'in',
            items.map((i) => i.id),
          )
          .execute()
      : [];
    const folderOf = new Map(placements.map((p) => [`${p.kind}:${p.resource_id}`, p.folder_id as string]));
    const users = new Map(
      (await ctx.service(IdentityService).getUsers([...new Set(items.map((i) => i.creator_id))])).map((u) => [
        u.user_id,
        u,
      ]),
    );
    const last = items.at(-1);
    return {
      resource_list: items.map((i) => ({
        res_type: i.kind,
        res_id: i.id,
        name: i.name,
        desc: i.description,
        icon: i.icon_uri,
        creator_id: i.creator_id,
        creator_name: users.get(i.creator_id)?.name ?? '',
        create_time: secs(i.created_at),
        edit_time: secs(i.updated_at),
        ...(i.published !== undefined ? { published: i.published } : {}),
        ...(i.deleted_at ? { delete_time: secs(i.deleted_at) } : {}),
        folder_id: folderOf.get(`${i.kind}:${i.id}`) ?? '',
      })),
      has_more: merged.length > body.size,
      cursor: merged.length > body.size && last ? encode({ u: last.updated_at, i: last.id }) : '',
    };
  }

  ctx.route({
    method: 'POST',
    path: '/api/resource/library_resource_list',
    auth: inSpace,
    summary:
      "Every kind of resource of the space, newest first: kinds (res_type_filter), name, creator ('me' or a user id), folder, paged by cursor",
    body: ListBody,
    handler: ({ body, caller }) => page(body, caller!.userId, false),
  });

  ctx.route({
    method: 'POST',
    path: '/api/resource/library_resource_recycle_info',
    auth: inSpace,
    summary: 'The recycle bin: deleted resources of the kinds that can be restored, newest first',
    body: ListBody,
    handler: ({ body, caller }) => page(body, caller!.userId, true),
  });

  ctx.route({
    method: 'POST',
    path: '/api/library/kinds',
    auth: 'user',
    summary: 'The resource kinds of this studio and what the library can do with each',
    handler: () => ({
      kinds: ctx
        .registry(ResourceKinds)
        .list()
        .map((k) => ({
          kind: k.kind,
          can_delete: !!k.remove,
          recyclable: !!(k.remove && k.restore),
          can_purge: !!k.purge,
          can_export: !!k.exportOf,
          can_import: !!k.importInto,
        })),
    }),
  });

  const Target = z.object({ space_id: Id, res_type: z.string().min(1).max(32), res_id: Id });

  ctx.route({
    method: 'POST',
    path: '/api/library/resource/delete',
    auth: inSpace,
    summary: 'Delete a resource: into the recycle bin when its kind can restore it, else for good',
    body: Target,
    handler: async ({ body, caller }) => {
      const k = kind(body.res_type);
      if (!k.remove) throw badRequest(`Resources of kind '${body.res_type}' are not deleted from the library.`);
      await k.remove(body.res_id, body.space_id, caller!.userId);
      const recycled = !!k.restore;
      if (!recycled)
        await ctx.db
          .deleteFrom('library_placement')
          .where('kind', '=', body.res_type)
          .where('resource_id', '=', body.res_id)
          .execute();
      return { recycled };
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/library/resource/restore',
    auth: inSpace,
    summary: 'Take a resource out of the recycle bin (back into its folder)',
    body: Target,
    handler: async ({ body }) => {
      const k = kind(body.res_type);
      if (!k.restore) throw badRequest(`Resources of kind '${body.res_type}' cannot be restored.`);
      await k.restore(body.res_id, body.space_id);
      return {};
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/library/resource/purge',
    auth: { space: { from: 'body', field: 'space_id' }, role: 'admin' },
    summary: 'Delete a resource in the recycle bin for good (space admins)',
    body: Target,
    handler: async ({ body }) => {
      const k = kind(body.res_type);
      if (!k.purge) throw badRequest(`Resources of kind '${body.res_type}' are not kept in the recycle bin.`);
      await k.purge(body.res_id, body.space_id);
      await ctx.db
        .deleteFrom('library_placement')
        .where('kind', '=', body.res_type)
        .where('resource_id', '=', body.res_id)
        .execute();
      return {};
    },
  });
}
