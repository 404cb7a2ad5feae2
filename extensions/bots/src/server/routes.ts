import { badRequest, forbidden, imageRef } from '@tessera/sdk';
import {
  Connectors as ConnectorsPoint,
  ResourceKinds,
  SpaceConnectorsService,
  containsText,
  listResourcesOfTable,
  spaceOfTable,
  type ServerContext,
} from '@tessera/sdk/server';
import { SpacesService } from '@tessera/ext-spaces/shared';
import { z } from 'zod';
import { BotConfig, BotModes, BotPublished, BotSkills, Connectors, shortcutProblems } from '../shared/index.ts';
import type { ChatService } from './chat.ts';
import {
  chatView,
  conversationView,
  messageView,
  type ConversationRow,
  type ConversationStore,
} from './conversations.ts';
import { botError, registerErrorTexts } from './errors.ts';
import { pipeChat } from './stream.ts';
import type { Releases } from './releases.ts';
import { botView, nowIso, type BotRow, type BotStore } from './store.ts';

export const Id = z.string().min(1).max(32);
const Name = z.string().trim().min(1, 'Give the bot a name.').max(100, 'A bot name has at most 100 characters.');
const Description = z.string().max(2000, 'A description has at most 2,000 characters.');
const Icon = imageRef(2_000_000);
const VERSION = /^v\d+\.\d+\.\d+$/;

export interface BotDeps {
  bots: BotStore;
  conversations: ConversationStore;
  chats: ChatService;
  releases: Releases;
}

const inSpace = { space: { from: 'body' as const, field: 'space_id' } };

/** The draft's configuration checked against the modes and skills that run now (for saving and publishing). */
export function problemsOf(ctx: ServerContext<unknown>, config: BotConfig): string[] {
  const problems: string[] = [];
  const mode = ctx.registry(BotModes).get(config.mode);
  if (!mode) problems.push(`The mode "${config.mode}" is not available (its extension is disabled).`);
  else {
    const parsed = mode.settings.safeParse(config.settings);
    if (!parsed.success) problems.push(...parsed.error.issues.map((i) => i.message));
    else problems.push(...(mode.problems?.(parsed.data) ?? []));
  }
  for (const [key, value] of Object.entries(config.skills)) {
    const skill = ctx.registry(BotSkills).get(key);
    if (!skill) continue; // a skill whose extension is off is kept as it was and not used
    const parsed = skill.settings.safeParse(value);
    if (!parsed.success) problems.push(...parsed.error.issues.map((i) => `${skill.label['en-US']}: ${i.message}`));
  }
  problems.push(...shortcutProblems(config.shortcuts));
  return problems;
}

const cmpVersion = (a: string, b: string) => {
  const pa = a.slice(1).split('.').map(Number);
  const pb = b.slice(1).split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
};
export const nextVersion = (latest: string | null) => {
  if (!latest) return 'v1.0.0';
  const [a, b, c] = latest.slice(1).split('.').map(Number);
  return `v${a}.${b}.${c + 1}`;
};

/**
 * Publishes a bot's draft as a version (the next patch unless given; it must grow) to connectors, once
 * the draft has no problems. The studio's publish and the open API's share it.
 */
