// Projects (Coze's /api/intelligence_api/draft_project/... and search/...): create, change, group resources,
// archive, delete, copy (also into another space of yours), history and rollback.
import { badRequest, conflict, forbidden, parseStoredJson, messageOf } from '@tessera/sdk';
import { ResourceKinds, containsText, sameText, type ServerContext } from '@tessera/sdk/server';
import { LibraryService } from '@tessera/ext-library/shared';
import { SpacesService } from '@tessera/ext-spaces/shared';
import {
  AddProjectResources,
  ArchiveProject,
  CopyProject,
  CopyProjectToSpace,
  CreateProject,
  DeleteProject,
  GetProject,
  ListProjects,
  ProjectHistory,
  RemoveProjectResources,
  RollbackProject,
  SnapshotView,
  UpdateProject,
  type ProjectInfo,
  type ProjectView,
} from '../shared/api.ts';
import { now, type ProjectRow, type ProjectStore, type Snapshot } from './store.ts';

const secs = (iso: string) => Math.floor(Date.parse(iso) / 1000);

export const projectView = (p: ProjectRow): ProjectView => ({
  project_id: p.id,
  space_id: p.space_id,
  name: p.name,
  description: p.description,
  icon_uri: p.icon_uri,
  creator_id: p.creator_id,
  archived: !!Number(p.archived),
  version: p.version,
  create_time: secs(p.created_at),
  update_time: secs(p.updated_at),
});

