// The studio's draft bot calls: capabilities, create, list, the draft (read, save), delete, duplicate, move to another
// space, publish, the published versions and revert, and the bot as its chat page shows it.
import { forbidden, parseStoredJson } from '@tessera/sdk';
import {
  Connectors as ConnectorsPoint,
  SpaceConnectorsService,
  containsText,
  type ServerContext,
} from '@tessera/sdk/server';
import { SpacesService } from '@tessera/ext-spaces/shared';
import { z } from 'zod';
import {
  CreateBot,
  DeleteBot,
  DuplicateBot,
  GetBotInfo,
  GetCapabilities,
  ListBotHistory,
  ListBots,
  MoveBot,
  PublishBot,
  PublishedInfo,
  RevertBot,
  UpdateBotInfo,
} from '../shared/api.ts';
import { BotConfig, BotModes, BotSkills, Connectors } from '../shared/index.ts';
import { botError, registerErrorTexts } from './errors.ts';
import { registerBotKind } from './kind.ts';
import { botDetail, checkConfig, publishDraft, type BotDeps } from './publishing.ts';
import { botView, botsDb, nowIso, publicationOf, type BotRow } from './store.ts';

const inSpace = { space: { from: 'body' as const, field: 'space_id' } };

/** The studio's bot calls (draft bots, versions); the bot as a library resource. */
export function registerBotRoutes(ctx: ServerContext<unknown>, deps: BotDeps) {
  const { bots } = deps;
  registerErrorTexts(ctx);
  registerBotKind(ctx, bots);

  ctx.route({
    ...GetCapabilities,
    auth: 'user',
    handler: async ({ query, caller }) => {
      const spaces = ctx.service(SpacesService);
      if (query.space_id && !(await spaces.roleOf(query.space_id, caller!.userId)))
        throw forbidden('You are not a member of this space.');
      const connectors = query.space_id
        ? await ctx.service(SpaceConnectorsService).of(query.space_id, 'bot')
        : ctx
            .registry(ConnectorsPoint)
            .list()
            .filter((c) => c.kinds.includes('bot'));
      return {
        modes: ctx
          .registry(BotModes)
          .list()
          .map((m) => ({ key: m.key, code: m.code, label: m.label })),
        skills: ctx
          .registry(BotSkills)
          .list()
          .map((s) => ({ key: s.key, label: s.label })),
        connectors: connectors.map((c) => ({
          id: c.id,
          name: c.name,
          description: c.description,
          settings_schema: c.settings ? z.toJSONSchema(c.settings, { io: 'input' }) : undefined,
        })),
      };
    },
  });

  ctx.route({
    ...CreateBot,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      await bots.refuseTakenName(body.space_id, body.name);
      const modes = ctx.registry(BotModes).list();
      const mode = body.mode ?? (modes.find((m) => m.key === 'single-agent') ?? modes[0])?.key;
      if (!mode || !ctx.registry(BotModes).get(mode))
        throw botError(400, 'bots.modeMissing', { mode: body.mode ?? 'single-agent' });
      const bot_id = await bots.create({
        space_id: body.space_id,
        name: body.name,
        description: body.description,
        icon_uri: body.icon_uri,
        config: BotConfig.parse({ mode }),
        creator_id: caller!.userId,
      });
      return { bot_id };
    },
  });

  ctx.route({
    ...ListBots,
    auth: inSpace,
    handler: async ({ body }) => {
      let q = botsDb(ctx).selectFrom('bots_meta').where('space_id', '=', body.space_id).where('deleted_at', 'is', null);
      if (body.bot_name?.trim()) q = q.where(containsText('name', body.bot_name.trim()));
      if (body.is_publish !== undefined) q = q.where('latest_version', body.is_publish ? 'is not' : 'is', null);
      const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
      const column = body.order_by === 'name' ? 'name' : body.order_by === 'create_time' ? 'created_at' : 'updated_at';
      const rows = await q
        .selectAll()
        .orderBy(column, body.order_by === 'name' ? 'asc' : 'desc')
        .orderBy('id', 'desc')
        .limit(body.page_size)
        .offset((body.page_index - 1) * body.page_size)
        .execute();
      return { bot_draft_list: rows.map(botView), total, has_more: body.page_index * body.page_size < total };
    },
  });

  const detail = (b: BotRow) => botDetail(ctx, bots, b);

  ctx.route({
    ...GetBotInfo,
    auth: inSpace,
    handler: async ({ body }) => detail(await bots.meta(body.bot_id, body.space_id)),
  });

  ctx.route({
    ...UpdateBotInfo,
    resource: { kind: 'bot', id: 'bot_id', write: true },
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const b = await bots.meta(body.bot_id, body.space_id);
      if (body.base_revision !== undefined && body.base_revision !== b.draft_revision) {
        throw botError(409, 'bots.changed', { mine: body.base_revision, saved: b.draft_revision });
      }
      if (body.name && body.name !== b.name) await bots.refuseTakenName(b.space_id, body.name, b.id);
      let config: BotConfig | undefined;
      if (body.config !== undefined) config = checkConfig(ctx, body.config);
      return detail(
        await bots.saveDraft(b, caller!.userId, {
          config,
          name: body.name,
          description: body.description,
          icon_uri: body.icon_uri,
        }),
      );
    },
  });

  ctx.route({
    ...DeleteBot,
    resource: { kind: 'bot', id: 'bot_id', write: true },
    auth: inSpace,
    handler: async ({ body }) => {
      const b = await bots.meta(body.bot_id, body.space_id);
      await botsDb(ctx).updateTable('bots_meta').set({ deleted_at: nowIso() }).where('id', '=', b.id).execute();
      bots.forgetSpace(b.id);
      return null;
    },
  });
  const copy = async (b: BotRow, spaceId: string, userId: string, name: string) => {
    const draft = await bots.draft(b.id);
    return bots.create({
      space_id: spaceId,
      name,
      description: b.description,
      icon_uri: b.icon_uri,
      config: draft.config,
      creator_id: userId,
    });
  };

  ctx.route({
    ...DuplicateBot,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const b = await bots.meta(body.bot_id, body.space_id);
      const name = await bots.freeName(b.space_id, b.name);
      return { bot_id: await copy(b, b.space_id, caller!.userId, name), name };
    },
  });

  ctx.route({
    ...MoveBot,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const b = await bots.meta(body.bot_id, body.space_id);
      const role = await ctx.service(SpacesService).roleOf(body.target_space_id, caller!.userId);
      if (!role) throw botError(403, 'bots.notMemberOfTarget');
      if (body.target_space_id === b.space_id) return botView(b);
      await bots.refuseTakenName(body.target_space_id, b.name);
      await botsDb(ctx)
        .transaction()
        .execute(async (trx) => {
          await trx
            .updateTable('bots_meta')
            .set({ space_id: body.target_space_id, updated_at: nowIso() })
            .where('id', '=', b.id)
            .execute();
          await trx
            .updateTable('bots_conversation')
            .set({ space_id: body.target_space_id })
            .where('bot_id', '=', b.id)
            .execute();
          await trx
            .updateTable('bots_chat')
            .set({ space_id: body.target_space_id })
            .where('bot_id', '=', b.id)
            .execute();
        });
      bots.forgetSpace(b.id);
      return botView({ ...b, space_id: body.target_space_id });
    },
  });

  ctx.route({
    ...PublishBot,
    resource: { kind: 'bot', id: 'bot_id', write: true },
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const b = await bots.meta(body.bot_id, body.space_id);
      const r = await publishDraft(ctx, bots, b, {
        version: body.version,
        changelog: body.changelog,
        connectors: body.connectors,
        connectorSettings: body.connector_settings,
        userId: caller!.userId,
      });
      return { ...r, connectors: body.connectors };
    },
  });

  ctx.route({
    ...ListBotHistory,
    auth: inSpace,
    handler: async ({ body }) => {
      const b = await bots.meta(body.bot_id, body.space_id);
      const rows = await bots.commits(b.id);
      return {
        history_infos: rows.map((c) => ({
          commit_id: c.id,
          version: c.version,
          changelog: c.changelog,
          ...publicationOf(c),
          creator_id: c.created_by,
          create_time: Math.floor(Date.parse(c.created_at) / 1000),
        })),
      };
    },
  });

  ctx.route({
    ...RevertBot,
    resource: { kind: 'bot', id: 'bot_id', write: true },
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const b = await bots.meta(body.bot_id, body.space_id);
      const c = await botsDb(ctx)
        .selectFrom('bots_commit')
        .selectAll()
        .where('id', '=', body.commit_id)
        .where('bot_id', '=', b.id)
        .executeTakeFirst();
      if (!c) throw botError(404, 'bots.versionNotFound');
      const config = parseStoredJson(c.config, "the version's configuration", BotConfig);
      return detail(await bots.saveDraft(b, caller!.userId, { config }));
    },
  });

  ctx.route({
    ...PublishedInfo,
    auth: inSpace,
    handler: async ({ body }) => {
      const b = await bots.meta(body.bot_id, body.space_id);
      const p = await bots.published(b.id);
      if (!p || !p.connectors.includes(Connectors.ChatPage)) throw botError(404, 'bots.notOnChatPage');
      return {
        bot_id: b.id,
        name: b.name,
        description: b.description,
        icon_uri: b.icon_uri,
        version: p.version,
        onboarding: p.config.onboarding,
        shortcuts: p.config.shortcuts,
      };
    },
  });
}
