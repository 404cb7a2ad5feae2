import { ApiError, ErrorCode, OpenApiCode, badRequest } from '@tessera/sdk';
import type { Caller, ServerContext } from '@tessera/sdk/server';
import { z } from 'zod';
import { BotConfig, BotModes, BotSkills, Connectors, type BotConfig as BotConfigT } from '../shared/index.ts';
import { chatView, conversationView, messageView, type ConversationRow } from './conversations.ts';
import { publishDraft, type BotDeps } from './routes.ts';
import { botError } from './errors.ts';
import { pipeChat } from './stream.ts';
import { nowIso, type BotRow } from './store.ts';

/** Not found as the open API says it (4200). */
const missing = (msg: string) => new ApiError(404, ErrorCode.NOT_FOUND, msg, '', { openCode: OpenApiCode.NOT_FOUND });
const as4200 = (e: unknown): never => {
  if (ApiError.is(e) && e.status === 404) throw missing(e.msg);
  throw e;
};
const secs = (iso: string | null) => (iso ? Math.floor(Date.parse(iso) / 1000) : 0);

/** Coze's meta_data: at most 16 pairs of short texts. */
const MetaData = z
  .record(z.string().max(64), z.string().max(512))
  .refine((m) => Object.keys(m).length <= 16, 'meta_data has at most 16 keys.');
const Message = z.object({
  role: z.enum(['user', 'assistant']),
  type: z.enum(['question', 'answer']).optional(),
  content: z
    .union([
      z.string().max(100_000, 'A message has at most 100,000 characters.'),
      z.array(z.record(z.string(), z.unknown())).max(50),
    ])
    .optional(),
  content_type: z.enum(['text', 'object_string', 'card']).default('text'),
  meta_data: MetaData.optional(),
});
/** Text of a message: object_string items contribute their text parts (files come with the files area). */
const textOf = (m: z.infer<typeof Message>): string => {
  if (typeof m.content === 'string') {
    if (m.content_type !== 'object_string') return m.content;
    try {
      return textOf({ ...m, content: JSON.parse(m.content) });
    } catch {
      throw badRequest('content of an object_string message must be a JSON array of items.');
    }
  }
  return (m.content ?? [])
    .filter((i) => i.type === 'text')
    .map((i) => String(i.text ?? ''))
    .join('\n');
};