/** The connectors a bot of this space may be published to (SpaceConnectors), each publication's settings checked. */
export async function checkConnectors(
  ctx: ServerContext<unknown>,
  spaceId: string,
  ids: string[],
  settings: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const usable = await ctx.service(SpaceConnectorsService).of(spaceId, 'bot');
  const unknown = ids.filter((id) => !usable.some((c) => c.id === id));
  if (unknown.length)
    throw badRequest(
      `Unknown connector ${unknown.join(', ')}: a bot of this space is published to ${usable.map((c) => `${c.id} (${c.name['en-US'] ?? c.id})`).join(', ')}.`,
    );
  const out: Record<string, unknown> = {};
  for (const id of ids) {
    const schema = usable.find((c) => c.id === id)!.settings;
    if (!schema) continue;
    const parsed = schema.safeParse(settings[id] ?? {});
    if (!parsed.success)
      throw badRequest(
        `The settings for connector ${id}: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`.trim()).join('; ')}`,
      );
    out[id] = parsed.data;
  }
  return out;
}

export async function publishDraft(
  ctx: ServerContext<unknown>,
  bots: BotStore,
  b: BotRow,
  r: {
    version?: string;
    changelog: string;
    connectors: string[];
    connectorSettings?: Record<string, unknown>;
    userId: string;
  },
): Promise<{ version: string; commit_id: string }> {
  const connectorSettings = await checkConnectors(ctx, b.space_id, r.connectors, r.connectorSettings);
  const draft = await bots.draft(b.id);
  const problems = problemsOf(ctx, draft.config);
  if (problems.length)
    throw botError(400, 'bots.cannotPublish', { problems: problems.join(' ') }, { detail: { problems } });
  const version = r.version ?? nextVersion(b.latest_version);
  if (!VERSION.test(version)) throw botError(400, 'bots.badVersion');
  if (b.latest_version && cmpVersion(version, b.latest_version) <= 0)
    throw botError(400, 'bots.olderVersion', { latest: b.latest_version });
  const id = ctx.host.newId();
  const t = nowIso();
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('bots_commit')
      .values({
        id,
        bot_id: b.id,
        config: JSON.stringify(draft.config),
        revision: draft.revision,
        version,
        changelog: r.changelog,
        connectors: JSON.stringify(r.connectors),
        connector_settings: JSON.stringify(connectorSettings),
        created_by: r.userId,
        created_at: t,
      })
      .execute();
    await trx
      .updateTable('bots_meta')
      .set({ latest_version: version, latest_commit_id: id, published_at: t, published_revision: b.draft_revision })
      .where('id', '=', b.id)
      .execute();
  });
  bots.forgetSpace(b.id);
  ctx.emit(BotPublished, {
    bot_id: b.id,
    space_id: b.space_id,
    version,
    connectors: r.connectors,
    name: b.name,
    user_id: r.userId,
  });
  return { version, commit_id: id };
}

/** A bot with its draft configuration and what keeps it from being published (the editor's bot_info). */
export async function botDetail(ctx: ServerContext<unknown>, bots: BotStore, b: BotRow) {
  const draft = await bots.draft(b.id);
  return { bot_info: { ...botView(b), config: draft.config, problems: problemsOf(ctx, draft.config) } };
}

/** A configuration as sent (a save, a merge), checked: a clear 400 naming what is wrong. */
export function checkConfig(ctx: ServerContext<unknown>, value: unknown): BotConfig {
  const parsed = BotConfig.safeParse(value);
  if (!parsed.success)
    throw badRequest(
      `The bot's configuration is not valid: ${parsed.error.issues
        .slice(0, 5)
        .map((i) => `${i.path.join('.')}: ${i.message}`)
        .join('; ')}`,
    );
  if (!ctx.registry(BotModes).get(parsed.data.mode))
    throw botError(400, 'bots.modeMissing', { mode: parsed.data.mode });
  return parsed.data;
}

/** The studio's bot calls (draft bots, versions, the debug chat and the chat page). */
export function registerBotRoutes(ctx: ServerContext<unknown>, deps: BotDeps) {
  const { bots, conversations, chats } = deps;
  registerErrorTexts(ctx);

  ctx.route({
    method: 'GET',
    path: '/api/draftbot/capabilities',
    auth: 'user',
    summary: "The bot modes and skills this studio runs (from their points), and the connectors of the space's bots",
    query: z.object({ space_id: z.string().max(32).optional() }),
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
    method: 'POST',
    path: '/api/draftbot/create',
    auth: inSpace,
    summary: 'Create a bot (name, description, icon; single agent unless another mode is chosen)',
    body: z.object({
      space_id: Id,
      name: Name,
      description: Description.default(''),
      icon_uri: Icon.default(''),
      mode: z.string().max(64).optional(),
    }),
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
    method: 'POST',
    path: '/api/draftbot/get_draft_bot_list',
    auth: inSpace,
    summary: 'Bots of a space: search by name, sort, page',
    body: z.object({
      space_id: Id,
      bot_name: z.string().max(100).optional(),
      order_by: z.enum(['update_time', 'create_time', 'name']).default('update_time'),
      page_index: z.number().int().min(1).default(1),
      page_size: z.number().int().min(1).max(100).default(20),
      is_publish: z.boolean().optional(),
    }),
    handler: async ({ body }) => {
      let q = ctx.db.selectFrom('bots_meta').where('space_id', '=', body.space_id).where('deleted_at', 'is', null);
      if (body.bot_name?.trim()) q = q.where(containsText('name', body.bot_name.trim()));
      if (body.is_publish !== undefined) q = q.where('latest_version', body.is_publish ? 'is not' : 'is', null);
      const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
      const column = body.order_by === 'name' ? 'name' : body.order_by === 'create_time' ? 'created_at' : 'updated_at';
      const rows = (await q
        .selectAll()
        .orderBy(column, body.order_by === 'name' ? 'asc' : 'desc')
        .orderBy('id', 'desc')
        .limit(body.page_size)
        .offset((body.page_index - 1) * body.page_size)
        .execute()) as BotRow[];
      return { bot_draft_list: rows.map(botView), total, has_more: body.page_index * body.page_size < total };
    },
  });

  const detail = (b: BotRow) => botDetail(ctx, bots, b);

  ctx.route({
    method: 'POST',
    path: '/api/playground_api/draftbot/get_draft_bot_info',
    auth: inSpace,
    summary: 'A bot with its draft configuration and what keeps it from being published',
    body: z.object({ space_id: Id, bot_id: Id }),
    handler: async ({ body }) => detail(await bots.meta(body.bot_id, body.space_id)),
  });

  ctx.route({
    method: 'POST',
    path: '/api/playground_api/draftbot/update_draft_bot_info',
    resource: { kind: 'bot', id: 'bot_id', write: true },
    auth: inSpace,
    summary:
      'Save the draft (name, description, icon, configuration); base_revision detects a save from an older draft',
    body: z.object({
      space_id: Id,
      bot_id: Id,
      base_revision: z.number().int().positive().optional(),
      name: Name.optional(),
      description: Description.optional(),
      icon_uri: Icon.optional(),
      config: z.unknown().optional(),
    }),
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
    method: 'POST',
    path: '/api/draftbot/delete',
    resource: { kind: 'bot', id: 'bot_id', write: true },
    auth: inSpace,
    summary: 'Delete a bot (its published versions stop answering)',
    body: z.object({ space_id: Id, bot_id: Id }),
    handler: async ({ body }) => {
      const b = await bots.meta(body.bot_id, body.space_id);
      await ctx.db.updateTable('bots_meta').set({ deleted_at: nowIso() }).where('id', '=', b.id).execute();
      bots.forgetSpace(b.id);
      return null;
    },
  });

  // Bots in the library: deleted ones wait in the recycle bin, to be restored or deleted for good.
  const deletedBot = async (id: string, spaceId: string) => {
    const m = await ctx.db
      .selectFrom('bots_meta')
      .select('id')
      .where('id', '=', id)
      .where('space_id', '=', spaceId)
      .where('deleted_at', 'is not', null)
      .executeTakeFirst();
    if (!m) throw badRequest(`There is no deleted bot ${id} in this space.`);
  };
  ctx.register(ResourceKinds, {
    kind: 'bot',
    spaceOf: (id) => spaceOfTable(ctx.db, { table: 'bots_meta', deletedAt: 'deleted_at' }, id),
    list: (q) =>
      listResourcesOfTable(
        ctx.db,
        { kind: 'bot', table: 'bots_meta', deletedAt: 'deleted_at', published: 'latest_version' },
        q,
      ),
    remove: async (id, spaceId) => {
      const b = await bots.meta(id, spaceId);
      await ctx.db.updateTable('bots_meta').set({ deleted_at: nowIso() }).where('id', '=', b.id).execute();
      bots.forgetSpace(b.id);
    },
    restore: async (id, spaceId) => {
      await deletedBot(id, spaceId);
      await ctx.db
        .updateTable('bots_meta')
        .set({ deleted_at: null, updated_at: nowIso() })
        .where('id', '=', id)
        .execute();
      bots.forgetSpace(id);
    },
    purge: async (id, spaceId) => {
      await deletedBot(id, spaceId);
      await ctx.db.transaction().execute(async (trx) => {
        for (const table of ['bots_draft', 'bots_commit'] as const)
          await trx.deleteFrom(table).where('bot_id', '=', id).execute();
        await trx.deleteFrom('bots_meta').where('id', '=', id).execute();
      });
      bots.forgetSpace(id);
    },
    // A bot leaves its space with its draft configuration (the resources its skills name stay where they are).
    exportOf: async (id, spaceId) => {
      const b = await bots.meta(id, spaceId);
      const config = (await bots.draft(b.id)).config;
      return [
        {
          kind: 'bot',
          id: b.id,
          name: b.name,
          description: b.description,
          icon_uri: b.icon_uri,
          data: { config },
          requires: { modes: [config.mode], skills: Object.keys(config.skills).sort() },
        },
      ];
    },
    missing: (pkg) => [
      ...(pkg.requires?.modes ?? []).filter((m) => !ctx.registry(BotModes).get(m)).map((m) => `bot mode ${m}`),
      ...(pkg.requires?.skills ?? []).filter((k) => !ctx.registry(BotSkills).get(k)).map((k) => `bot skill ${k}`),
    ],
    // Published with the next version to the chosen connectors that take bots (the API when none does).
    publish: async (id, spaceId, opts) => {
      const b = await bots.meta(id, spaceId);
      const usable = await ctx.service(SpaceConnectorsService).of(spaceId, 'bot');
      const mine = opts.connectors.filter((c) => usable.some((u) => u.id === c));
      return publishDraft(ctx, bots, b, {
        changelog: opts.description,
        connectors: mine.length ? mine : [Connectors.API],
        userId: opts.userId,
      });
    },
    importInto: async (pkg, opts) => {
      const parsed = BotConfig.safeParse((pkg.data as { config?: unknown })?.config);
      if (!parsed.success)
        throw badRequest(
          `"${pkg.name}" is not a bot this studio reads: ${parsed.error.issues[0]?.message ?? 'bad configuration'}.`,
        );
      // Bot names are unique in a space: an import of a name taken is "Name (2)" ...
      return bots.create({
        space_id: opts.spaceId,
        name: await bots.freeName(opts.spaceId, (opts.name ?? pkg.name).slice(0, 100)),
        description: pkg.description ?? '',
        icon_uri: pkg.icon_uri ?? '',
        config: parsed.data,
        creator_id: opts.userId,
      });
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
    method: 'POST',
    path: '/api/draftbot/duplicate',
    auth: inSpace,
    summary: 'Copy a bot (its draft) in the same space, named "name (2)"',
    body: z.object({ space_id: Id, bot_id: Id }),
    handler: async ({ body, caller }) => {
      const b = await bots.meta(body.bot_id, body.space_id);
      const name = await bots.freeName(b.space_id, b.name);
      return { bot_id: await copy(b, b.space_id, caller!.userId, name), name };
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/playground_api/move_draft_bot',
    auth: inSpace,
    summary: 'Move a bot to another space you belong to (its conversations stay with it)',
    body: z.object({ space_id: Id, bot_id: Id, target_space_id: Id }),
    handler: async ({ body, caller }) => {
      const b = await bots.meta(body.bot_id, body.space_id);
      const role = await ctx.service(SpacesService).roleOf(body.target_space_id, caller!.userId);
      if (!role) throw botError(403, 'bots.notMemberOfTarget');
      if (body.target_space_id === b.space_id) return botView(b);
      await bots.refuseTakenName(body.target_space_id, b.name);
      await ctx.db.transaction().execute(async (trx) => {
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
        await trx.updateTable('bots_chat').set({ space_id: body.target_space_id }).where('bot_id', '=', b.id).execute();
      });
      bots.forgetSpace(b.id);
      return botView({ ...b, space_id: body.target_space_id });
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/draftbot/publish',
    resource: { kind: 'bot', id: 'bot_id', write: true },
    auth: inSpace,
    summary: 'Publish the draft as a version to connectors (API, chat page), with a changelog',
    body: z.object({
      space_id: Id,
      bot_id: Id,
      version: z.string().optional(),
      changelog: z.string().max(2000).default(''),
      connectors: z
        .array(z.string().max(32))
        .min(1, 'Choose where to publish: API, chat page or both.')
        .max(20)
        .default([Connectors.API, Connectors.ChatPage]),
      connector_settings: z.record(z.string(), z.unknown()).default({}),
    }),
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
    method: 'POST',
    path: '/api/draftbot/list_draft_history',
    auth: inSpace,
    summary: 'Published versions of a bot, newest first',
    body: z.object({ space_id: Id, bot_id: Id }),
    handler: async ({ body }) => {
      const b = await bots.meta(body.bot_id, body.space_id);
      const rows = await bots.commits(b.id);
      return {
        history_infos: rows.map((c) => ({
          commit_id: c.id,
          version: c.version,
          changelog: c.changelog,
          connectors: JSON.parse(c.connectors),
          connector_settings: JSON.parse(c.connector_settings || '{}'),
          creator_id: c.created_by,
          create_time: Math.floor(Date.parse(c.created_at) / 1000),
        })),
      };
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/draftbot/revert',
    resource: { kind: 'bot', id: 'bot_id', write: true },
    auth: inSpace,
    summary: 'Make the draft a published version again (the draft it replaces is not kept)',
    body: z.object({ space_id: Id, bot_id: Id, commit_id: Id }),
    handler: async ({ body, caller }) => {
      const b = await bots.meta(body.bot_id, body.space_id);
      const c = await ctx.db
        .selectFrom('bots_commit')
        .selectAll()
        .where('id', '=', body.commit_id)
        .where('bot_id', '=', b.id)
        .executeTakeFirst();
      if (!c) throw botError(404, 'bots.versionNotFound');
      const config = BotConfig.parse(JSON.parse(c.config as string));
      return detail(await bots.saveDraft(b, caller!.userId, { config }));
    },
  });

  // ------------------------------------------------------------ the debug chat and the chat page

  /**
   * The conversation a studio call talks in: the user's debug conversation with the draft, or one of
   * their chat-page conversations with the published bot.
   */
  const conversationFor = async (
    b: BotRow,
    userId: string,
    draft: boolean,
    conversationId?: string,
  ): Promise<ConversationRow> => {
    if (draft) return conversations.debugConversation(b.id, b.space_id, userId);
    if (!conversationId)
      return conversations.create({
        bot_id: b.id,
        space_id: b.space_id,
        user_id: userId,
        end_user_id: userId,
        connector_id: Connectors.ChatPage,
        draft: false,
      });
    const c = await conversations.get(conversationId, userId);
    if (c.bot_id !== b.id || c.draft) throw botError(404, 'bots.otherBot');
    return c;
  };
  const answering = async (b: BotRow, draft: boolean, userId: string) => {
    if (draft) return { config: (await bots.draft(b.id)).config, version: null };
    const latest = await bots.published(b.id);
    if (!latest || !latest.connectors.includes(Connectors.ChatPage)) throw botError(400, 'bots.notOnChatPage');
    // The version this person gets on the chat page (a gray release, a rollback).
    const p = (await deps.releases.serving(b.id, Connectors.ChatPage, userId)) ?? latest;
    return { config: p.config, version: p.version };
  };

  const ChatBody = z.object({
    space_id: Id,
    bot_id: Id,
    conversation_id: Id.optional(),
    draft: z.boolean().default(true),
    query: z.string().max(100_000).default(''),
    regen_chat_id: Id.optional(),
  });
  ctx.route({
    method: 'POST',
    path: '/api/conversation/chat',
    auth: inSpace,
    stream: true,
    summary:
      "Send a message to a bot and stream its answer (the draft in the editor, the published version on its chat page); regen_chat_id answers a chat's question again",
    body: ChatBody,
    handler: async ({ body, caller, logId, signal, headers }, reply) => {
      const b = await bots.meta(body.bot_id, body.space_id);
      const { config, version } = await answering(b, body.draft, caller!.userId);
      const c = await conversationFor(b, caller!.userId, body.draft, body.conversation_id);
      let query = body.query;
      if (body.regen_chat_id) {
        // Regenerate: the chat's messages go; its question is asked again.
        const { items } = await conversations.messages(c.id, { order: 'asc', chat_id: body.regen_chat_id, limit: 200 });
        const question = items.find((m) => m.type === 'question');
        if (!question) throw botError(404, 'bots.noQuestion');
        query = question.content;
        await conversations.deleteMessages(
          c.id,
          items.map((m) => m.id),
        );
      }
      if (!query.trim()) throw botError(400, 'bots.emptyMessage');
      const row = await chats.start({
        bot: b,
        config,
        version,
        conversation: c,
        userId: caller!.userId,
        endUserId: caller!.userId,
        connectorId: body.draft ? 'debug' : Connectors.ChatPage,
        messages: [{ role: 'user', content: query }],
        customVariables: {},
        save: true,
        logId,
        language: String(headers['accept-language'] ?? ''),
      });
      const sse = reply.sse();
      // Closing the page (or the stream) stops the answer and its model request, as the stop button does.
      await pipeChat(chats, row.id, sse, signal);
      return null;
    },
  });

  const ConvBody = z.object({
    space_id: Id,
    bot_id: Id,
    conversation_id: Id.optional(),
    draft: z.boolean().default(true),
  });

  ctx.route({
    method: 'POST',
    path: '/api/conversation/get_message_list',
    auth: inSpace,
    summary: 'Messages of the debug conversation (or a chat-page conversation), newest first, paged back with cursor',
    body: ConvBody.extend({ cursor: Id.optional(), count: z.number().int().min(1).max(100).default(30) }),
    handler: async ({ body, caller }) => {
      const b = await bots.meta(body.bot_id, body.space_id);
      if (!body.draft && !body.conversation_id)
        return { messages: [], has_more: false, conversation_id: null, section_id: null };
      const c = await conversationFor(b, caller!.userId, body.draft, body.conversation_id);
      const page = await conversations.messages(c.id, { order: 'desc', before_id: body.cursor, limit: body.count });
      const chatIds = [...new Set(page.items.map((m) => m.chat_id).filter((x): x is string => !!x))];
      const chatRows = chatIds.length
        ? await ctx.db.selectFrom('bots_chat').selectAll().where('id', 'in', chatIds).execute()
        : [];
      return {
        messages: page.items.map(messageView),
        chats: chatRows.map((r) => chatView(r as never)),
        has_more: page.has_more,
        conversation_id: c.id,
        section_id: c.section_id,
      };
    },
  });

  const ownMessage = async (body: { space_id: string; bot_id: string; conversation_id: string }, userId: string) => {
    await bots.meta(body.bot_id, body.space_id);
    const c = await conversations.get(body.conversation_id, userId);
    if (c.bot_id !== body.bot_id) throw botError(404, 'bots.otherBot');
    return c;
  };
  const MsgBody = z.object({ space_id: Id, bot_id: Id, conversation_id: Id, message_id: Id });

  ctx.route({
    method: 'POST',
    path: '/api/conversation/create_section',
    auth: inSpace,
    summary: 'Clear the context: later answers no longer see the earlier messages (they stay in the history)',
    body: ConvBody,
    handler: async ({ body, caller }) => {
      const b = await bots.meta(body.bot_id, body.space_id);
      const c = await conversationFor(b, caller!.userId, body.draft, body.conversation_id);
      return { section_id: await conversations.newSection(c), conversation_id: c.id };
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/conversation/clear_message',
    auth: inSpace,
    summary: 'Delete every message of the conversation',
    body: ConvBody,
    handler: async ({ body, caller }) => {
      const b = await bots.meta(body.bot_id, body.space_id);
      const c = await conversationFor(b, caller!.userId, body.draft, body.conversation_id);
      await ctx.db.deleteFrom('bots_message').where('conversation_id', '=', c.id).execute();
      return { section_id: await conversations.newSection(c), conversation_id: c.id };
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/conversation/delete_message',
    auth: inSpace,
    summary: "Delete a message (a question takes its chat's answers with it)",
    body: MsgBody,
    handler: async ({ body, caller }) => {
      const c = await ownMessage(body, caller!.userId);
      const m = await conversations.message(c.id, body.message_id);
      const ids = [m.id];
      if (m.type === 'question' && m.chat_id)
        ids.push(
          ...(await conversations.messages(c.id, { order: 'asc', chat_id: m.chat_id, limit: 500 })).items.map(
            (x) => x.id,
          ),
        );
      await conversations.deleteMessages(c.id, [...new Set(ids)]);
      return { deleted: [...new Set(ids)] };
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/conversation/break_message',
    auth: inSpace,
    summary: 'Stop an answer while it streams (the model request is aborted; what came so far is kept)',
    body: z.object({ space_id: Id, bot_id: Id, conversation_id: Id, chat_id: Id }),
    handler: async ({ body, caller }) => {
      const c = await ownMessage(body, caller!.userId);
      const chat = await conversations.chat(c.id, body.chat_id);
      const stopped = chats.cancel(chat.id);
      if (stopped) await chats.settled(chat.id);
      return { stopped };
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/conversation/get_chat_trace',
    auth: inSpace,
    summary: "A chat's trace: the skills asked, each tool call, the answer's first and last token, with their times",
    body: z.object({ space_id: Id, bot_id: Id, conversation_id: Id, chat_id: Id }),
    handler: async ({ body, caller }) => {
      const c = await ownMessage(body, caller!.userId);
      return {
        chat: chatView(await conversations.chat(c.id, body.chat_id)),
        spans: (await conversations.trace(c.id, body.chat_id)) ?? [],
      };
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/conversation/message/report',
    auth: inSpace,
    summary: 'Like or dislike an answer (null takes it back)',
    body: MsgBody.extend({ feedback: z.enum(['like', 'dislike']).nullable() }),
    handler: async ({ body, caller }) => {
      const c = await ownMessage(body, caller!.userId);
      const m = await conversations.message(c.id, body.message_id);
      if (m.role !== 'assistant') throw botError(400, 'bots.feedbackOnAnswers');
      return messageView(await conversations.updateMessage(m, { feedback: body.feedback }));
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/conversation/list',
    auth: inSpace,
    summary: 'Your conversations with a published bot on its chat page, latest first',
    body: z.object({
      space_id: Id,
      bot_id: Id,
      page_index: z.number().int().min(1).default(1),
      page_size: z.number().int().min(1).max(100).default(50),
    }),
    handler: async ({ body, caller }) => {
      const b = await bots.meta(body.bot_id, body.space_id);
      const rows = await conversations.list({
        bot_id: b.id,
        user_id: caller!.userId,
        connector_id: Connectors.ChatPage,
        draft: false,
        limit: body.page_size + 1,
        offset: (body.page_index - 1) * body.page_size,
      });
      return {
        conversations: rows.slice(0, body.page_size).map(conversationView),
        has_more: rows.length > body.page_size,
      };
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/conversation/delete',
    auth: inSpace,
    summary: 'Delete one of your chat-page conversations with its messages',
    body: z.object({ space_id: Id, bot_id: Id, conversation_id: Id }),
    handler: async ({ body, caller }) => {
      const c = await ownMessage(body, caller!.userId);
      await conversations.remove(c);
      return null;
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/draftbot/published_info',
    auth: inSpace,
    summary:
      'A published bot as its chat page shows it: name, icon, opening message and questions, shortcuts (any member of the space)',
    body: z.object({ space_id: Id, bot_id: Id }),
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
