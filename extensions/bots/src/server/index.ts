import {
  Connectors as ConnectorsPoint,
  ResourceReferences,
  StudioEventSources,
  containsText,
  defineExtension,
} from '@tessera/sdk/server';
import { z } from 'zod';
import { TokenPermissions } from '@tessera/ext-identity/shared';
import { badRequest } from '@tessera/sdk';
import {
  BotChatsService,
  BotConfig,
  BotPublished,
  BotSkills,
  BotsService,
  ChatFinished,
  CONNECTOR_NAMES,
  Connectors,
  type BotSummary,
} from '../shared/index.ts';
import { ChatErrorCode, ChatService } from './chat.ts';
import { botError } from './errors.ts';
import { ConversationStore } from './conversations.ts';
import { migrations } from './migrations.ts';
import { registerOpenBots } from './open-bots.ts';
import { registerOpenChat } from './open-chat.ts';
import { registerProgressRoute } from './progress.ts';
import { registerBotRoutes } from './draft-routes.ts';
import { registerChatRoutes } from './chat-routes.ts';
import { BotStore, botsDb, type BotRow } from './store.ts';
import { registerVersionRoutes } from './versions.ts';
import { Releases } from './releases.ts';
import { pipeChat } from './stream.ts';

const summary = (b: BotRow): BotSummary => ({
  bot_id: b.id,
  space_id: b.space_id,
  name: b.name,
  description: b.description,
  icon_uri: b.icon_uri,
  mode: b.mode,
});

