// Folders of the library: a tree per space (at most 5 deep); resources are placed in one folder or none.
// Deleting a folder moves what it holds (resources and folders) up to its parent.
import { badRequest, conflict, notFound } from '@tessera/sdk';
import { ResourceKinds, sameText, type ServerContext } from '@tessera/sdk/server';
import { CreateFolder, DeleteFolder, FolderTree, MoveResources, UpdateFolder } from '../shared/api.ts';
import { libraryDb, type LibraryDb } from './migrations.ts';

const inSpace = { space: { from: 'body' as const, field: 'space_id' } };
const MAX_DEPTH = 5;
const now = () => new Date().toISOString();

type FolderRow = LibraryDb['library_folder'];

export function registerFolderRoutes(ctx: ServerContext<unknown>) {
  const db = () => libraryDb(ctx);
  const folders = async (spaceId: string) =>
    db().selectFrom('library_folder').selectAll().where('space_id', '=', spaceId).orderBy('name').execute();
  const folder = async (id: string, spaceId: string) => {
    const f = await db()
      .selectFrom('library_folder')
      .selectAll()
      .where('id', '=', id)
      .where('space_id', '=', spaceId)
      .executeTakeFirst();
    if (!f) throw notFound(`There is no folder ${id} in this space.`);
    return f;
  };
  const depth = (all: FolderRow[], id: string | null): number => {
    let d = 0;
    for (let at = id; at; at = all.find((f) => f.id === at)?.parent_id ?? null) d++;
    return d;
  };
  const height = (all: FolderRow[], id: string): number =>
    1 + Math.max(0, ...all.filter((f) => f.parent_id === id).map((f) => height(all, f.id)));
  const refuseTaken = async (spaceId: string, parentId: string | null, name: string, except?: string) => {
    let q = db()
      .selectFrom('library_folder')
      .select('id')
      .where('space_id', '=', spaceId)
      .where(sameText('name', name));
    q = parentId ? q.where('parent_id', '=', parentId) : q.where('parent_id', 'is', null);
    if (except) q = q.where('id', '<>', except);
    if (await q.executeTakeFirst()) throw conflict(`This folder already holds a folder named "${name}".`);
  };

  ctx.route({
    ...FolderTree,
    auth: inSpace,
    handler: async ({ body }) => {
      const all = await folders(body.space_id);
      const counts = await db()
        .selectFrom('library_placement')
        .select(['folder_id', (eb) => eb.fn.countAll().as('n')])
        .where('space_id', '=', body.space_id)
        .groupBy('folder_id')
        .execute();
      const count = new Map(counts.map((c) => [c.folder_id, Number(c.n)]));
      return {
        folders: all.map((f) => ({
          id: f.id,
          parent_id: f.parent_id ?? '',
          name: f.name,
          resource_count: count.get(f.id) ?? 0,
          update_time: Math.floor(Date.parse(f.updated_at) / 1000),
        })),
      };
    },
  });

  ctx.route({
    ...CreateFolder,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const parent = body.parent_id ? await folder(body.parent_id, body.space_id) : null;
      if (parent && depth(await folders(body.space_id), parent.id) >= MAX_DEPTH)
        throw badRequest(`Folders go at most ${MAX_DEPTH} deep.`);
      await refuseTaken(body.space_id, parent?.id ?? null, body.name);
      const id = ctx.host.newId();
      const t = now();
      await db()
        .insertInto('library_folder')
        .values({
          id,
          space_id: body.space_id,
          parent_id: parent?.id ?? null,
          name: body.name,
          created_by: caller!.userId,
          created_at: t,
          updated_at: t,
        })
        .execute();
      return { folder_id: id };
    },
  });

  ctx.route({
    ...UpdateFolder,
    auth: inSpace,
    handler: async ({ body }) => {
      const f = await folder(body.folder_id, body.space_id);
      const all = await folders(body.space_id);
      let parentId = f.parent_id;
      if (body.parent_id !== undefined) {
        parentId = body.parent_id || null;
        if (parentId) {
          await folder(parentId, body.space_id);
          // Not into itself or one of its own folders.
          for (let at: string | null = parentId; at; at = all.find((x) => x.id === at)?.parent_id ?? null)
            if (at === f.id) throw badRequest('A folder cannot go into itself or into one of its own folders.');
          if (depth(all, parentId) + height(all, f.id) > MAX_DEPTH)
            throw badRequest(`Folders go at most ${MAX_DEPTH} deep.`);
        }
      }
      const name = body.name ?? f.name;
      if (name !== f.name || parentId !== f.parent_id) await refuseTaken(body.space_id, parentId, name, f.id);
      await db()
        .updateTable('library_folder')
        .set({ name, parent_id: parentId, updated_at: now() })
        .where('id', '=', f.id)
        .execute();
      return {};
    },
  });

  ctx.route({
    ...DeleteFolder,
    auth: inSpace,
    handler: async ({ body }) => {
      const f = await folder(body.folder_id, body.space_id);
      const all = await folders(body.space_id);
      await db()
        .transaction()
        .execute(async (trx) => {
          // Subfolders whose names the parent already has keep them with " (2)".
          for (const child of all.filter((x) => x.parent_id === f.id)) {
            const clash = all.some(
              (x) => x.parent_id === f.parent_id && x.id !== f.id && x.name.toLowerCase() === child.name.toLowerCase(),
            );
            await trx
              .updateTable('library_folder')
              .set({ parent_id: f.parent_id, ...(clash ? { name: `${child.name} (2)` } : {}), updated_at: now() })
              .where('id', '=', child.id)
              .execute();
          }
          if (f.parent_id)
            await trx
              .updateTable('library_placement')
              .set({ folder_id: f.parent_id })
              .where('folder_id', '=', f.id)
              .execute();
          else await trx.deleteFrom('library_placement').where('folder_id', '=', f.id).execute();
          await trx.deleteFrom('library_folder').where('id', '=', f.id).execute();
        });
      return {};
    },
  });

  ctx.route({
    ...MoveResources,
    auth: inSpace,
    handler: async ({ body }) => {
      if (body.folder_id) await folder(body.folder_id, body.space_id);
      // Every resource must be one of this space's (its kind says so).
      const byKind = new Map<string, { res_type: string; res_id: string }[]>();
      for (const r of body.resources) byKind.set(r.res_type, [...(byKind.get(r.res_type) ?? []), r]);
      for (const [kindName, ids] of byKind) {
        const kind = ctx.registry(ResourceKinds).get(kindName);
        if (!kind) throw notFound(`There is no resource kind '${kindName}' in this studio.`);
        const found = await kind.list({ spaceId: body.space_id, ids: ids.map((r) => r.res_id), limit: ids.length });
        const missing = ids.filter((r) => !found.some((x) => x.id === r.res_id));
        if (missing.length) throw notFound(`There is no ${kindName} ${missing[0].res_id} in this space.`);
      }
      await db()
        .transaction()
        .execute(async (trx) => {
          for (const r of body.resources) {
            await trx
              .deleteFrom('library_placement')
              .where('kind', '=', r.res_type)
              .where('resource_id', '=', r.res_id)
              .execute();
            if (body.folder_id)
              await trx
                .insertInto('library_placement')
                .values({ kind: r.res_type, resource_id: r.res_id, space_id: body.space_id, folder_id: body.folder_id })
                .execute();
          }
        });
      return {};
    },
  });
}