/** Coze's chat, conversation, message and bot open API, for personal access tokens (and sessions). */
export function registerOpenApi(ctx: ServerContext<unknown>, deps: BotDeps) {
  const { bots, conversations, chats, releases } = deps;
  const botSpace = (id: unknown) => bots.spaceOf(id).then((s) => s ?? missingSpace(id, 'bot'));
  const convSpace = (id: unknown) => conversations.spaceOf(id).then((s) => s ?? missingSpace(id, 'conversation'));
  const missingSpace = (id: unknown, what: string): never => {
    if (typeof id !== 'string' || !id) throw badRequest(`${what}_id is required.`);
    throw missing(`No ${what} ${id} (it may have been deleted).`);
  };
  const byBody = { space: (r: { body: any }) => botSpace(r.body?.bot_id) };
  const byQueryBot = { space: (r: { query: any }) => botSpace(r.query?.bot_id) };
  const byConvQuery = { space: (r: { query: any }) => convSpace(r.query?.conversation_id) };
  const byConvBody = { space: (r: { body: any }) => convSpace(r.body?.conversation_id) };

  /** The session a service app's token names (its conversations are that session's only), '' otherwise. */
  const sessionOf = (caller: Caller) => caller.credential?.sessionName ?? '';
  /** A conversation of the caller's (another user's or session's is not found), with its bot. */
  const own = async (conversationId: string, caller: Caller): Promise<ConversationRow> =>
    conversations.get(conversationId, caller.userId, sessionOf(caller)).catch(as4200);

  // ------------------------------------------------------------------ chat

  const ChatBody = z.object({
    bot_id: z.string().min(1),
    user_id: z.union([z.string().max(200, 'user_id has at most 200 characters.'), z.number()]).optional(),
    additional_messages: z.array(Message).max(100).default([]),
    stream: z.boolean().default(false),
    custom_variables: z.record(z.string().max(64), z.string().max(10_000)).default({}),
    auto_save_history: z.boolean().default(true),
    meta_data: MetaData.optional(),
    extra_params: z.record(z.string(), z.string()).optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    shortcut_command: z.unknown().optional(),
    connector_id: z.string().optional(),
  });

  ctx.route({
    method: 'POST',
    path: '/v3/chat',
    auth: byBody,
    permission: 'bot.chat',
    stream: true,
    summary: 'Chat with a published bot: streamed (stream: true) or started and polled with /v3/chat/retrieve',
    body: ChatBody,
    query: z.object({ conversation_id: z.string().optional() }),
    handler: async ({ body, query, caller, logId, signal, headers }, reply) => {
      if (!body.stream && !body.auto_save_history)
        throw badRequest(
          'auto_save_history must be true when stream is false (the answer is read from the conversation).',
        );
      const b = await bots.meta(body.bot_id).catch(as4200);
      const latest = await bots.published(b.id);
      if (!latest || !latest.connectors.includes(Connectors.API))
        throw botError(404, 'bots.notOnApi', {}, { openCode: OpenApiCode.NOT_FOUND });
      const endUser = body.user_id !== undefined && body.user_id !== '' ? String(body.user_id) : caller!.userId;
      // The version this end user gets on the API (a gray release, a rollback).
      const p = (await releases.serving(b.id, Connectors.API, endUser)) ?? latest;
      let c: ConversationRow;
      if (query.conversation_id) {
        c = await own(query.conversation_id, caller!);
        if (c.bot_id !== b.id) throw badRequest('This conversation belongs to another bot.');
      } else
        c = await conversations.create({
          bot_id: b.id,
          space_id: b.space_id,
          user_id: caller!.userId,
          end_user_id: endUser,
          connector_id: Connectors.API,
          draft: false,
          meta_data: body.meta_data,
          session_name: sessionOf(caller!),
        });
      const messages = body.additional_messages.map((m) => ({
        role: m.role,
        type: m.type,
        content: textOf(m),
        meta_data: m.meta_data,
      }));
      if (!messages.some((m) => m.role === 'user' && m.content.trim()))
        throw badRequest('additional_messages needs a user message: it is the question the bot answers.');
      const row = await chats.start({
        bot: b,
        config: p.config,
        version: p.version,
        conversation: c,
        userId: caller!.userId,
        endUserId: endUser,
        connectorId: Connectors.API,
        messages,
        customVariables: body.custom_variables,
        save: body.auto_save_history,
        logId,
        language: String(headers['accept-language'] ?? ''),
        metaData: body.meta_data,
      });
      if (!body.stream) return chatView({ ...row, status: 'in_progress' });
      await pipeChat(chats, row.id, reply.sse(), signal);
      return null;
    },
  });

  const ChatRef = z.object({ conversation_id: z.string().min(1), chat_id: z.string().min(1) });

  ctx.route({
    method: 'POST',
    path: '/v3/chat/retrieve',
    auth: byConvQuery,
    permission: 'bot.chat',
    summary: 'A chat: status, usage, last error',
    query: ChatRef,
    handler: async ({ query, caller }) => {
      const c = await own(query.conversation_id, caller!);
      return chatView(await conversations.chat(c.id, query.chat_id).catch(as4200));
    },
  });

  ctx.route({
    method: 'GET',
    path: '/v3/chat/message/list',
    auth: byConvQuery,
    permission: 'bot.chat',
    summary: "A chat's messages: the answer, tool calls and results, suggested questions",
    query: ChatRef,
    handler: async ({ query, caller }) => {
      const c = await own(query.conversation_id, caller!);
      await conversations.chat(c.id, query.chat_id).catch(as4200);
      const { items } = await conversations.messages(c.id, { order: 'asc', chat_id: query.chat_id, limit: 500 });
      return items.filter((m) => m.type !== 'question').map(messageView);
    },
  });

  ctx.route({
    method: 'POST',
    path: '/v3/chat/cancel',
    auth: byConvBody,
    permission: 'bot.chat',
    summary: 'Cancel a chat that is answering (its model request is aborted)',
    body: ChatRef,
    handler: async ({ body, caller }) => {
      const c = await own(body.conversation_id, caller!);
      const chat = await conversations.chat(c.id, body.chat_id).catch(as4200);
      if (chats.cancel(chat.id)) await chats.settled(chat.id);
      else if (chat.status === 'created' || chat.status === 'in_progress')
        throw badRequest('This chat is not running in this studio process; try again.');
      else throw badRequest(`This chat has already ended (${chat.status}).`);
      return chatView(await conversations.chat(c.id, chat.id));
    },
  });

  ctx.route({
    method: 'POST',
    path: '/v3/chat/submit_tool_outputs',
    auth: byConvQuery,
    permission: 'bot.chat',
    stream: true,
    summary: 'Answer a chat that requires action (tools the caller runs)',
    query: ChatRef,
    body: z.object({
      tool_outputs: z.array(z.object({ tool_call_id: z.string(), output: z.string() })).min(1),
      stream: z.boolean().optional(),
    }),
    handler: async ({ query, caller }) => {
      const c = await own(query.conversation_id, caller!);
      const chat = await conversations.chat(c.id, query.chat_id).catch(as4200);
      // Every tool of a bot here runs in the studio: no chat waits for the caller's tool outputs.
      throw badRequest(
        `This chat does not wait for tool outputs (its status is ${chat.status}): the bot's tools run in the studio.`,
      );
    },
  });

  // ------------------------------------------------------------------ conversations and messages

  ctx.route({
    method: 'POST',
    path: '/v1/conversation/create',
    auth: byBody,
    permission: 'bot.chat',
    summary: 'Create a conversation with a bot, optionally with its first messages',
    body: z.object({
      bot_id: z.string().min(1),
      messages: z.array(Message).max(50).default([]),
      meta_data: MetaData.optional(),
    }),
    handler: async ({ body, caller }) => {
      const b = await bots.meta(body.bot_id).catch(as4200);
      const c = await conversations.create({
        bot_id: b.id,
        space_id: b.space_id,
        user_id: caller!.userId,
        end_user_id: caller!.userId,
        connector_id: Connectors.API,
        draft: false,
        meta_data: body.meta_data,
        session_name: sessionOf(caller!),
      });
      for (const m of body.messages)
        await conversations.addMessage({
          conversation_id: c.id,
          section_id: c.section_id,
          chat_id: null,
          bot_id: b.id,
          role: m.role,
          type: m.type ?? (m.role === 'user' ? 'question' : 'answer'),
          content: textOf(m),
          content_type: m.content_type,
          meta_data: JSON.stringify(m.meta_data ?? {}),
        });
      return conversationView(c);
    },
  });

  ctx.route({
    method: 'GET',
    path: '/v1/conversation/retrieve',
    auth: byConvQuery,
    permission: 'bot.chat',
    summary: 'A conversation',
    query: z.object({ conversation_id: z.string().min(1) }),
    handler: async ({ query, caller }) => conversationView(await own(query.conversation_id, caller!)),
  });

  ctx.route({
    method: 'GET',
    path: '/v1/conversations',
    auth: byQueryBot,
    permission: 'bot.chat',
    summary: 'Your conversations with a bot through the API, latest first',
    query: z.object({
      bot_id: z.string().min(1),
      page_num: z.coerce.number().int().min(1).default(1),
      page_size: z.coerce.number().int().min(1).max(50).default(50),
    }),
    handler: async ({ query, caller }) => {
      const rows = await conversations.list({
        bot_id: query.bot_id,
        user_id: caller!.userId,
        connector_id: Connectors.API,
        session_name: sessionOf(caller!),
        limit: query.page_size + 1,
        offset: (query.page_num - 1) * query.page_size,
      });
      return {
        conversations: rows.slice(0, query.page_size).map(conversationView),
        has_more: rows.length > query.page_size,
      };
    },
  });

  ctx.route({
    method: 'POST',
    path: '/v1/conversations/:conversation_id/clear',
    auth: { space: (r: { params: any }) => convSpace(r.params?.conversation_id) },
    permission: 'bot.chat',
    summary: 'Clear the context: a new section starts (the messages stay)',
    params: z.object({ conversation_id: z.string().min(1) }),
    handler: async ({ params, caller }) => {
      const c = await own(params.conversation_id, caller!);
      return { id: await conversations.newSection(c), conversation_id: c.id };
    },
  });

  const MsgQuery = z.object({ conversation_id: z.string().min(1), message_id: z.string().min(1) });

  ctx.route({
    method: 'POST',
    path: '/v1/conversation/message/create',
    auth: byConvQuery,
    permission: 'bot.chat',
    summary: 'Add a message to a conversation',
    query: z.object({ conversation_id: z.string().min(1) }),
    body: Message.extend({ content: z.union([z.string().min(1), z.array(z.record(z.string(), z.unknown())).min(1)]) }),
    handler: async ({ query, body, caller }) => {
      const c = await own(query.conversation_id, caller!);
      const m = await conversations.addMessage({
        conversation_id: c.id,
        section_id: c.section_id,
        chat_id: null,
        bot_id: c.bot_id,
        role: body.role,
        type: body.type ?? (body.role === 'user' ? 'question' : 'answer'),
        content: textOf(body),
        content_type: body.content_type,
        meta_data: JSON.stringify(body.meta_data ?? {}),
      });
      await conversations.touch(c.id);
      return messageView(m);
    },
  });

  ctx.route({
    method: 'POST',
    path: '/v1/conversation/message/list',
    auth: byConvQuery,
    permission: 'bot.chat',
    rawResponse: true,
    summary: 'Messages of a conversation, paged both ways with before_id and after_id',
    query: z.object({ conversation_id: z.string().min(1) }),
    body: z
      .object({
        order: z.enum(['asc', 'desc']).default('desc'),
        chat_id: z.string().optional(),
        before_id: z.string().optional(),
        after_id: z.string().optional(),
        limit: z.number().int().min(1).max(50).default(50),
      })
      .prefault({}),
    handler: async ({ query, body, caller }) => {
      if (body.before_id && body.after_id) throw badRequest('Give before_id or after_id, not both.');
      const c = await own(query.conversation_id, caller!);
      const page = await conversations
        .messages(c.id, {
          order: body.order,
          chat_id: body.chat_id,
          before_id: body.before_id,
          after_id: body.after_id,
          limit: body.limit,
        })
        .catch(as4200);
      const data = page.items.map(messageView);
      return {
        code: 0,
        msg: '',
        data,
        first_id: data[0]?.id ?? '',
        last_id: data.at(-1)?.id ?? '',
        has_more: page.has_more,
      };
    },
  });

  ctx.route({
    method: 'GET',
    path: '/v1/conversation/message/retrieve',
    auth: byConvQuery,
    permission: 'bot.chat',
    summary: 'A message',
    query: MsgQuery,
    handler: async ({ query, caller }) => {
      const c = await own(query.conversation_id, caller!);
      return messageView(await conversations.message(c.id, query.message_id).catch(as4200));
    },
  });

  ctx.route({
    method: 'POST',
    path: '/v1/conversation/message/modify',
    auth: byConvQuery,
    permission: 'bot.chat',
    rawResponse: true,
    summary: "Change a message's content or metadata",
    query: MsgQuery,
    body: z.object({
      content: z.union([z.string().max(100_000), z.array(z.record(z.string(), z.unknown())).max(50)]).optional(),
      content_type: z.enum(['text', 'object_string', 'card']).optional(),
      meta_data: MetaData.optional(),
    }),
    handler: async ({ query, body, caller }) => {
      const c = await own(query.conversation_id, caller!);
      const m = await conversations.message(c.id, query.message_id).catch(as4200);
      const content =
        body.content === undefined
          ? undefined
          : textOf({ role: m.role, content: body.content, content_type: body.content_type ?? 'text' });
      const next = await conversations.updateMessage(m, {
        ...(content !== undefined ? { content } : {}),
        ...(body.content_type ? { content_type: body.content_type } : {}),
        ...(body.meta_data ? { meta_data: JSON.stringify(body.meta_data) } : {}),
      });
      return { code: 0, msg: '', message: messageView(next) };
    },
  });

  ctx.route({
    method: 'POST',
    path: '/v1/conversation/message/delete',
    auth: byConvQuery,
    permission: 'bot.chat',
    summary: 'Delete a message',
    query: MsgQuery,
    handler: async ({ query, caller }) => {
      const c = await own(query.conversation_id, caller!);
      const m = await conversations.message(c.id, query.message_id).catch(as4200);
      await conversations.deleteMessages(c.id, [m.id]);
      return messageView(m);
    },
  });

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

  const info = async (b: BotRow, config: BotConfigT, version: string) => {
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
      await ctx.db.transaction().execute(async (trx) => {
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
    auth: byQueryBot,
    permission: 'bot.read',
    summary: 'The published bot',
    query: z.object({ bot_id: z.string().min(1) }),
    handler: async ({ query }) => published(await bots.meta(query.bot_id).catch(as4200)),
  });

  ctx.route({
    method: 'GET',
    path: '/v1/bots/:bot_id',
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
    auth: { space: { from: 'query', field: 'space_id' } },
    permission: 'bot.read',
    summary: 'Published bots of a space',
    query: z.object({
      space_id: z.string().min(1),
      page_size: z.coerce.number().int().min(1).max(100).default(20),
      page_index: z.coerce.number().int().min(1).default(1),
    }),
    handler: async ({ query }) => {
      const q = ctx.db
        .selectFrom('bots_meta')
        .where('space_id', '=', query.space_id)
        .where('deleted_at', 'is', null)
        .where('latest_version', 'is not', null);
      const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = (await q
        .selectAll()
        .orderBy('published_at', 'desc')
        .limit(query.page_size)
        .offset((query.page_index - 1) * query.page_size)
        .execute()) as BotRow[];
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
      let q = ctx.db.selectFrom('bots_meta').where('space_id', '=', query.workspace_id).where('deleted_at', 'is', null);
      if (query.publish_status === 'published_online' || query.publish_status === 'published_draft')
        q = q.where('latest_version', 'is not', null);
      if (query.publish_status === 'unpublished_draft') q = q.where('latest_version', 'is', null);
      const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = (await q
        .selectAll()
        .orderBy('updated_at', 'desc')
        .limit(query.page_size)
        .offset((query.page_num - 1) * query.page_size)
        .execute()) as BotRow[];
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
