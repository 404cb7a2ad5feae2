// Projects (Coze's /api/intelligence_api/draft_project/... and search/...): create, change, group resources,
// archive, delete, copy (also into another space of yours), history and rollback.
import { badRequest, conflict, forbidden, imageRef } from '@tessera/sdk';
import { ResourceKinds, containsText, sameText, type ServerContext } from '@tessera/sdk/server';
import { LibraryService } from '@tessera/ext-library/shared';
import { SpacesService } from '@tessera/ext-spaces/shared';
import { z } from 'zod';
import { now, type ProjectRow, type ProjectStore, type Snapshot } from './store.ts';

const Id = z.string().min(1).max(32);
const Name = z.string().trim().min(1, 'Give the project a name.').max(100);
const Resource = z.object({ res_type: z.string().min(1).max(32), res_id: Id });
const secs = (iso: string) => Math.floor(Date.parse(iso) / 1000);

export const projectView = (p: ProjectRow) => ({
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
  /** The space of the project the body names (the route's auth checks the caller belongs to it). */
  const ofProject = {
    space: async (req: { body: { project_id?: string } }) =>
      (await store.get(String(req.body?.project_id ?? ''))).space_id,
  };
  const base = '/api/intelligence_api';
  const taken = async (spaceId: string, name: string, except?: string) => {
    let q = ctx.db
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
  const info = async (p: ProjectRow) => ({
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
    method: 'POST',
    path: `${base}/draft_project/create`,
    auth: { space: { from: 'body', field: 'space_id' } },
    summary: 'Create a project in a space',
    body: z.object({
      space_id: Id,
      name: Name,
      description: z.string().max(2000).default(''),
      icon_uri: imageRef().default(''),
    }),
    handler: async ({ body, caller }) => {
      if (await taken(body.space_id, body.name))
        throw conflict(`This space already has a project named "${body.name}".`);
      const id = ctx.host.newId();
      const t = now();
      await ctx.db
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
    method: 'POST',
    path: `${base}/draft_project/update`,
    resource: { kind: 'project', id: 'project_id', write: true },
    auth: ofProject,
    summary: "Change a project's name, description or icon",
    body: z.object({
      project_id: Id,
      name: Name.optional(),
      description: z.string().max(2000).optional(),
      icon_uri: imageRef().optional(),
    }),
    handler: async ({ body, caller }) => {
      const p = await store.get(body.project_id);
      if (body.name && (await taken(p.space_id, body.name, p.id)))
        throw conflict(`This space already has a project named "${body.name}".`);
      await ctx.db
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
    method: 'POST',
    path: `${base}/project/resource/add`,
    resource: { kind: 'project', id: 'project_id', write: true },
    auth: ofProject,
    summary: "Put resources of the project's space in it (any kind but projects)",
    body: z.object({ project_id: Id, resources: z.array(Resource).min(1).max(100) }),
    handler: async ({ body, caller }) => {
      const p = await store.get(body.project_id);
      const added = await store.add(
        p,
        body.resources.map((r) => ({ kind: r.res_type, resource_id: r.res_id })),
      );
      if (added) {
        await ctx.db.updateTable('projects_project').set({ updated_at: now() }).where('id', '=', p.id).execute();
        await store.record(p.id, 'add', caller!.userId);
      }
      return { added };
    },
  });

  ctx.route({
    method: 'POST',
    path: `${base}/project/resource/remove`,
    resource: { kind: 'project', id: 'project_id', write: true },
    auth: ofProject,
    summary: 'Take resources out of a project (they stay in the space)',
    body: z.object({ project_id: Id, resources: z.array(Resource).min(1).max(100) }),
    handler: async ({ body, caller }) => {
      const p = await store.get(body.project_id);
      for (const r of body.resources)
        await ctx.db
          .deleteFrom('projects_member')
          .where('project_id', '=', p.id)
          .where('kind', '=', r.res_type)
          .where('resource_id', '=', r.res_id)
          .execute();
      await ctx.db.updateTable('projects_project').set({ updated_at: now() }).where('id', '=', p.id).execute();
      await store.record(p.id, 'remove', caller!.userId);
      return {};
    },
  });

  ctx.route({
    method: 'POST',
    path: `${base}/draft_project/archive`,
    resource: { kind: 'project', id: 'project_id', write: true },
    auth: ofProject,
    summary: 'Archive a project (it leaves the active list; nothing is deleted), or bring it back',
    body: z.object({ project_id: Id, archive: z.boolean().default(true) }),
    handler: async ({ body, caller }) => {
      const p = await store.get(body.project_id);
      await ctx.db
        .updateTable('projects_project')
        .set({ archived: body.archive ? 1 : 0, updated_at: now() })
        .where('id', '=', p.id)
        .execute();
      await store.record(p.id, body.archive ? 'archive' : 'unarchive', caller!.userId);
      return {};
    },
  });

  ctx.route({
    method: 'POST',
    path: `${base}/draft_project/delete`,
    resource: { kind: 'project', id: 'project_id', write: true },
    auth: ofProject,
    summary: 'Delete a project into the recycle bin (its resources stay in the space)',
    body: z.object({ project_id: Id }),
    handler: async ({ body, caller }) => {
      await store.remove(await store.get(body.project_id), caller!.userId);
      return {};
    },
  });

  const copy = async (p: ProjectRow, toSpace: string, userId: string, name?: string) => {
    const library = ctx.service(LibraryService);
    const copyId = ctx.host.newId();
    const t = now();
    await ctx.db
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
        await ctx.db
          .insertInto('projects_member')
          .values({ project_id: copyId, kind: r.kind, resource_id: r.id, added_at: now() })
          .execute();
      } catch (e) {
        skipped.push({
          res_type: m.kind,
          res_id: m.resource_id,
          reason: (e as { msg?: string }).msg ?? (e as Error).message,
        });
      }
    }
    await store.record(copyId, 'copy', userId);
    return { project_id: copyId, space_id: toSpace, skipped };
  };

  ctx.route({
    method: 'POST',
    path: `${base}/draft_project/copy`,
    auth: ofProject,
    summary:
      'Copy a project with copies of its resources (those of kinds that cannot leave their space are listed as skipped)',
    body: z.object({ project_id: Id, name: Name.optional() }),
    handler: async ({ body, caller }) => {
      const p = await store.get(body.project_id);
      return copy(p, p.space_id, caller!.userId, body.name);
    },
  });

  ctx.route({
    method: 'POST',
    path: `${base}/draft_project/crossspace_copy`,
    auth: ofProject,
    summary: 'Copy a project into another space of yours',
    body: z.object({ project_id: Id, to_space_id: Id, name: Name.optional() }),
    handler: async ({ body, caller }) => {
      if (!(await ctx.service(SpacesService).roleOf(body.to_space_id, caller!.userId)))
        throw forbidden('You are not a member of the space to copy into.');
      return copy(await store.get(body.project_id), body.to_space_id, caller!.userId, body.name);
    },
  });

  ctx.route({
    method: 'POST',
    path: `${base}/draft_project/history_list`,
    auth: ofProject,
    summary: "A project's changes, newest first (each a point it can be rolled back to)",
    body: z.object({ project_id: Id, limit: z.number().int().min(1).max(200).default(50) }),
    handler: async ({ body }) => {
      const p = await store.get(body.project_id);
      const rows = await ctx.db
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
          snapshot: JSON.parse(r.snapshot as string) as Snapshot,
          creator_id: r.created_by,
          create_time: secs(r.created_at as string),
        })),
      };
    },
  });

  ctx.route({
    method: 'POST',
    path: `${base}/draft_project/rollback`,
    resource: { kind: 'project', id: 'project_id', write: true },
    auth: ofProject,
    summary:
      'Make the project what it was at a history entry: name, description, icon, variables and its resources (resources gone since are listed)',
    body: z.object({ project_id: Id, history_id: Id }),
    handler: async ({ body, caller }) => {
      const p = await store.get(body.project_id);
      const h = await ctx.db
        .selectFrom('projects_history')
        .selectAll()
        .where('id', '=', body.history_id)
        .where('project_id', '=', p.id)
        .executeTakeFirst();
      if (!h) throw badRequest(`There is no history entry ${body.history_id} of this project.`);
      const snap = JSON.parse(h.snapshot as string) as Snapshot;
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
      await ctx.db.transaction().execute(async (trx) => {
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
    method: 'POST',
    path: `${base}/search/get_draft_intelligence_list`,
    auth: { space: { from: 'body', field: 'space_id' } },
    summary: 'Projects of a space: name, archived or active, newest first, pages',
    body: z.object({
      space_id: Id,
      name: z.string().max(100).optional(),
      archived: z.boolean().default(false),
      page: z.number().int().min(1).default(1),
      size: z.number().int().min(1).max(100).default(20),
    }),
    handler: async ({ body }) => {
      let q = ctx.db
        .selectFrom('projects_project')
        .where('space_id', '=', body.space_id)
        .where('deleted_at', 'is', null)
        .where('archived', '=', body.archived ? 1 : 0);
      if (body.name?.trim()) q = q.where(containsText('name', body.name.trim()));
      const rows = (await q
        .selectAll()
        .orderBy('updated_at', 'desc')
        .orderBy('id', 'desc')
        .limit(body.size + 1)
        .offset((body.page - 1) * body.size)
        .execute()) as ProjectRow[];
      const counts = rows.length
        ? await ctx.db
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
      const count = new Map(counts.map((c) => [c.project_id as string, Number(c.n)]));
      return {
        intelligences: rows
          .slice(0, body.size)
          .map((r) => ({ ...projectView(r), resource_count: count.get(r.id) ?? 0 })),
        has_more: rows.length > body.size,
      };
    },
  });

  ctx.route({
    method: 'POST',
    path: `${base}/search/get_draft_intelligence_info`,
    auth: ofProject,
    summary: 'A project with its resources',
    body: z.object({ project_id: Id }),
    handler: async ({ body }) => info(await store.get(body.project_id)),
  });
}
