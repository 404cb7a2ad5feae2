// One list of every kind's resources: each kind answers its newest page after the cursor, the pages are
// merged by (updated_at, id) and cut to the page size; the recycle bin is the same list of deleted ones.
import { badRequest, notFound, describeError } from '@tessera/sdk';
import { ResourceKinds, type ResourceItem, type ServerContext } from '@tessera/sdk/server';
import { IdentityService } from '@tessera/ext-identity/shared';
import {
  DeleteResource,
  ListKinds,
  ListRecycled,
  ListResources,
  PurgeResource,
  RestoreResource,
  type ResourceListQuery,
  type ResourceView,
} from '../shared/api.ts';
import { libraryDb } from './migrations.ts';

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

export function registerListRoutes(ctx: ServerContext<unknown>) {
  const db = () => libraryDb(ctx);
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

  async function page(body: ResourceListQuery, userId: string, deleted: boolean) {
    const after = decode(body.cursor);
    const creatorId = body.creator === 'me' ? userId : body.creator || undefined;
    // A folder: only what was put in it.
    let idsByKind: Map<string, string[]> | undefined;
    if (body.folder_id) {
      const rows = await db()
        .selectFrom('library_placement')
        .select(['kind', 'resource_id'])
        .where('folder_id', '=', body.folder_id)
        .where('space_id', '=', body.space_id)
        .execute();
      idsByKind = new Map();
      for (const r of rows) idsByKind.set(r.kind, [...(idsByKind.get(r.kind) ?? []), r.resource_id]);
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
            ctx.logger.warn(`library: the ${k.kind} list failed: ${describeError(e)}`);
            return [] as ResourceItem[];
          }),
      ),
    );
    const merged = pages.flat().sort(newer);
    const items = merged.slice(0, body.size);
    const placements = items.length
      ? await db()
          .selectFrom('library_placement')
          .select(['kind', 'resource_id', 'folder_id'])
          .where(
            'resource_id',
            'in',
            items.map((i) => i.id),
          )
          .execute()
      : [];
    const folderOf = new Map(placements.map((p) => [`${p.kind}:${p.resource_id}`, p.folder_id]));
    const users = new Map(
      (await ctx.service(IdentityService).getUsers([...new Set(items.map((i) => i.creator_id))])).map((u) => [
        u.user_id,
        u,
      ]),
    );
    const last = items.at(-1);
    return {
      resource_list: items.map((i): ResourceView => ({
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
    ...ListResources,
    auth: inSpace,
    handler: ({ body, caller }) => page(body, caller!.userId, false),
  });

  ctx.route({
    ...ListRecycled,
    auth: inSpace,
    handler: ({ body, caller }) => page(body, caller!.userId, true),
  });

  ctx.route({
    ...ListKinds,
    auth: 'user',
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

  ctx.route({
    ...DeleteResource,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const k = kind(body.res_type);
      if (!k.remove) throw badRequest(`Resources of kind '${body.res_type}' are not deleted from the library.`);
      await k.remove(body.res_id, body.space_id, caller!.userId);
      const recycled = !!k.restore;
      if (!recycled)
        await db()
          .deleteFrom('library_placement')
          .where('kind', '=', body.res_type)
          .where('resource_id', '=', body.res_id)
          .execute();
      return { recycled };
    },
  });

  ctx.route({
    ...RestoreResource,
    auth: inSpace,
    handler: async ({ body }) => {
      const k = kind(body.res_type);
      if (!k.restore) throw badRequest(`Resources of kind '${body.res_type}' cannot be restored.`);
      await k.restore(body.res_id, body.space_id);
      return {};
    },
  });

  ctx.route({
    ...PurgeResource,
    auth: { space: { from: 'body', field: 'space_id' }, role: 'admin' },
    handler: async ({ body }) => {
      const k = kind(body.res_type);
      if (!k.purge) throw badRequest(`Resources of kind '${body.res_type}' are not kept in the recycle bin.`);
      await k.purge(body.res_id, body.space_id);
      await db()
        .deleteFrom('library_placement')
        .where('kind', '=', body.res_type)
        .where('resource_id', '=', body.res_id)
        .execute();
      return {};
    },
  });
}