export function registerProjectRoutes(ctx: ServerContext<unknown>, store: ProjectStore) {
  const db = () => store.db;
  /** The space of the project the body names (the route's auth checks the caller belongs to it). */
  const ofProject = {
    space: async (req: { body: { project_id?: string } }) =>
      (await store.get(String(req.body?.project_id ?? ''))).space_id,
  };
  const taken = async (spaceId: string, name: string, except?: string) => {
    let q = db()
      .selectFrom('projects_project')
      .select('id')
      .where('space_id', '=', spaceId)
      .where('deleted_at', 'is', null)
      .where(sameText('name', name));
    if (except) q = q.where('id', '<>', except);
    return !!(await q.executeTakeFirst());
  };
  const freeName = async (spaceId: string, name: string) => {
    let n = name;
    for (let i = 2; i < 1000 && (await taken(spaceId, n)); i++) n = `${name.slice(0, 94)} (${i})`;
    return n;
  };
  const info = async (p: ProjectRow): Promise<ProjectInfo> => ({
    project: projectView(p),
    resources: (await store.resources(p)).map((r) => ({
      res_type: r.kind,
      res_id: r.id,
      name: r.name,
      desc: r.description,
      edit_time: Math.floor(r.updated_at / 1000),
      ...(r.published !== undefined ? { published: r.published } : {}),
    })),
  });

  ctx.route({
    ...CreateProject,
    auth: { space: { from: 'body', field: 'space_id' } },
    handler: async ({ body, caller }) => {
      if (await taken(body.space_id, body.name))
        throw conflict(`This space already has a project named "${body.name}".`);
      const id = ctx.host.newId();
      const t = now();
      await db()
        .insertInto('projects_project')
        .values({
          id,
          space_id: body.space_id,
          name: body.name,
          description: body.description,
          icon_uri: body.icon_uri,
          creator_id: caller!.userId,
          archived: 0,
          version: '',
          variables: '[]',
          created_at: t,
          updated_at: t,
          deleted_at: null,
        })
        .execute();
      await store.record(id, 'create', caller!.userId);
      return { project_id: id };
    },
  });

  ctx.route({
    ...UpdateProject,
    resource: { kind: 'project', id: 'project_id', write: true },
    auth: ofProject,
    handler: async ({ body, caller }) => {
      const p = await store.get(body.project_id);
      if (body.name && (await taken(p.space_id, body.name, p.id)))
        throw conflict(`This space already has a project named "${body.name}".`);
      await db()
        .updateTable('projects_project')
        .set({
          ...(body.name ? { name: body.name } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(body.icon_uri !== undefined ? { icon_uri: body.icon_uri } : {}),
          updated_at: now(),
        })
        .where('id', '=', p.id)
        .execute();
      await store.record(p.id, 'update', caller!.userId);
      return {};
    },
  });

  ctx.route({
    ...AddProjectResources,
    resource: { kind: 'project', id: 'project_id', write: true },
    auth: ofProject,
    handler: async ({ body, caller }) => {
      const p = await store.get(body.project_id);
      const added = await store.add(
        p,
        body.resources.map((r) => ({ kind: r.res_type, resource_id: r.res_id })),
      );
      if (added) {
        await db().updateTable('projects_project').set({ updated_at: now() }).where('id', '=', p.id).execute();
        await store.record(p.id, 'add', caller!.userId);
      }
      return { added };
    },
  });

  ctx.route({
    ...RemoveProjectResources,
    resource: { kind: 'project', id: 'project_id', write: true },
    auth: ofProject,
    handler: async ({ body, caller }) => {
      const p = await store.get(body.project_id);
      for (const r of body.resources)
        await db()
          .deleteFrom('projects_member')
          .where('project_id', '=', p.id)
          .where('kind', '=', r.res_type)
          .where('resource_id', '=', r.res_id)
          .execute();
      await db().updateTable('projects_project').set({ updated_at: now() }).where('id', '=', p.id).execute();
      await store.record(p.id, 'remove', caller!.userId);
      return {};
    },
  });

  ctx.route({
    ...ArchiveProject,
    resource: { kind: 'project', id: 'project_id', write: true },
    auth: ofProject,
    handler: async ({ body, caller }) => {
      const p = await store.get(body.project_id);
      await db()
        .updateTable('projects_project')
        .set({ archived: body.archive ? 1 : 0, updated_at: now() })
        .where('id', '=', p.id)
        .execute();
      await store.record(p.id, body.archive ? 'archive' : 'unarchive', caller!.userId);
      return {};
    },
  });

  ctx.route({
    ...DeleteProject,
    resource: { kind: 'project', id: 'project_id', write: true },
    auth: ofProject,
    handler: async ({ body, caller }) => {
      await store.remove(await store.get(body.project_id), caller!.userId);
      return {};
    },
  });

  const copy = async (p: ProjectRow, toSpace: string, userId: string, name?: string) => {
    const library = ctx.service(LibraryService);
    const copyId = ctx.host.newId();
    const t = now();
    await db()
      .insertInto('projects_project')
      .values({
        id: copyId,
        space_id: toSpace,
        name: await freeName(toSpace, name ?? p.name),
        description: p.description,
        icon_uri: p.icon_uri,
        creator_id: userId,
        archived: 0,
        version: '',
        variables: p.variables,
        created_at: t,
        updated_at: t,
        deleted_at: null,
      })
      .execute();
    // Each resource is copied with what it brings along; those of kinds that cannot leave their space are named.
    const skipped: { res_type: string; res_id: string; reason: string }[] = [];
    for (const m of await store.members(p.id)) {
      try {
        const bundle = await library.exportBundle(m.kind, m.resource_id, p.space_id);
        const r = await library.importBundle(bundle, { spaceId: toSpace, userId });
        await db()
          .insertInto('projects_member')
          .values({ project_id: copyId, kind: r.kind, resource_id: r.id, added_at: now() })
          .execute();
      } catch (e) {
        skipped.push({
          res_type: m.kind,
          res_id: m.resource_id,
          reason: messageOf(e),
        });
      }
    }
    await store.record(copyId, 'copy', userId);
    return { project_id: copyId, space_id: toSpace, skipped };
  };

  ctx.route({
    ...CopyProject,
    auth: ofProject,
    handler: async ({ body, caller }) => {
      const p = await store.get(body.project_id);
      return copy(p, p.space_id, caller!.userId, body.name);
    },
  });

  ctx.route({
    ...CopyProjectToSpace,
    auth: ofProject,
    handler: async ({ body, caller }) => {
      if (!(await ctx.service(SpacesService).roleOf(body.to_space_id, caller!.userId)))
        throw forbidden('You are not a member of the space to copy into.');
      return copy(await store.get(body.project_id), body.to_space_id, caller!.userId, body.name);
    },
  });

  ctx.route({
    ...ProjectHistory,
    auth: ofProject,
    handler: async ({ body }) => {
      const p = await store.get(body.project_id);
      const rows = await db()
        .selectFrom('projects_history')
        .selectAll()
        .where('project_id', '=', p.id)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(body.limit)
        .execute();
      return {
        history: rows.map((r) => ({
          history_id: r.id,
          action: r.action,
          snapshot: parseStoredJson(r.snapshot, 'A history entry of the project', SnapshotView),
          creator_id: r.created_by,
          create_time: secs(r.created_at),
        })),
      };
    },
  });

  ctx.route({
    ...RollbackProject,
    resource: { kind: 'project', id: 'project_id', write: true },
    auth: ofProject,
    handler: async ({ body, caller }) => {
      const p = await store.get(body.project_id);
      const h = await db()
        .selectFrom('projects_history')
        .selectAll()
        .where('id', '=', body.history_id)
        .where('project_id', '=', p.id)
        .executeTakeFirst();
      if (!h) throw badRequest(`There is no history entry ${body.history_id} of this project.`);
      const snap: Snapshot = parseStoredJson(h.snapshot, 'The history entry', SnapshotView);
      if (snap.name.toLowerCase() !== p.name.toLowerCase() && (await taken(p.space_id, snap.name, p.id)))
        throw conflict(`Another project is named "${snap.name}" now; rename it first.`);
      // Resources deleted since cannot come back into the project.
      const existing = new Set<string>();
      const byKind = new Map<string, string[]>();
      for (const m of snap.members) byKind.set(m.kind, [...(byKind.get(m.kind) ?? []), m.resource_id]);
      for (const [kind, ids] of byKind) {
        const k = ctx.registry(ResourceKinds).get(kind);
        for (const r of k ? await k.list({ spaceId: p.space_id, ids, limit: ids.length }).catch(() => []) : [])
          existing.add(`${kind}:${r.id}`);
      }
      const keep = snap.members.filter((m) => existing.has(`${m.kind}:${m.resource_id}`));
      await db()
        .transaction()
        .execute(async (trx) => {
          await trx
            .updateTable('projects_project')
            .set({
              name: snap.name,
              description: snap.description,
              icon_uri: snap.icon_uri,
              ...(snap.variables ? { variables: JSON.stringify(snap.variables) } : {}),
              updated_at: now(),
            })
            .where('id', '=', p.id)
            .execute();
          await trx.deleteFrom('projects_member').where('project_id', '=', p.id).execute();
          for (const m of keep)
            await trx
              .insertInto('projects_member')
              .values({ project_id: p.id, kind: m.kind, resource_id: m.resource_id, added_at: now() })
              .execute();
        });
      await store.record(p.id, 'rollback', caller!.userId);
      return {
        missing: snap.members
          .filter((m) => !keep.includes(m))
          .map((m) => ({ res_type: m.kind, res_id: m.resource_id })),
      };
    },
  });

  ctx.route({
    ...ListProjects,
    auth: { space: { from: 'body', field: 'space_id' } },
    handler: async ({ body }) => {
      let q = db()
        .selectFrom('projects_project')
        .where('space_id', '=', body.space_id)
        .where('deleted_at', 'is', null)
        .where('archived', '=', body.archived ? 1 : 0);
      if (body.name?.trim()) q = q.where(containsText('name', body.name.trim()));
      const rows = await q
        .selectAll()
        .orderBy('updated_at', 'desc')
        .orderBy('id', 'desc')
        .limit(body.size + 1)
        .offset((body.page - 1) * body.size)
        .execute();
      const counts = rows.length
        ? await db()
            .selectFrom('projects_member')
            .select(['project_id', (eb) => eb.fn.countAll().as('n')])
            .where(
              'project_id',
              'in',
              rows.map((r) => r.id),
            )
            .groupBy('project_id')
            .execute()
        : [];
      const count = new Map(counts.map((c) => [c.project_id, Number(c.n)]));
      return {
        intelligences: rows
          .slice(0, body.size)
          .map((r) => ({ ...projectView(r), resource_count: count.get(r.id) ?? 0 })),
        has_more: rows.length > body.size,
      };
    },
  });

  ctx.route({
    ...GetProject,
    auth: ofProject,
    handler: async ({ body }) => info(await store.get(body.project_id)),
  });
}
