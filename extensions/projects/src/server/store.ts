// Projects' rows: the project, which resources it groups, and its history (a snapshot after each change).
import { badRequest, notFound } from '@tessera/sdk';
import { ResourceKinds, type ResourceItem, type ServerContext, ServerContextToken } from '@tessera/sdk/server';
import type { ProjectVariable } from '../shared/index.ts';
import type { Kysely } from 'kysely';

export interface ProjectRow {
  id: string;
  space_id: string;
  name: string;
  description: string;
  icon_uri: string;
  creator_id: string;
  archived: number;
  version: string;
  /** JSON list of ProjectVariable. */
  variables: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface Member {
  kind: string;
  resource_id: string;
}

export interface Snapshot {
  name: string;
  description: string;
  icon_uri: string;
  members: Member[];
  /** Absent in entries from before projects had variables. */
  variables?: ProjectVariable[];
}

/** A publication as stored (its lists as JSON). */
export interface PublishRow {
  id: string;
  project_id: string;
  version: string;
  description: string;
  connectors: string;
  results: string;
  status: number;
  /** The project's variables as published (JSON). */
  variables: string;
  connector_settings: string;
  created_by: string;
  created_at: string;
}

/** The extension's tables (migrations.ts). */
export interface ProjectsDb {
  projects_project: ProjectRow;
  projects_member: { project_id: string; kind: string; resource_id: string; added_at: string };
  projects_history: {
    id: string;
    project_id: string;
    action: string;
    /** JSON of Snapshot */
    snapshot: string;
    created_by: string;
    created_at: string;
  };
  projects_publish: PublishRow;
}

export const now = () => new Date().toISOString();

export class ProjectStore {
  static readonly inject = [ServerContextToken] as const;
  private ctx: ServerContext<unknown>;
  constructor(ctx: ServerContext<unknown>) {
    this.ctx = ctx;
  }

  get db(): Kysely<ProjectsDb> {
    return this.ctx.db;
  }

  async get(id: string, spaceId?: string): Promise<ProjectRow> {
    const p = await this.db
      .selectFrom('projects_project')
      .selectAll()
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!p || (spaceId && p.space_id !== spaceId))
      throw notFound(`There is no project ${id}${spaceId ? ' in this space' : ''}.`);
    return p;
  }

  async members(projectId: string): Promise<Member[]> {
    return await this.db
      .selectFrom('projects_member')
      .select(['kind', 'resource_id'])
      .where('project_id', '=', projectId)
      .orderBy('added_at')
      .execute();
  }

  /** The project's resources as their kinds describe them (gone ones and kinds that are off are left out). */
  async resources(p: ProjectRow): Promise<ResourceItem[]> {
    const byKind = new Map<string, string[]>();
    for (const m of await this.members(p.id)) byKind.set(m.kind, [...(byKind.get(m.kind) ?? []), m.resource_id]);
    const out: ResourceItem[] = [];
    for (const [kind, ids] of byKind) {
      const k = this.ctx.registry(ResourceKinds).get(kind);
      if (k) out.push(...(await k.list({ spaceId: p.space_id, ids, limit: ids.length }).catch(() => [])));
    }
    return out;
  }

  /** Records the project as it is now in its history. */
  async record(projectId: string, action: string, userId: string) {
    const p = (await this.db
      .selectFrom('projects_project')
      .selectAll()
      .where('id', '=', projectId)
      .executeTakeFirst()) as ProjectRow;
    const snapshot: Snapshot = {
      name: p.name,
      description: p.description,
      icon_uri: p.icon_uri,
      members: await this.members(projectId),
      variables: JSON.parse(p.variables || '[]') as ProjectVariable[],
    };
    await this.db
      .insertInto('projects_history')
      .values({
        id: this.ctx.host.newId(),
        project_id: projectId,
        action,
        snapshot: JSON.stringify(snapshot),
        created_by: userId,
        created_at: now(),
      })
      .execute();
  }

  /** Adds resources of the project's space (each checked by its kind); answers how many were new. */
  async add(p: ProjectRow, resources: Member[]): Promise<number> {
    for (const [kind, ids] of groupByKind(resources)) {
      const k = this.ctx.registry(ResourceKinds).get(kind);
      if (!k) throw badRequest(`There is no resource kind '${kind}' in this studio.`);
      if (kind === 'project') throw badRequest('A project does not hold other projects.');
      const found = await k.list({ spaceId: p.space_id, ids, limit: ids.length });
      const missing = ids.filter((id) => !found.some((f) => f.id === id));
      if (missing.length) throw notFound(`There is no ${kind} ${missing[0]} in the project's space.`);
    }
    const have = new Set((await this.members(p.id)).map((m) => `${m.kind}:${m.resource_id}`));
    const fresh = resources.filter((r) => !have.has(`${r.kind}:${r.resource_id}`));
    for (const r of fresh)
      await this.db
        .insertInto('projects_member')
        .values({ project_id: p.id, kind: r.kind, resource_id: r.resource_id, added_at: now() })
        .execute();
    return fresh.length;
  }

  async remove(p: ProjectRow, _userId: string) {
    await this.db
      .updateTable('projects_project')
      .set({ deleted_at: now(), updated_at: now() })
      .where('id', '=', p.id)
      .execute();
  }

  async restore(id: string, spaceId: string) {
    const r = await this.db
      .updateTable('projects_project')
      .set({ deleted_at: null, updated_at: now() })
      .where('id', '=', id)
      .where('space_id', '=', spaceId)
      .where('deleted_at', 'is not', null)
      .executeTakeFirst();
    if (!Number(r.numUpdatedRows)) throw badRequest(`There is no deleted project ${id} in this space.`);
  }

  async purge(id: string, spaceId: string) {
    const p = await this.db
      .selectFrom('projects_project')
      .select('id')
      .where('id', '=', id)
      .where('space_id', '=', spaceId)
      .where('deleted_at', 'is not', null)
      .executeTakeFirst();
    if (!p) throw badRequest(`There is no deleted project ${id} in this space.`);
    await this.db.transaction().execute(async (trx) => {
      for (const table of ['projects_member', 'projects_history', 'projects_publish'] as const)
        await trx.deleteFrom(table).where('project_id', '=', id).execute();
      await trx.deleteFrom('projects_project').where('id', '=', id).execute();
    });
  }
}

export function groupByKind(resources: Member[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const r of resources) out.set(r.kind, [...(out.get(r.kind) ?? []), r.resource_id]);
  return out;
}
