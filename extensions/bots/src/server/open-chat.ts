// Coze's chat, conversation and message open API (/v3/chat..., /v1/conversation..., /v1/conversations), for
// personal access tokens, service apps' tokens (their sessions' conversations only) and sessions.
import { OpenApiCode, badRequest } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { z } from 'zod';
import { Connectors } from '../shared/index.ts';
import {
  ChatView,
  ClearedSection,
  ConversationPage,
  ConversationView,
  MessageList,
  MessagePage,
  MessageView,
  ModifiedMessage,
} from '../shared/open-api.ts';
import { chatView, conversationView, messageView, type ConversationRow } from './conversations.ts';
import { botError } from './errors.ts';
import { MetaData, Message, as4200, openAccess, textOf } from './open-common.ts';
import type { BotDeps } from './publishing.ts';
import { pipeChat } from './stream.ts';

export function registerOpenChat(ctx: ServerContext<unknown>, deps: BotDeps) {
  const { bots, conversations, chats, releases } = deps;
  const { byBody, byQueryBot, byConvQuery, byConvBody, convSpace, sessionOf, own } = openAccess(deps);

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
    response: ChatView,
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
    response: MessageList,
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
    response: ChatView,
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
    response: ConversationView,
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
    response: ConversationView,
    auth: byConvQuery,
    permission: 'bot.chat',
    summary: 'A conversation',
    query: z.object({ conversation_id: z.string().min(1) }),
    handler: async ({ query, caller }) => conversationView(await own(query.conversation_id, caller!)),
  });

  ctx.route({
    method: 'GET',
    path: '/v1/conversations',
    response: ConversationPage,
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
    response: ClearedSection,
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
    response: MessageView,
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
    response: MessagePage,
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
    response: MessageView,
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
    response: ModifiedMessage,
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
    response: MessageView,
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
}
