// The societies' routes (/api/society/...): societies and their roles, processes (made, operated, read, followed
// live), messages and a person's reply. A society is its space's; its processes are too.
import type { ServerContext } from '@tessera/sdk/server';
import { BotsService, Connectors } from '@tessera/ext-bots/shared';
import { z } from 'zod';
import {
  BatchCreateRoles,
  CreateMeta,
  CreateProcess,
  DeleteMessage,
  DeleteMeta,
  DeleteRole,
  DuplicateMeta,
  Host,
  ListMessages,
  ListMeta,
  ListProcesses,
  MetaDetail,
  MetaRoles,
  MetaVariables,
  OperateProcess,
  ProcessDetail,
  ProcessMemory,
  PublishMeta,
  Stop,
  UpdateHost,
  UpdateMeta,
  UpdateRole,
  UserReply,
} from '../shared/api.ts';
import type { Engine } from './engine.ts';
import { iso, json, type MetaRow, type ProcessConfig, type SocietyStore } from './store.ts';
import { texts } from './texts.ts';

export function registerRoutes(ctx: ServerContext, store: SocietyStore, engine: Engine): void {
  const ofMeta = {
    space: async (r: { body: { meta_id?: unknown } }) => (await store.meta(String(r.body?.meta_id ?? ''))).space_id,
  };
  const ofProcess = {
    space: async (r: { body: { process_id?: unknown } }) =>
      (await store.process(String(r.body?.process_id ?? ''))).space_id,
  };
  const inSpace = { space: { from: 'body' as const, field: 'space_id' } };
  const view = async (id: string) => ({ meta: await store.view(await store.meta(id)) });

  ctx.route({
    ...CreateMeta,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const now = iso();
      const row: MetaRow = {
        id: store.newId(),
        space_id: body.space_id,
        name: body.name,
        description: body.description,
        host: JSON.stringify(Host.parse({})),
        stop: JSON.stringify(Stop.parse({})),
        variables: '[]',
        published_version: 0,
        created_by: caller!.userId,
        created_at: now,
        updated_at: now,
      };
      await store.db.insertInto('society_meta').values(row).execute();
      return view(row.id);
    },
  });
  ctx.route({
    ...UpdateMeta,
    auth: ofMeta,
    handler: async ({ body }) => {
      await store.meta(body.meta_id);
      await store.touch(body.meta_id, {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(body.variables !== undefined ? { variables: JSON.stringify(body.variables) } : {}),
        ...(body.stop !== undefined ? { stop: JSON.stringify(body.stop) } : {}),
      });
      return view(body.meta_id);
    },
  });
  ctx.route({
    ...UpdateHost,
    auth: ofMeta,
    handler: async ({ body }) => {
      await store.meta(body.meta_id);
      await store.touch(body.meta_id, { host: JSON.stringify(body.host) });
      return view(body.meta_id);
    },
  });
  ctx.route({
    ...DeleteMeta,
    auth: ofMeta,
    handler: async ({ body }) => {
      await store.meta(body.meta_id);
      const processes = await store.db
        .selectFrom('society_process')
        .select('id')
        .where('meta_id', '=', body.meta_id)
        .execute();
      await store.db.transaction().execute(async (tx) => {
        if (processes.length)
          await tx
            .deleteFrom('society_message')
            .where(
              'process_id',
              'in',
              processes.map((p) => p.id),
            )
            .execute();
        await tx.deleteFrom('society_process').where('meta_id', '=', body.meta_id).execute();
        await tx.deleteFrom('society_role').where('meta_id', '=', body.meta_id).execute();
        await tx.deleteFrom('society_meta').where('id', '=', body.meta_id).execute();
      });
      return {};
    },
  });
  ctx.route({
    ...ListMeta,
    auth: inSpace,
    handler: async ({ body }) => {
      const rows = await store.db
        .selectFrom('society_meta')
        .selectAll()
        .where('space_id', '=', body.space_id)
        .orderBy('created_at', 'desc')
        .execute();
      return { metas: await Promise.all(rows.map((m) => store.view(m))) };
    },
  });
  ctx.route({ ...MetaDetail, auth: ofMeta, handler: ({ body }) => view(body.meta_id) });
  ctx.route({
    ...DuplicateMeta,
    auth: ofMeta,
    handler: async ({ body, caller }) => {
      const m = await store.meta(body.meta_id);
      const now = iso();
      const id = store.newId();
      await store.db
        .insertInto('society_meta')
        .values({
          ...m,
          id,
          name: `${m.name} (copy)`.slice(0, 100),
          published_version: 0,
          created_by: caller!.userId,
          created_at: now,
          updated_at: now,
        })
        .execute();
      for (const r of await store.roles(m.id))
        await store.db
          .insertInto('society_role')
          .values({ ...r, id: store.newId(), meta_id: id })
          .execute();
      return view(id);
    },
  });
  ctx.route({
    ...PublishMeta,
    auth: ofMeta,
    handler: async ({ body }) => {
      const m = await store.meta(body.meta_id);
      if ((await store.roles(m.id)).length < 2) throw texts.error(400, 'noRoles');
      await store.touch(m.id, { published_version: Number(m.published_version) + 1 });
      return view(m.id);
    },
  });
  /** A bot role's bot is one of the space's (published to the API by the time a process starts). */
  const checkRole = async (spaceId: string, r: { name?: string; kind?: string; bot_id?: string }) => {
    if (r.kind !== 'bot') return;
    const bots = ctx.optionalService(BotsService);
    if (!bots) throw texts.error(400, 'botsOff');
    if (!r.bot_id) throw texts.error(400, 'noBotChosen', { role: r.name ?? '' });
    if ((await bots.get(r.bot_id))?.space_id !== spaceId) throw texts.error(400, 'noBot', { role: r.name ?? '' });
  };
  ctx.route({
    ...BatchCreateRoles,
    auth: ofMeta,
    handler: async ({ body }) => {
      const meta = await store.meta(body.meta_id);
      for (const r of body.roles) await checkRole(meta.space_id, r);
      const start = (await store.roles(body.meta_id)).length;
      for (const [i, r] of body.roles.entries())
        await store.db
          .insertInto('society_role')
          .values({ id: store.newId(), meta_id: body.meta_id, ...r, ord: start + i })
          .execute();
      await store.touch(body.meta_id);
      return view(body.meta_id);
    },
  });
  ctx.route({
    ...UpdateRole,
    auth: ofMeta,
    handler: async ({ body }) => {
      const { meta_id, role_id, ...patch } = body;
      const current = (await store.roles(meta_id)).find((r) => r.id === role_id);
      if (current) await checkRole((await store.meta(meta_id)).space_id, { ...current, ...patch });
      const r = await store.db
        .updateTable('society_role')
        .set(patch)
        .where('id', '=', role_id)
        .where('meta_id', '=', meta_id)
        .executeTakeFirst();
      if (!Number(r.numUpdatedRows)) throw texts.error(404, 'noRole', { id: role_id });
      await store.touch(meta_id);
      return view(meta_id);
    },
  });
  ctx.route({
    ...DeleteRole,
    auth: ofMeta,
    handler: async ({ body }) => {
      const r = await store.db
        .deleteFrom('society_role')
        .where('id', '=', body.role_id)
        .where('meta_id', '=', body.meta_id)
        .executeTakeFirst();
      if (!Number(r.numDeletedRows)) throw texts.error(404, 'noRole', { id: body.role_id });
      await store.touch(body.meta_id);
      return view(body.meta_id);
    },
  });
  ctx.route({
    ...MetaRoles,
    auth: ofMeta,
    handler: async ({ body }) => ({ roles: (await view(body.meta_id)).meta.roles }),
  });
  ctx.route({
    ...MetaVariables,
    auth: ofMeta,
    handler: async ({ body }) => ({ variables: (await view(body.meta_id)).meta.variables }),
  });

  // ---------------------------------------------------------------- processes
  ctx.route({
    ...CreateProcess,
    auth: ofMeta,
    handler: async ({ body, caller }) => {
      const meta = (await view(body.meta_id)).meta;
      if (meta.roles.length < 2) throw texts.error(400, 'noRoles');
      if (meta.host.mode === 'model' && !meta.host.model_id) throw texts.error(400, 'hostModel');
      for (const r of meta.roles) {
        if (r.kind === 'agent' && !r.model_id && !meta.host.model_id)
          throw texts.error(400, 'noModel', { role: r.name });
        if (r.kind !== 'bot') continue;
        await checkRole(meta.space_id, r);
        const pub = await ctx.service(BotsService).publication(r.bot_id);
        if (!pub?.connectors.includes(Connectors.API))
          throw texts.error(400, 'botNotOnApi', { role: r.name, bot: pub?.name ?? r.bot_id });
      }
      const config: ProcessConfig = {
        name: meta.name,
        description: meta.description,
        host: meta.host,
        stop: meta.stop,
        variables: meta.variables,
        roles: meta.roles,
      };
      const now = iso();
      const row = {
        id: store.newId(),
        meta_id: meta.meta_id,
        space_id: meta.space_id,
        topic: body.topic,
        config: JSON.stringify(config),
        status: 'created',
        round: 0,
        waiting_role_id: '',
        notes: '{}',
        end_reason: '',
        end_text: '',
        started_by: caller!.userId,
        created_at: now,
        updated_at: now,
      };
      await store.db.insertInto('society_process').values(row).execute();
      return { process: store.processView(row) };
    },
  });
  ctx.route({
    ...OperateProcess,
    auth: ofProcess,
    handler: async ({ body, headers }) => {
      const p = await store.process(body.process_id);
      const allowed: Record<string, string[]> = {
        start: ['created'],
        pause: ['running', 'waiting_human'],
        resume: ['paused'],
        stop: ['created', 'running', 'paused', 'waiting_human'],
      };
      if (!allowed[body.operation].includes(p.status))
        throw texts.error(409, 'cannot', { status: p.status, operation: body.operation });
      if (body.operation === 'stop') {
        const next = await engine.set(p, {
          status: 'stopped',
          end_reason: texts.text('endStopped', {}, 'en-US'),
          end_text: JSON.stringify({ key: 'endStopped', params: {} }),
          waiting_role_id: '',
        });
        return { process: store.processView(next, headers['accept-language']) };
      }
      const lang = headers['accept-language'];
      if (body.operation === 'pause')
        return { process: store.processView(await engine.set(p, { status: 'paused' }), lang) };
      // start, or resume: a person whose turn it was still has it.
      const waiting = body.operation === 'resume' && p.waiting_role_id;
      const next = await engine.set(p, { status: waiting ? 'waiting_human' : 'running' });
      if (!waiting) await engine.queue(p.id);
      return { process: store.processView(next, lang) };
    },
  });
  ctx.route({
    ...ProcessDetail,
    auth: ofProcess,
    handler: async ({ body, headers }) => ({
      process: store.processView(await store.process(body.process_id), headers['accept-language']),
    }),
  });
  ctx.route({
    ...ListProcesses,
    auth: ofMeta,
    handler: async ({ body, headers }) => {
      const rows = await store.db
        .selectFrom('society_process')
        .selectAll()
        .where('meta_id', '=', body.meta_id)
        .orderBy('created_at', 'desc')
        .execute();
      return { processes: rows.map((p) => store.processView(p, headers['accept-language'])) };
    },
  });
  ctx.route({
    ...ProcessMemory,
    auth: ofProcess,
    handler: async ({ body }) => {
      const p = await store.process(body.process_id);
      const cfg = json<ProcessConfig>(p.config, {} as ProcessConfig);
      const notes = json<Record<string, string[]>>(p.notes, {});
      const messages = (await store.messages(p.id)).filter((m) => m.kind !== 'host').length;
      return {
        shared: { topic: p.topic, variables: cfg.variables, messages },
        roles: cfg.roles.map((r) => ({ role_id: r.role_id, name: r.name, notes: notes[r.role_id] ?? [] })),
      };
    },
  });
  ctx.route({
    ...ListMessages,
    auth: ofProcess,
    handler: async ({ body, headers }) => ({
      messages: (await store.messages(body.process_id)).map((m) => store.messageView(m, headers['accept-language'])),
    }),
  });
  ctx.route({
    ...DeleteMessage,
    auth: ofProcess,
    handler: async ({ body }) => {
      const r = await store.db
        .deleteFrom('society_message')
        .where('id', '=', body.message_id)
        .where('process_id', '=', body.process_id)
        .executeTakeFirst();
      if (!Number(r.numDeletedRows)) throw texts.error(404, 'noMessage', { id: body.message_id });
      return {};
    },
  });
  ctx.route({
    ...UserReply,
    auth: ofProcess,
    handler: async ({ body, headers }) => {
      const p = await store.process(body.process_id);
      if (p.status !== 'waiting_human' || !p.waiting_role_id) throw texts.error(409, 'notWaiting');
      const role = json<ProcessConfig>(p.config, {} as ProcessConfig).roles.find(
        (r) => r.role_id === p.waiting_role_id,
      );
      const next = await engine.said(p, p.waiting_role_id, role?.name ?? '', 'human', body.content);
      return { process: store.processView(next, headers['accept-language']) };
    },
  });
  ctx.route({
    method: 'POST',
    path: '/api/society/process/stream',
    auth: ofProcess,
    stream: true,
    summary:
      'Follow a process live: message { message } as each is said, process { process } as it changes; ends with it',
    body: z.object({ process_id: z.string().min(1).max(32) }),
    handler: async ({ body, signal, headers }, reply) => {
      const { follow } = await import('./follow.ts');
      const p = await store.process(body.process_id);
      await follow(ctx, store, p, headers['accept-language'], reply.sse(), signal);
    },
  });
}
