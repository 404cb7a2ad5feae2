// The debug chat (the draft answers, in the editor) and the chat page (the published version answers): send and
// stream, the messages paged back, new section, clear, delete, stop, a chat's trace, feedback, the conversations.
import type { ServerContext } from '@tessera/sdk/server';
import {
  BreakMessage,
  ChatBody,
  ClearMessages,
  DeleteConversation,
  DeleteMessage,
  GetChatTrace,
  GetMessages,
  ListConversations,
  NewSection,
  ReportMessage,
} from '../shared/api.ts';
import { Connectors } from '../shared/index.ts';
import { chatView, conversationView, messageView, type ConversationRow } from './conversations.ts';
import { botError } from './errors.ts';
import type { BotDeps } from './publishing.ts';
import { pipeChat } from './stream.ts';
import { botsDb, type BotRow } from './store.ts';

const inSpace = { space: { from: 'body' as const, field: 'space_id' } };

export function registerChatRoutes(ctx: ServerContext<unknown>, deps: BotDeps) {
  const { bots, conversations, chats } = deps;
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

  ctx.route({
    ...GetMessages,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const b = await bots.meta(body.bot_id, body.space_id);
      if (!body.draft && !body.conversation_id)
        return { messages: [], chats: [], has_more: false, conversation_id: null, section_id: null };
      const c = await conversationFor(b, caller!.userId, body.draft, body.conversation_id);
      const page = await conversations.messages(c.id, { order: 'desc', before_id: body.cursor, limit: body.count });
      const chatIds = [...new Set(page.items.map((m) => m.chat_id).filter((x): x is string => !!x))];
      const chatRows = chatIds.length
        ? await botsDb(ctx).selectFrom('bots_chat').selectAll().where('id', 'in', chatIds).execute()
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
  ctx.route({
    ...NewSection,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const b = await bots.meta(body.bot_id, body.space_id);
      const c = await conversationFor(b, caller!.userId, body.draft, body.conversation_id);
      return { section_id: await conversations.newSection(c), conversation_id: c.id };
    },
  });

  ctx.route({
    ...ClearMessages,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const b = await bots.meta(body.bot_id, body.space_id);
      const c = await conversationFor(b, caller!.userId, body.draft, body.conversation_id);
      await botsDb(ctx).deleteFrom('bots_message').where('conversation_id', '=', c.id).execute();
      return { section_id: await conversations.newSection(c), conversation_id: c.id };
    },
  });

  ctx.route({
    ...DeleteMessage,
    auth: inSpace,
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
    ...BreakMessage,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const c = await ownMessage(body, caller!.userId);
      const chat = await conversations.chat(c.id, body.chat_id);
      const stopped = chats.cancel(chat.id);
      if (stopped) await chats.settled(chat.id);
      return { stopped };
    },
  });

  ctx.route({
    ...GetChatTrace,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const c = await ownMessage(body, caller!.userId);
      return {
        chat: chatView(await conversations.chat(c.id, body.chat_id)),
        spans: (await conversations.trace(c.id, body.chat_id)) ?? [],
      };
    },
  });

  ctx.route({
    ...ReportMessage,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const c = await ownMessage(body, caller!.userId);
      const m = await conversations.message(c.id, body.message_id);
      if (m.role !== 'assistant') throw botError(400, 'bots.feedbackOnAnswers');
      return messageView(await conversations.updateMessage(m, { feedback: body.feedback }));
    },
  });

  ctx.route({
    ...ListConversations,
    auth: inSpace,
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
    ...DeleteConversation,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const c = await ownMessage(body, caller!.userId);
      await conversations.remove(c);
      return null;
    },
  });
}
