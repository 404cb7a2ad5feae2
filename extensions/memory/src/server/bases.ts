// Memory bases (Coze's /long_term_memory/ memorybase and memory meta calls): a named memory of a space that
// bots bind to (they then share what it remembers of each user) and the keys it keeps about users (its
// metas: what extraction looks for). A resource kind: in the library, recycle bin, copies (structure only).
import { badRequest, conflict, notFound } from '@tessera/sdk';
import {
  ResourceKinds,
  ResourceReferences,
  listResourcesOfTable,
  sameText,
  type ServerContext,
} from '@tessera/sdk/server';
import {
  CreateMemoryBase,
  DeleteMemoryBase,
  DeleteMetas,
  GetMemoryBase,
  ListMemoryBases,
  ListMetas,
  MAX_METAS,
  Meta,
  MetaUsers,
  UpdateMemoryBase,
  UpdateMetas,
  type MemoryBaseView,
} from '../shared/api.ts';
import { z } from 'zod';
import { parseMetas, type MemoryBaseRow, type MemoryMeta, type MemoryStore } from './store.ts';

const secs = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const now = () => new Date().toISOString();

export const baseView = (b: MemoryBaseRow): MemoryBaseView => ({
  memorybase_id: b.id,
  space_id: b.space_id,
  name: b.name,
  description: b.description,
  icon_uri: b.icon_uri,
  creator_id: b.creator_id,
  metas: parseMetas(b.metas),
  create_time: secs(b.created_at),
  update_time: secs(b.updated_at),
});

function checkMetas(metas: MemoryMeta[]) {
  if (metas.length > MAX_METAS) throw badRequest(`A memory base keeps at most ${MAX_METAS} keys.`, { field: 'metas' });
  const seen = new Set<string>();
  for (const m of metas) {
    if (seen.has(m.key)) throw badRequest(`Two keys are named ${m.key}.`, { field: 'metas' });
    seen.add(m.key);
  }
}