export default defineExtension({
  id: 'bots',
  register(ctx) {
    // Where bots (and projects, for their chat-flows) are published: the open API, and the studio's chat page
    // with its embeddable Web SDK (an origin allow-list says which sites may embed it).
    ctx.register(ConnectorsPoint, {
      id: Connectors.API,
      name: CONNECTOR_NAMES[Connectors.API],
      description: {
        'en-US': 'The open API (/v3/chat ...) with a personal access token.',
        'zh-CN': '开放 API（/v3/chat 等），使用个人访问令牌。',
      },
      kinds: ['bot', 'project'],
    });
    ctx.register(ConnectorsPoint, {
      id: Connectors.ChatPage,
      name: CONNECTOR_NAMES[Connectors.ChatPage],
      description: {
        'en-US': 'The chat page of the studio, and the chat widget other sites embed (Web SDK).',
        'zh-CN': '工作室的聊天页面，以及其他网站可嵌入的聊天组件（Web SDK）。',
      },
      kinds: ['bot', 'project'],
      settings: z.object({
        /** Sites whose pages may embed the chat widget: origins such as https://shop.example.com. */
        allowed_origins: z
          .array(
            z
              .string()
              .regex(
                /^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/i,
                'An origin is a scheme and a host, with a port if any: https://shop.example.com',
              ),
          )
          .max(50)
          .default([]),
      }),
    });
    // Bots whose draft configuration names a resource (a knowledge base, a table, a workflow ...).
    ctx.register(ResourceReferences, {
      kind: 'bot',
      async find({ id, spaceId }) {
        const rows = await botsDb(ctx)
          .selectFrom('bots_draft as d')
          .innerJoin('bots_meta as m', 'm.id', 'd.bot_id')
          .select(['m.id', 'm.name', 'm.space_id'])
          .where('m.space_id', '=', spaceId)
          .where('m.deleted_at', 'is', null)
          .where(containsText('d.config', `"${id}"`))
          .execute();
        return rows.map((r) => ({
          kind: 'bot',
          id: r.id,
          name: r.name,
          space_id: r.space_id,
        }));
      },
    });
    ctx.migrations(migrations);
    const bots = ctx.resolve(BotStore);
    const conversations = ctx.resolve(ConversationStore);
    const chats = ctx.resolve(ChatService);
    const releases = ctx.resolve(Releases);
    const deps = { bots, conversations, chats, releases };
    registerBotRoutes(ctx, deps);
    registerChatRoutes(ctx, deps);
    registerVersionRoutes(ctx, bots, releases);
    // Publishing is an operation on the versions too.
    ctx.on(BotPublished, (e) =>
      releases
        .record(e.bot_id, e.user_id ?? '', 'publish', e.version, '', e.connectors.join(','))
        .catch((err) => ctx.report(err)),
    );
    registerOpenChat(ctx, deps);
    registerOpenBots(ctx, deps);
    registerProgressRoute(ctx);
    ctx.provide(BotsService, {
      get: async (id) => {
        const b = await bots.meta(id).catch(() => undefined);
        return b && summary(b);
      },
      skillSettings: async (botId, skill, which) => {
        const config =
          which === 'published'
            ? (await bots.published(botId))?.config
            : await bots.draft(botId).then(
                (d) => d.config,
                () => undefined,
              );
        return config?.skills[skill];
      },
      async setSkillSettings(botId, skill, settings, userId) {
        const b = await bots.meta(botId);
        const draft = await bots.draft(b.id);
        const def = ctx.registry(BotSkills).get(skill);
        const skills = { ...draft.config.skills };
        if (settings === undefined) delete skills[skill];
        else skills[skill] = def ? def.settings.parse(settings) : settings;
        const t = new Date().toISOString();
        await botsDb(ctx)
          .transaction()
          .execute(async (trx) => {
            await trx
              .updateTable('bots_draft')
              .set({
                config: JSON.stringify({ ...draft.config, skills }),
                revision: b.draft_revision + 1,
                updated_by: userId,
                updated_at: t,
              })
              .where('bot_id', '=', b.id)
              .execute();
            await trx
              .updateTable('bots_meta')
              .set({ draft_revision: b.draft_revision + 1, updated_at: t })
              .where('id', '=', b.id)
              .execute();
          });
      },
      list: async (spaceId) =>
        (
          await botsDb(ctx)
            .selectFrom('bots_meta')
            .selectAll()
            .where('space_id', '=', spaceId)
            .where('deleted_at', 'is', null)
            .orderBy('updated_at', 'desc')
            .execute()
        ).map(summary),
      publication: async (botId) => {
        const b = await bots.meta(botId).catch(() => undefined);
        const p = b && (await bots.published(b.id));
        if (!b || !p) return undefined;
        return {
          ...summary(b),
          version: p.version,
          connectors: p.connectors,
          connector_settings: p.connector_settings,
          onboarding: p.config.onboarding,
          creator_id: b.creator_id,
        };
      },
      publishedConfig: async (botId) => {
        const p = await bots.published(botId).catch(() => undefined);
        return p && { version: p.version, config: p.config };
      },
    });
    ctx.provide(BotChatsService, {
      async start(t) {
        let conversation;
        if (t.conversationId) {
          conversation = await conversations.get(t.conversationId, t.userId);
          // One end user's conversation is not another's (channels where many end users share the accountable user).
          if (conversation.bot_id !== t.ownerId || conversation.end_user_id !== t.endUserId)
            throw badRequest('This conversation belongs to something else or another user.');
        } else
          conversation = await conversations.create({
            bot_id: t.ownerId,
            space_id: t.spaceId,
            user_id: t.userId,
            end_user_id: t.endUserId,
            connector_id: t.connectorId,
            draft: false,
          });
        const owner = { id: t.ownerId, space_id: t.spaceId } as BotRow;
        const parsed = BotConfig.safeParse({ mode: t.mode, settings: t.settings });
        if (!parsed.success) throw badRequest(`The turn's settings are not valid: ${parsed.error.issues[0]?.message}`);
        const row = await chats.start({
          bot: owner,
          config: parsed.data,
          version: 'latest',
          conversation,
          userId: t.userId,
          endUserId: t.endUserId,
          connectorId: t.connectorId,
          messages: t.messages,
          customVariables: t.customVariables,
          save: true,
          logId: t.logId,
        });
        return { chat_id: row.id, conversation_id: conversation.id };
      },
      async startPublished(t) {
        const b = await bots.meta(t.botId).catch(() => undefined);
        const latest = b && (await bots.published(b.id));
        const connectorId = t.connectorId ?? Connectors.API;
        if (!b || !latest || !latest.connectors.includes(connectorId))
          throw botError(404, connectorId === Connectors.API ? 'bots.notOnApi' : 'bots.notOnChatPage', {});
        // The version this end user gets on the connector (a gray release, a rollback).
        const p = (await releases.serving(b.id, connectorId, t.endUserId)) ?? latest;
        let conversation;
        if (t.conversationId) {
          conversation = await conversations.get(t.conversationId, t.userId);
          // One end user's conversation is not another's (channels where many end users share the accountable user).
          if (conversation.bot_id !== b.id || conversation.end_user_id !== t.endUserId)
            throw badRequest('This conversation belongs to another bot or user.');
        } else
          conversation = await conversations.create({
            bot_id: b.id,
            space_id: b.space_id,
            user_id: t.userId,
            end_user_id: t.endUserId,
            connector_id: connectorId,
            draft: false,
          });
        const row = await chats.start({
          bot: b,
          config: p.config,
          version: p.version,
          conversation,
          userId: t.userId,
          endUserId: t.endUserId,
          connectorId,
          messages: [{ role: 'user', content: t.message }],
          customVariables: {},
          save: true,
          logId: t.logId,
        });
        return { chat_id: row.id, conversation_id: conversation.id };
      },
      stream: (chatId, sse, signal) => pipeChat(chats, chatId, sse, signal),
      async exchange(conversationId, chatId) {
        const c = await botsDb(ctx)
          .selectFrom('bots_conversation')
          .selectAll()
          .where('id', '=', conversationId)
          .executeTakeFirst();
        if (!c) return undefined;
        const { items } = await conversations.messages(conversationId, { order: 'asc', chat_id: chatId, limit: 50 });
        const text = (type: string) =>
          items
            .filter((m) => m.type === type)
            .map((m) => m.content)
            .join('\n');
        return {
          bot_id: c.bot_id,
          space_id: c.space_id,
          end_user_id: c.end_user_id,
          connector_id: c.connector_id,
          draft: !!Number(c.draft),
          question: text('question'),
          answer: text('answer'),
        };
      },
    });
    for (const [key, en, zh] of [
      ['bot.read', 'Read bots', '查看智能体'],
      ['bot.write', 'Create, change and publish bots', '创建、修改和发布智能体'],
      ['bot.chat', 'Chat with bots and manage conversations', '与智能体对话并管理会话'],
    ] as const) {
      ctx.register(TokenPermissions, { key, label: { 'en-US': en, 'zh-CN': zh }, group: 'bot' });
    }
    // Bots' events for triggers and API apps' callbacks (`bot.published` as Coze's callbacks name it).
    ctx.register(StudioEventSources, {
      key: 'bot.published',
      label: { 'en-US': 'A bot was published', 'zh-CN': '智能体已发布' },
      event: BotPublished,
      spaceOf: (p) => p.space_id,
      data: (p) => ({ bot_id: p.bot_id, version: p.version, connectors: p.connectors }),
      filters: [{ key: 'bot_id', label: { 'en-US': 'Bot', 'zh-CN': '智能体' } }],
    });
    ctx.register(StudioEventSources, {
      key: 'bot.chat.finished',
      label: { 'en-US': 'A chat with a bot ended', 'zh-CN': '与智能体的对话结束' },
      event: ChatFinished,
      spaceOf: (p) => p.space_id,
      data: (p) => ({
        chat_id: p.chat_id,
        bot_id: p.bot_id,
        conversation_id: p.conversation_id,
        status: p.status,
        input_tokens: p.input_tokens,
        output_tokens: p.output_tokens,
        duration_ms: p.duration_ms,
      }),
      filters: [
        { key: 'bot_id', label: { 'en-US': 'Bot', 'zh-CN': '智能体' } },
        { key: 'status', label: { 'en-US': 'Status', 'zh-CN': '状态' }, choices: ['completed', 'failed', 'canceled'] },
      ],
    });
  },
  async start(ctx) {
    // Chats answered by a process that stopped will not end on their own (with several processes a
    // chat may be live elsewhere: those are left alone).
    if (ctx.host.distributed) return;
    const r = await botsDb(ctx)
      .updateTable('bots_chat')
      .set({
        status: 'failed',
        error_code: ChatErrorCode.Internal,
        error_msg: 'The studio stopped while this chat was answering; send the message again.',
        failed_at: Date.now(),
      })
      .where('status', 'in', ['created', 'in_progress'])
      .executeTakeFirst();
    if (Number(r.numUpdatedRows))
      ctx.logger.warn(`failed ${r.numUpdatedRows} chat(s) left answering by a previous stop`);
  },
});
