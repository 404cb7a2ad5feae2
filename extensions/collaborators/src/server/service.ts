// Collaborators: while a resource has any, only its creator, the space's administrators and they may change it (the
// resource's changing routes declare it; ServerRequestInterceptors refuses the others). Who made a resource is asked
// of its kind (ResourceKinds); collaborators must be members of the space. Each resource's collaborators are kept in
// memory once read (the checks run on every save of the editor).
import type { ApiError } from '@tessera/sdk';
import {
  LocalCache,
  ResourceKinds,
  type InterceptedRequest,
  type ServerContext,
  ServerContextToken,
} from '@tessera/sdk/server';
import { IdentityService } from '@tessera/ext-identity/shared';
import { SpacesService } from '@tessera/ext-spaces/shared';
import type { Kysely } from 'kysely';
import { texts } from './texts.ts';

interface Row {
  kind: string;
  resource_id: string;
  space_id: string;
  user_id: string;
  collaborator_type: number;
  added_by: string;
  created_at: string;
}

export class Collaborators {
  static readonly inject = [ServerContextToken] as const;
  readonly #ctx: ServerContext;
  readonly #cache: LocalCache<string, Row[]>;
  constructor(ctx: ServerContext) {
    this.#ctx = ctx;
    this.#cache = new LocalCache({ max: 20_000, enabled: !ctx.host.distributed });
  }
  get #db(): Kysely<{ collaborator: Row }> {
    return this.#ctx.db as Kysely<{ collaborator: Row }>;
  }

  async of(kind: string, id: string): Promise<Row[]> {
    const key = `${kind}:${id}`;
    return this.#cache.getOrLoad(key, () =>
      this.#db
        .selectFrom('collaborator')
        .selectAll()
        .where('kind', '=', kind)
        .where('resource_id', '=', id)
        .orderBy('created_at')
        .execute(),
    );
  }

  /** Who made the resource, asked of its kind (404 when the space has no such resource). */
  async ownerOf(kind: string, id: string, spaceId: string): Promise<string> {
    const def = this.#ctx
      .registry(ResourceKinds)
      .list()
      .find((k) => k.kind === kind);
    const [item] = def ? await def.list({ spaceId, ids: [id], limit: 1 }) : [];
    if (!item) throw texts.error(404, 'noResource', { kind, id });
    return item.creator_id;
  }

  async view(kind: string, id: string, spaceId: string, caller: string, spaceRole: string | undefined) {
    const owner = await this.ownerOf(kind, id, spaceId);
    const rows = await this.of(kind, id);
    const names = new Map(
      (await this.#ctx.service(IdentityService).getUsers(rows.map((r) => r.user_id))).map((u) => [u.user_id, u.name]),
    );
    return {
      owner_id: owner,
      restricted: rows.length > 0,
      collaborators: rows.map((r) => ({
        user_id: r.user_id,
        name: names.get(r.user_id) ?? '',
        collaborator_type: Number(r.collaborator_type),
        added_by: r.added_by,
        added_at: Math.floor(Date.parse(r.created_at) / 1000),
      })),
      can_manage: caller === owner || spaceRole === 'owner' || spaceRole === 'admin',
    };
  }

  async #assertManager(kind: string, id: string, spaceId: string, caller: string, spaceRole: string | undefined) {
    const v = await this.view(kind, id, spaceId, caller, spaceRole);
    if (!v.can_manage) throw texts.error(403, 'managers', { kind });
  }

  async add(
    kind: string,
    id: string,
    spaceId: string,
    userIds: string[],
    type: number,
    caller: string,
    spaceRole: string | undefined,
  ) {
    await this.#assertManager(kind, id, spaceId, caller, spaceRole);
    const spaces = this.#ctx.service(SpacesService);
    for (const userId of userIds)
      if (!(await spaces.roleOf(spaceId, userId))) throw texts.error(400, 'notMember', { user: userId });
    for (const userId of userIds)
      await this.#db
        .insertInto('collaborator')
        .values({
          kind,
          resource_id: id,
          space_id: spaceId,
          user_id: userId,
          collaborator_type: type,
          added_by: caller,
          created_at: new Date().toISOString(),
        })
        .onConflict((oc) => oc.columns(['kind', 'resource_id', 'user_id']).doUpdateSet({ collaborator_type: type }))
        .execute();
    this.#cache.delete(`${kind}:${id}`);
    return this.view(kind, id, spaceId, caller, spaceRole);
  }

  async remove(
    kind: string,
    id: string,
    spaceId: string,
    userId: string,
    caller: string,
    spaceRole: string | undefined,
  ) {
    // A collaborator may take themselves off; otherwise the creator or an administrator.
    if (userId !== caller) await this.#assertManager(kind, id, spaceId, caller, spaceRole);
    const r = await this.#db
      .deleteFrom('collaborator')
      .where('kind', '=', kind)
      .where('resource_id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!Number(r.numDeletedRows)) throw texts.error(404, 'notCollaborator');
    this.#cache.delete(`${kind}:${id}`);
    return this.view(kind, id, spaceId, caller, spaceRole);
  }

  /** The interceptor: a change of a resource with collaborators, by someone else than them, its creator or an admin. */
  async refusal(req: InterceptedRequest): Promise<ApiError | undefined> {
    const r = req.resource;
    if (!r?.write || !r.id || !req.caller || !req.spaceId) return undefined;
    const rows = await this.of(r.kind, r.id);
    if (!rows.length || rows.some((x) => x.user_id === req.caller!.userId)) return undefined;
    if (req.spaceRole === 'owner' || req.spaceRole === 'admin') return undefined;
    const owner = await this.ownerOf(r.kind, r.id, req.spaceId).catch(() => '');
    if (owner === req.caller.userId) return undefined;
    return texts.error(403, 'refused', { kind: r.kind });
  }

  forgetResource(kind: string, id: string): void {
    this.#cache.delete(`${kind}:${id}`);
  }
}