export function registerMemoryBases(ctx: ServerContext<unknown>, store: MemoryStore) {
  const inSpace = { space: { from: 'body' as const, field: 'space_id' } };
  const db = () => store.db;
  const get = async (spaceId: string, id: string) => {
    const b = await store.base(id, spaceId);
    if (!b) throw notFound(`There is no memory base ${id} in this space.`);
    return b;
  };
  const taken = async (spaceId: string, name: string, except?: string) => {
    let q = db()
      .selectFrom('memory_base')
      .select('id')
      .where('space_id', '=', spaceId)
      .where('deleted_at', 'is', null)
      .where(sameText('name', name));
    if (except) q = q.where('id', '<>', except);
    return !!(await q.executeTakeFirst());
  };
  const create = async (v: {
    space_id: string;
    name: string;
    description: string;
    icon_uri?: string;
    metas: MemoryMeta[];
    creator_id: string;
  }) => {
    const id = ctx.host.newId();
    const t = now();
    await db()
      .insertInto('memory_base')
      .values({
        id,
        space_id: v.space_id,
        name: v.name,
        description: v.description,
        icon_uri: v.icon_uri ?? '',
        creator_id: v.creator_id,
        metas: JSON.stringify(v.metas),
        created_at: t,
        updated_at: t,
        deleted_at: null,
      })
      .execute();
    return id;
  };
  /** Bots (and other holders) whose configuration names the base. */
  const usedBy = async (id: string, spaceId: string) =>
    (
      await Promise.all(
        ctx
          .registry(ResourceReferences)
          .list()
          .map((f) => f.find({ id, spaceId }).catch(() => [])),
      )
    ).flat();
  const remove = async (b: MemoryBaseRow) => {
    const users = await usedBy(b.id, b.space_id);
    if (users.length)
      throw conflict(
        `${users.map((u) => u.name).join(', ')} ${users.length === 1 ? 'uses' : 'use'} this memory base; unbind ${users.length === 1 ? 'it' : 'them'} first.`,
        { used_by: users },
      );
    await db().updateTable('memory_base').set({ deleted_at: now() }).where('id', '=', b.id).execute();
  };

  ctx.route({
    ...CreateMemoryBase,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      if (await taken(body.space_id, body.name))
        throw conflict(`This space already has a memory base named "${body.name}".`);
      checkMetas(body.metas);
      return { memorybase_id: await create({ ...body, creator_id: caller!.userId }) };
    },
  });
  ctx.route({
    ...UpdateMemoryBase,
    auth: inSpace,
    handler: async ({ body }) => {
      const b = await get(body.space_id, body.memorybase_id);
      if (body.name && (await taken(b.space_id, body.name, b.id)))
        throw conflict(`This space already has a memory base named "${body.name}".`);
      await db()
        .updateTable('memory_base')
        .set({
          ...(body.name ? { name: body.name } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(body.icon_uri !== undefined ? { icon_uri: body.icon_uri } : {}),
          updated_at: now(),
        })
        .where('id', '=', b.id)
        .execute();
      return {};
    },
  });
  ctx.route({
    ...DeleteMemoryBase,
    auth: inSpace,
    handler: async ({ body }) => (await remove(await get(body.space_id, body.memorybase_id)), {}),
  });
  ctx.route({
    ...ListMemoryBases,
    auth: inSpace,
    handler: async ({ body }) => {
      const rows = await db()
        .selectFrom('memory_base')
        .selectAll()
        .where('space_id', '=', body.space_id)
        .where('deleted_at', 'is', null)
        .orderBy('name')
        .limit(500)
        .execute();
      const name = body.name?.trim().toLowerCase();
      return { memorybases: rows.filter((r) => !name || r.name.toLowerCase().includes(name)).map(baseView) };
    },
  });
  ctx.route({
    ...GetMemoryBase,
    auth: inSpace,
    handler: async ({ body }) => {
      const b = await get(body.space_id, body.memorybase_id);
      return { memorybase: baseView(b), used_by: await usedBy(b.id, b.space_id) };
    },
  });
  ctx.route({
    ...ListMetas,
    auth: inSpace,
    handler: async ({ body }) => ({ metas: parseMetas((await get(body.space_id, body.memorybase_id)).metas) }),
  });
  ctx.route({
    ...UpdateMetas,
    auth: inSpace,
    handler: async ({ body }) => {
      const b = await get(body.space_id, body.memorybase_id);
      const metas = parseMetas(b.metas);
      for (const m of body.metas) {
        const i = metas.findIndex((x) => x.key === m.key);
        if (i >= 0) metas[i] = m;
        else metas.push(m);
      }
      checkMetas(metas);
      await db()
        .updateTable('memory_base')
        .set({ metas: JSON.stringify(metas), updated_at: now() })
        .where('id', '=', b.id)
        .execute();
      return { metas };
    },
  });
  ctx.route({
    ...DeleteMetas,
    auth: inSpace,
    handler: async ({ body }) => {
      const b = await get(body.space_id, body.memorybase_id);
      const metas = parseMetas(b.metas).filter((m) => !body.keys.includes(m.key));
      await db()
        .updateTable('memory_base')
        .set({ metas: JSON.stringify(metas), updated_at: now() })
        .where('id', '=', b.id)
        .execute();
      return { metas };
    },
  });
  ctx.route({
    ...MetaUsers,
    auth: inSpace,
    handler: async ({ body }) => {
      const b = await get(body.space_id, body.memorybase_id);
      const users = await db()
        .selectFrom('memory_profile')
        .select((eb) => eb.fn.count<number>('end_user_id').distinct().as('n'))
        .where('bot_id', '=', b.id)
        .executeTakeFirst();
      const perKey = await db()
        .selectFrom('memory_profile')
        .select(['key', (eb) => eb.fn.countAll<number>().as('n')])
        .where('bot_id', '=', b.id)
        .groupBy('key')
        .execute();
      return {
        user_count: Number(users?.n ?? 0),
        keys: perKey.map((k) => ({ key: k.key, user_count: Number(k.n) })),
      };
    },
  });

  ctx.register(ResourceKinds, {
    kind: 'memory',
    list: (q) => listResourcesOfTable(ctx.db, { kind: 'memory', table: 'memory_base', deletedAt: 'deleted_at' }, q),
    remove: async (id, spaceId) => remove(await get(spaceId, id)),
    restore: async (id, spaceId) => {
      const b = await db()
        .selectFrom('memory_base')
        .selectAll()
        .where('id', '=', id)
        .where('space_id', '=', spaceId)
        .executeTakeFirst();
      if (!b) throw notFound(`There is no memory base ${id} in this space.`);
      if (await taken(spaceId, b.name, b.id))
        throw conflict(`Another memory base is named "${b.name}" now; rename it first.`);
      await db().updateTable('memory_base').set({ deleted_at: null, updated_at: now() }).where('id', '=', id).execute();
    },
    purge: async (id, spaceId) => {
      const b = await db()
        .selectFrom('memory_base')
        .select('id')
        .where('id', '=', id)
        .where('space_id', '=', spaceId)
        .executeTakeFirst();
      if (!b) return;
      await db().deleteFrom('memory_profile').where('bot_id', '=', id).execute();
      await db().deleteFrom('memory_event').where('bot_id', '=', id).execute();
      await db().deleteFrom('memory_base').where('id', '=', id).execute();
    },
    // A memory base leaves its space as its keys; what it remembers of users stays behind.
    exportOf: async (id, spaceId) => {
      const b = await get(spaceId, id);
      return [
        {
          kind: 'memory',
          id: b.id,
          name: b.name,
          description: b.description,
          icon_uri: b.icon_uri,
          data: { metas: parseMetas(b.metas) },
        },
      ];
    },
    importInto: async (pkg, opts) => {
      const data = z.object({ metas: z.array(Meta).max(MAX_METAS) }).safeParse(pkg.data);
      if (!data.success)
        throw badRequest(
          `"${pkg.name}" is not a memory base this studio reads: ${data.error.issues[0]?.message ?? 'bad keys'}.`,
        );
      let name = (opts.name ?? pkg.name).slice(0, 94);
      for (let n = 2; n < 1000 && (await taken(opts.spaceId, name)); n++)
        name = `${(opts.name ?? pkg.name).slice(0, 94)} (${n})`;
      return create({
        space_id: opts.spaceId,
        name,
        description: pkg.description ?? '',
        icon_uri: pkg.icon_uri ?? '',
        metas: data.data.metas,
        creator_id: opts.userId,
      });
    },
  });
}
