// Packages of apps (/api/agent_app_builder/v1/package/...): an app's draft kept as numbered versions, to install as a
// new app (app/create with package_id) in any space of a member of the package's space.
import type { ServerContext } from '@tessera/sdk/server';
import { SpacesService } from '@tessera/ext-spaces/shared';
import {
  PackageBatchGet,
  PackageCreate,
  PackageDelete,
  PackageGet,
  PackageList,
  PackageUpdate,
  PackageVersions,
  type PackageView,
} from '../shared/api.ts';
import { Dsl } from '../shared/dsl.ts';
import { iso, secs, type AppRow, type PackageRow, type UiStore } from './store.ts';
import { texts } from './texts.ts';

const view = (p: PackageRow): PackageView => ({
  package_id: p.id,
  space_id: p.space_id,
  name: p.name,
  description: p.description,
  source_app_id: p.source_ui_id,
  latest_version: Number(p.latest_version),
  creator_id: p.creator_id,
  updated_at: secs(p.updated_at),
});

async function packageOf(store: UiStore, id: string): Promise<PackageRow> {
  const p = await store.db.selectFrom('ui_package').selectAll().where('id', '=', id).executeTakeFirst();
  if (!p) throw texts.error(404, 'noPackage', { id });
  return p;
}

/** A version's DSL (the latest by default), for a member of the package's space. */
export async function packageVersionDsl(
  ctx: ServerContext,
  store: UiStore,
  packageId: string,
  userId: string,
  version?: number,
): Promise<{ dsl: Dsl; bot_id: string; version: number }> {
  const p = await packageOf(store, packageId);
  if (!(await ctx.service(SpacesService).roleOf(p.space_id, userId)))
    throw texts.error(404, 'noPackage', { id: packageId });
  const v = await store.db
    .selectFrom('ui_package_version')
    .selectAll()
    .where('package_id', '=', p.id)
    .where('version', '=', version ?? Number(p.latest_version))
    .executeTakeFirst();
  if (!v) throw texts.error(404, 'noPackageVersion', { id: p.id, version: String(version) });
  return { dsl: Dsl.parse(JSON.parse(v.dsl)), bot_id: v.bot_id, version: Number(v.version) };
}

export function registerPackageRoutes(ctx: ServerContext, store: UiStore): void {
  const ofPackage = {
    space: async (r: { body?: { package_id?: unknown } }) =>
      (await packageOf(store, String(r.body?.package_id ?? ''))).space_id,
  };
  const addVersion = async (p: PackageRow, a: AppRow, userId: string, note: string) => {
    const version = Number(p.latest_version) + 1;
    const at = iso();
    await store.db.transaction().execute(async (tx) => {
      await tx
        .insertInto('ui_package_version')
        .values({
          id: store.newId(),
          package_id: p.id,
          version,
          dsl: a.dsl,
          bot_id: a.bot_id,
          note,
          created_by: userId,
          created_at: at,
        })
        .execute();
      await tx
        .updateTable('ui_package')
        .set({ latest_version: version, updated_at: at })
        .where('id', '=', p.id)
        .execute();
    });
  };

  ctx.route({
    ...PackageCreate,
    auth: {
      space: async (r: { body?: { app_id?: unknown } }) => (await store.app(String(r.body?.app_id ?? ''))).space_id,
    },
    handler: async ({ body, caller }) => {
      const a = await store.app(body.app_id);
      const at = iso();
      const p: PackageRow = {
        id: store.newId(),
        space_id: a.space_id,
        name: body.name,
        description: body.description,
        source_ui_id: a.id,
        latest_version: 0,
        creator_id: caller!.userId,
        created_at: at,
        updated_at: at,
      };
      await store.db.insertInto('ui_package').values(p).execute();
      await addVersion(p, a, caller!.userId, body.note);
      return { package: view(await packageOf(store, p.id)) };
    },
  });
  ctx.route({
    ...PackageUpdate,
    auth: ofPackage,
    handler: async ({ body, caller }) => {
      const p = await packageOf(store, body.package_id);
      if (body.name || body.description !== undefined)
        await store.db
          .updateTable('ui_package')
          .set({
            ...(body.name ? { name: body.name } : {}),
            ...(body.description !== undefined ? { description: body.description } : {}),
            updated_at: iso(),
          })
          .where('id', '=', p.id)
          .execute();
      if (body.new_version) await addVersion(p, await store.app(p.source_ui_id), caller!.userId, body.note);
      return { package: view(await packageOf(store, p.id)) };
    },
  });
  ctx.route({
    ...PackageGet,
    auth: ofPackage,
    handler: async ({ body, caller }) => {
      const v = await packageVersionDsl(ctx, store, body.package_id, caller!.userId, body.version);
      return { package: view(await packageOf(store, body.package_id)), dsl: v.dsl, version: v.version };
    },
  });
  ctx.route({
    ...PackageList,
    auth: { space: { from: 'body', field: 'space_id' } },
    handler: async ({ body }) => ({
      packages: (
        await store.db
          .selectFrom('ui_package')
          .selectAll()
          .where('space_id', '=', body.space_id)
          .orderBy('updated_at', 'desc')
          .execute()
      ).map(view),
    }),
  });
  ctx.route({
    ...PackageBatchGet,
    auth: 'user',
    handler: async ({ body, caller }) => {
      const rows = await store.db.selectFrom('ui_package').selectAll().where('id', 'in', body.package_ids).execute();
      const spaces = ctx.service(SpacesService);
      const mine = [];
      for (const p of rows) if (await spaces.roleOf(p.space_id, caller!.userId)) mine.push(view(p));
      return { packages: mine };
    },
  });
  ctx.route({
    ...PackageDelete,
    auth: ofPackage,
    handler: async ({ body }) => {
      await store.db.transaction().execute(async (tx) => {
        await tx.deleteFrom('ui_package_version').where('package_id', '=', body.package_id).execute();
        await tx.deleteFrom('ui_package').where('id', '=', body.package_id).execute();
      });
      return {};
    },
  });
  ctx.route({
    ...PackageVersions,
    auth: ofPackage,
    handler: async ({ body }) => ({
      versions: (
        await store.db
          .selectFrom('ui_package_version')
          .select(['version', 'note', 'bot_id', 'created_by', 'created_at'])
          .where('package_id', '=', body.package_id)
          .orderBy('version', 'desc')
          .execute()
      ).map((v) => ({ ...v, version: Number(v.version), created_at: secs(v.created_at) })),
    }),
  });
}
