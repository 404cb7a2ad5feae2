// Coze's bot open API (/v1/bot/create, update, publish, get_online_info; /v1/bots; the space's published bots):
// the mode and each skill read their fields from Coze's and describe the bot in them.
import { badRequest } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { z } from 'zod';
import { BotConfig, BotModes, BotSkills, type BotConfig as BotConfigT } from '../shared/index.ts';
import { CreatedBot, OpenBotInfo, PublishedBot, PublishedBotsList, WorkspaceBots } from '../shared/open-api.ts';
import { as4200, missing, openAccess, secs } from './open-common.ts';
import { publishDraft, type BotDeps } from './publishing.ts';
import { botsDb, nowIso, type BotRow } from './store.ts';

export function registerOpenBots(ctx: ServerContext<unknown>, deps: BotDeps) {
  const { bots } = deps;
  const { byBody, byQueryBot, botSpace } = openAccess(deps);

  // ------------------------------------------------------------------ bots

  const fromOpenApi = (body: Record<string, unknown>, current: BotConfigT): BotConfigT => {
    const next: BotConfigT = structuredClone(current);
    const mode = ctx.registry(BotModes).get(next.mode);
    // What the mode and each skill read from Coze's fields is checked with their schemas: a bad value
    // (a temperature of 5) is refused now, not found when the bot answers.
    const checked = (
      schema: {
        safeParse(v: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } };
      },
      v: unknown,
      what: string,
    ) => {
      const r = schema.safeParse(v);
      if (!r.success)
        throw badRequest(
          `${what}: ${r
            .error!.issues.slice(0, 5)
            .map((i) => `${i.path.join('.')}: ${i.message}`)
            .join('; ')}`,
        );
      return v;
    };
    const settings = mode?.fromOpenApi?.(body, next.settings);
    if (settings !== undefined && mode)
      next.settings = checked(mode.settings, settings, 'The bot settings are not valid') as Record<string, unknown>;
    for (const skill of ctx.registry(BotSkills).list()) {
      const raw = skill.fromOpenApi?.(body, next.skills[skill.key]);
      const v = raw === undefined ? undefined : checked(skill.settings, raw, `${skill.label['en-US']} are not valid`);
      if (v !== undefined) next.skills[skill.key] = v;
    }
    const onboarding = body.onboarding_info as { prologue?: string; suggested_questions?: string[] } | undefined;
    if (onboarding)
      next.onboarding = {
        prologue: onboarding.prologue ?? next.onboarding.prologue,
        suggested_questions: onboarding.suggested_questions ?? next.onboarding.suggested_questions,
      };
    const suggest = body.suggest_reply_info as { reply_mode?: string; customized_prompt?: string } | undefined;
    if (suggest?.reply_mode)
      next.suggest_reply = {
        mode: suggest.reply_mode === 'enable' ? 'default' : suggest.reply_mode === 'customized' ? 'custom' : 'off',
        prompt: suggest.customized_prompt ?? next.suggest_reply.prompt,
      };
    const parsed = BotConfig.safeParse(next);
    if (!parsed.success)
      throw badRequest(
        `The bot's settings are not valid: ${parsed.error.issues
          .slice(0, 5)
          .map((i) => `${i.path.join('.')}: ${i.message}`)
          .join('; ')}`,
      );
    return parsed.data;
  };

  const info = async (b: BotRow, config: BotConfigT, version: string): Promise<z.output<typeof OpenBotInfo>> => {
    const mode = ctx.registry(BotModes).get(config.mode);
    // Settings as their schemas read them (defaults filled in): a bot just created has none of its own yet.
    const settings = mode?.settings.safeParse(config.settings ?? {});
    const described: Record<string, unknown> = {
      ...(settings?.success ? (mode?.describe?.(settings.data) ?? {}) : {}),
    };
    for (const [key, value] of Object.entries(config.skills)) {
      const skill = ctx.registry(BotSkills).get(key);
      const parsed = skill?.settings.safeParse(value ?? {});
      if (parsed?.success) Object.assign(described, (await skill!.describe?.(parsed.data, b.space_id)) ?? {});
    }
    const reply = config.suggest_reply;
    return {
      bot_id: b.id,
      name: b.name,
      description: b.description,
      icon_url: b.icon_uri,
      create_time: secs(b.created_at),
      update_time: secs(b.updated_at),
      version,
      bot_mode: mode?.code ?? 0,
      prompt_info: { prompt: '' },
      model_info: { model_id: '', model_name: '' },
      plugin_info_list: [],
      workflow_info_list: [],
      knowledge: { knowledge_infos: [] },
      variables: [],
      ...described,
      onboarding_info: {
        prologue: config.onboarding.prologue,
        suggested_questions: config.onboarding.suggested_questions,
      },
      suggest_reply_info: {
        reply_mode: reply.mode === 'default' ? 'enable' : reply.mode === 'custom' ? 'customized' : 'disable',
        customized_prompt: reply.prompt,
      },
      shortcut_commands: config.shortcuts.map((s) => ({
        id: s.id,
        name: s.name,
        command: s.command,
        description: s.description,
        query_template: s.query_template,
        icon_url: '',
        components: [],
      })),
    };
  };

  const BotBody = z
    .object({
      name: z.string().trim().min(1).max(100).optional(),
      description: z.string().max(2000).optional(),
      icon_file_id: z.string().max(2000).optional(),
    })
    .passthrough();

  ctx.route({
    method: 'POST',
    path: '/v1/bot/create',
    response: CreatedBot,
    auth: { space: { from: 'body', field: 'space_id' } },
    permission: 'bot.write',
    summary: 'Create a bot (single agent) with its prompt, model, opening and workflows',
    body: BotBody.extend({ space_id: z.string().min(1), name: z.string().trim().min(1).max(100) }),
    handler: async ({ body, caller }) => {
      await bots.refuseTakenName(body.space_id, body.name);
      const mode = ctx.registry(BotModes).get('single-agent') ?? ctx.registry(BotModes).list()[0];
      if (!mode) throw badRequest('No bot mode is enabled in this studio.');
      const config = fromOpenApi(body, BotConfig.parse({ mode: mode.key }));
      const bot_id = await bots.create({
        space_id: body.space_id,
        name: body.name,
        description: body.description ?? '',
        icon_uri: body.icon_file_id ?? '',
        config,
        creator_id: caller!.userId,
      });
      return { bot_id };
    },
  });

  ctx.route({
    method: 'POST',
    path: '/v1/bot/update',
    response: z.null(),
    auth: byBody,
    permission: 'bot.write',
    summary: "Change a bot's draft (publish it to make it answer)",
    body: BotBody.extend({ bot_id: z.string().min(1) }),
    handler: async ({ body, caller }) => {
      const b = await bots.meta(body.bot_id).catch(as4200);
      if (body.name && body.name !== b.name) await bots.refuseTakenName(b.space_id, body.name, b.id);
      const draft = await bots.draft(b.id);
      const config = fromOpenApi(body, draft.config);
      const t = nowIso();
      await botsDb(ctx)
        .transaction()
        .execute(async (trx) => {
          await trx
            .updateTable('bots_draft')
            .set({
              config: JSON.stringify(config),
              revision: b.draft_revision + 1,
              updated_by: caller!.userId,
              updated_at: t,
            })
            .where('bot_id', '=', b.id)
            .execute();
          await trx
            .updateTable('bots_meta')
            .set({
              name: body.name ?? b.name,
              description: body.description ?? b.description,
              icon_uri: body.icon_file_id ?? b.icon_uri,
              draft_revision: b.draft_revision + 1,
              updated_at: t,
            })
            .where('id', '=', b.id)
            .execute();
        });
      return null;
    },
  });

  ctx.route({
    method: 'POST',
    path: '/v1/bot/publish',
    response: PublishedBot,
    auth: byBody,
    permission: 'bot.write',
    summary: 'Publish the draft to connectors (1024: API; 999: the chat page and Web SDK; others from extensions)',
    body: z.object({ bot_id: z.string().min(1), connector_ids: z.array(z.string()).min(1) }),
    handler: async ({ body, caller }) => {
      const b = await bots.meta(body.bot_id).catch(as4200);
      const { version } = await publishDraft(ctx, bots, b, {
        changelog: '',
        connectors: body.connector_ids,
        userId: caller!.userId,
      });
      return { bot_id: b.id, version };
    },
  });

  const published = async (b: BotRow) => {
    const p = await bots.published(b.id);
    if (!p) throw missing('This bot has no published version yet.');
    return info(b, p.config, p.version);
  };

  ctx.route({
    method: 'GET',
    path: '/v1/bot/get_online_info',
    response: OpenBotInfo,
    auth: byQueryBot,
    permission: 'bot.read',
    summary: 'The published bot',
    query: z.object({ bot_id: z.string().min(1) }),
    handler: async ({ query }) => published(await bots.meta(query.bot_id).catch(as4200)),
  });

  ctx.route({
    method: 'GET',
    path: '/v1/bots/:bot_id',
    response: OpenBotInfo,
    auth: { space: (r: { params: any }) => botSpace(r.params?.bot_id) },
    permission: 'bot.read',
    summary: 'A bot: its draft, or its published version with is_published=true',
    params: z.object({ bot_id: z.string().min(1) }),
    query: z.object({ is_published: z.enum(['true', 'false']).optional() }),
    handler: async ({ params, query }) => {
      const b = await bots.meta(params.bot_id).catch(as4200);
      if (query.is_published === 'true') return published(b);
      return info(b, (await bots.draft(b.id)).config, b.latest_version ?? '');
    },
  });

  ctx.route({
    method: 'GET',
    path: '/v1/space/published_bots_list',
    response: PublishedBotsList,
    auth: { space: { from: 'query', field: 'space_id' } },
    permission: 'bot.read',
    summary: 'Published bots of a space',
    query: z.object({
      space_id: z.string().min(1),
      page_size: z.coerce.number().int().min(1).max(100).default(20),
      page_index: z.coerce.number().int().min(1).default(1),
    }),
    handler: async ({ query }) => {
      const q = botsDb(ctx)
        .selectFrom('bots_meta')
        .where('space_id', '=', query.space_id)
        .where('deleted_at', 'is', null)
        .where('latest_version', 'is not', null);
      const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = await q
        .selectAll()
        .orderBy('published_at', 'desc')
        .limit(query.page_size)
        .offset((query.page_index - 1) * query.page_size)
        .execute();
      return {
        total,
        space_bots: rows.map((b) => ({
          bot_id: b.id,
          bot_name: b.name,
          description: b.description,
          icon_url: b.icon_uri,
          publish_time: String(secs(b.published_at)),
        })),
      };
    },
  });

  ctx.route({
    method: 'GET',
    path: '/v1/bots',
    response: WorkspaceBots,
    auth: { space: { from: 'query', field: 'workspace_id' } },
    permission: 'bot.read',
    summary: 'Bots of a workspace (all, published or drafts only)',
    query: z.object({
      workspace_id: z.string().min(1),
      publish_status: z
        .enum(['all', 'published_online', 'published_draft', 'unpublished_draft'])
        .default('published_online'),
      connector_id: z.string().optional(),
      page_num: z.coerce.number().int().min(1).default(1),
      page_size: z.coerce.number().int().min(1).max(100).default(20),
    }),
    handler: async ({ query }) => {
      let q = botsDb(ctx)
        .selectFrom('bots_meta')
        .where('space_id', '=', query.workspace_id)
        .where('deleted_at', 'is', null);
      if (query.publish_status === 'published_online' || query.publish_status === 'published_draft')
        q = q.where('latest_version', 'is not', null);
      if (query.publish_status === 'unpublished_draft') q = q.where('latest_version', 'is', null);
      const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = await q
        .selectAll()
        .orderBy('updated_at', 'desc')
        .limit(query.page_size)
        .offset((query.page_num - 1) * query.page_size)
        .execute();
      return {
        total,
        items: rows.map((b) => ({
          id: b.id,
          name: b.name,
          icon_url: b.icon_uri,
          updated_at: secs(b.updated_at),
          description: b.description,
          is_published: !!b.latest_version,
          published_at: secs(b.published_at) || undefined,
          owner_user_id: b.creator_id,
        })),
      };
    },
  });
}
