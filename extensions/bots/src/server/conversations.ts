import { notFound, parseStoredJson } from '@tessera/sdk';
import { z } from 'zod';
import type { ServerContext } from '@tessera/sdk/server';
import { ChatSpan, type ChatView, type ConversationView, type MessageView } from '../shared/api.ts';
import { botError } from './errors.ts';
import { botsDb } from './store.ts';
import { ServerContextToken } from '@tessera/sdk/server';

export interface ConversationRow {
  id: string;
  bot_id: string;
  space_id: string;
  user_id: string;
  end_user_id: string;
  connector_id: string;
  draft: number;
  name: string;
  section_id: string;
  meta_data: string;
  /** The session of a service app's token that made it ('' for a person's). */
  session_name?: string;
  created_at: number;
  updated_at: number;
}

export interface MessageRow {
  id: string;
  conversation_id: string;
  section_id: string;
  chat_id: string | null;
  bot_id: string;
  role: 'user' | 'assistant';
  type: string;
  content: string;
  content_type: string;
  reasoning_content: string;
  meta_data: string;
  feedback: 'like' | 'dislike' | null;
  created_at: number;
  updated_at: number;
}

export interface ChatRow {
  id: string;
  conversation_id: string;
  section_id: string;
  bot_id: string;
  space_id: string;
  user_id: string;
  version: string | null;
  status: string;
  input_tokens: number;
  output_tokens: number;
  error_code: number | null;
  error_msg: string | null;
  required_action: string | null;
  log_id: string;
  /** JSON of the caller's meta_data for this chat. */
  meta_data?: string;
  created_at: number;
  completed_at: number | null;
  failed_at: number | null;
  /** The chat's steps (JSON of ChatSpan[]), written when it ends. */
  trace?: string | null;
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const conv = (r: any): ConversationRow => ({
  ...r,
  draft: Number(r.draft),
  created_at: Number(r.created_at),
  updated_at: Number(r.updated_at),
});
const msg = (r: any): MessageRow => ({ ...r, created_at: Number(r.created_at), updated_at: Number(r.updated_at) });
const chat = (r: any): ChatRow => ({
  ...r,
  trace: undefined,
  input_tokens: Number(r.input_tokens),
  output_tokens: Number(r.output_tokens),
  created_at: Number(r.created_at),
  completed_at: num(r.completed_at),
  failed_at: num(r.failed_at),
  error_code: num(r.error_code),
});
const parseMeta = (s: string): Record<string, string> => {
  try {
    return JSON.parse(s);
  } catch {
    return {};
  }
};

/** A message as the open API (and the studio's chat) shows it: Coze's ChatV3Message. */
export function messageView(m: MessageRow): MessageView {
  return {
    id: m.id,
    conversation_id: m.conversation_id,
    bot_id: m.bot_id,
    chat_id: m.chat_id ?? '',
    section_id: m.section_id,
    role: m.role,
    type: m.type,
    content: m.content,
    content_type: m.content_type,
    reasoning_content: m.reasoning_content,
    meta_data: parseMeta(m.meta_data),
    feedback: m.feedback ?? undefined,
    created_at: Math.floor(m.created_at / 1000),
    updated_at: Math.floor(m.updated_at / 1000),
  };
}

export function conversationView(c: ConversationRow): ConversationView {
  return {
    id: c.id,
    bot_id: c.bot_id,
    name: c.name,
    created_at: Math.floor(c.created_at / 1000),
    updated_at: Math.floor(c.updated_at / 1000),
    meta_data: parseMeta(c.meta_data),
    last_section_id: c.section_id,
    connector_id: c.connector_id,
  };
}

/** A chat (one turn) as the open API shows it: Coze's chat detail. */
export function chatView(c: ChatRow, botId = c.bot_id): ChatView {
  const usage = {
    token_count: c.input_tokens + c.output_tokens,
    output_count: c.output_tokens,
    input_count: c.input_tokens,
  };
  return {
    id: c.id,
    conversation_id: c.conversation_id,
    bot_id: botId,
    section_id: c.section_id,
    status: c.status,
    created_at: Math.floor(c.created_at / 1000),
    ...(c.completed_at ? { completed_at: Math.floor(c.completed_at / 1000) } : {}),
    ...(c.failed_at ? { failed_at: Math.floor(c.failed_at / 1000) } : {}),
    ...(c.error_code
      ? { last_error: { code: c.error_code, msg: c.error_msg ?? '' } }
      : { last_error: { code: 0, msg: '' } }),
    ...(c.required_action ? { required_action: JSON.parse(c.required_action) } : {}),
    usage,
    meta_data: parseMeta(c.meta_data ?? '{}'),
  };
}

/** Conversations, their sections and messages, and chats (turns). */
export class ConversationStore {
  static readonly inject = [ServerContextToken] as const;
  #ctx: ServerContext<unknown>;
  constructor(ctx: ServerContext<unknown>) {
    this.#ctx = ctx;
  }
  get db() {
    return botsDb(this.#ctx);
  }
  newId() {
    return this.#ctx.host.newId();
  }

  async create(r: {
    bot_id: string;
    space_id: string;
    user_id: string;
    end_user_id: string;
    connector_id: string;
    draft: boolean;
    name?: string;
    meta_data?: Record<string, string>;
    session_name?: string;
  }): Promise<ConversationRow> {
    const t = Date.now();
    const row: ConversationRow = {
      id: this.newId(),
      bot_id: r.bot_id,
      space_id: r.space_id,
      user_id: r.user_id,
      end_user_id: r.end_user_id,
      connector_id: r.connector_id,
      draft: r.draft ? 1 : 0,
      name: r.name ?? '',
      section_id: this.newId(),
      meta_data: JSON.stringify(r.meta_data ?? {}),
      session_name: r.session_name ?? '',
      created_at: t,
      updated_at: t,
    };
    await this.db.insertInto('bots_conversation').values(row).execute();
    return row;
  }

  /**
   * A conversation the user owns (in their session, for a service app's token that names one); another user's or
   * session's is "not found" (it is not theirs to know of).
   */
  async get(id: string, userId: string, sessionName = ''): Promise<ConversationRow> {
    const r = await this.db
      .selectFrom('bots_conversation')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('session_name', '=', sessionName)
      .executeTakeFirst();
    if (!r) throw botError(404, 'bots.conversationNotFound');
    return conv(r);
  }

  async spaceOf(id: unknown): Promise<string | undefined> {
    if (typeof id !== 'string' || !id) return undefined;
    const r = await this.db.selectFrom('bots_conversation').select('space_id').where('id', '=', id).executeTakeFirst();
    return r?.space_id;
  }

  async list(r: {
    bot_id: string;
    user_id: string;
    connector_id?: string;
    draft?: boolean;
    session_name?: string;
    limit: number;
    offset: number;
  }): Promise<ConversationRow[]> {
    let q = this.db
      .selectFrom('bots_conversation')
      .selectAll()
      .where('bot_id', '=', r.bot_id)
      .where('user_id', '=', r.user_id)
      .where('session_name', '=', r.session_name ?? '');
    if (r.connector_id) q = q.where('connector_id', '=', r.connector_id);
    if (r.draft !== undefined) q = q.where('draft', '=', r.draft ? 1 : 0);
    return (await q.orderBy('updated_at', 'desc').orderBy('id', 'desc').limit(r.limit).offset(r.offset).execute()).map(
      conv,
    );
  }

  /** The user's debug conversation with a bot's draft (made on first use). */
  async debugConversation(botId: string, spaceId: string, userId: string): Promise<ConversationRow> {
    const r = await this.db
      .selectFrom('bots_conversation')
      .selectAll()
      .where('bot_id', '=', botId)
      .where('user_id', '=', userId)
      .where('draft', '=', 1)
      .executeTakeFirst();
    return r
      ? conv(r)
      : this.create({
          bot_id: botId,
          space_id: spaceId,
          user_id: userId,
          end_user_id: userId,
          connector_id: 'debug',
          draft: true,
        });
  }

  /** Starts a new section: earlier messages stay, but the bot no longer sees them. */
  async newSection(c: ConversationRow): Promise<string> {
    const section = this.newId();
    await this.db
      .updateTable('bots_conversation')
      .set({ section_id: section, updated_at: Date.now() })
      .where('id', '=', c.id)
      .execute();
    return section;
  }

  async rename(c: ConversationRow, name: string) {
    await this.db
      .updateTable('bots_conversation')
      .set({ name, updated_at: Date.now() })
      .where('id', '=', c.id)
      .execute();
  }

  async remove(c: ConversationRow) {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('bots_message').where('conversation_id', '=', c.id).execute();
      await trx.deleteFrom('bots_chat').where('conversation_id', '=', c.id).execute();
      await trx.deleteFrom('bots_conversation').where('id', '=', c.id).execute();
    });
  }

  async touch(id: string, name?: string) {
    await this.db
      .updateTable('bots_conversation')
      .set({ updated_at: Date.now(), ...(name ? { name } : {}) })
      .where('id', '=', id)
      .execute();
  }

  async addMessage(
    m: Omit<
      MessageRow,
      'id' | 'created_at' | 'updated_at' | 'feedback' | 'reasoning_content' | 'meta_data' | 'content_type'
    > &
      Partial<Pick<MessageRow, 'id' | 'reasoning_content' | 'meta_data' | 'content_type' | 'created_at'>>,
  ): Promise<MessageRow> {
    const t = m.created_at ?? Date.now();
    const row: MessageRow = {
      content_type: 'text',
      reasoning_content: '',
      meta_data: '{}',
      ...m,
      id: m.id ?? this.newId(),
      feedback: null,
      created_at: t,
      updated_at: t,
    };
    await this.db.insertInto('bots_message').values(row).execute();
    return row;
  }

  async message(conversationId: string, messageId: string): Promise<MessageRow> {
    const r = await this.db
      .selectFrom('bots_message')
      .selectAll()
      .where('conversation_id', '=', conversationId)
      .where('id', '=', messageId)
      .executeTakeFirst();
    if (!r) throw botError(404, 'bots.messageNotFound');
    return msg(r);
  }

  async updateMessage(
    m: MessageRow,
    patch: Partial<Pick<MessageRow, 'content' | 'content_type' | 'meta_data' | 'feedback'>>,
  ): Promise<MessageRow> {
    const next = { ...m, ...patch, updated_at: Date.now() };
    await this.db
      .updateTable('bots_message')
      .set({ ...patch, updated_at: next.updated_at })
      .where('id', '=', m.id)
      .execute();
    return next;
  }

  async deleteMessages(conversationId: string, ids: string[]) {
    if (ids.length)
      await this.db
        .deleteFrom('bots_message')
        .where('conversation_id', '=', conversationId)
        .where('id', 'in', ids)
        .execute();
  }

  /**
   * A page of messages, newest first or oldest first; `before_id` / `after_id` page from a message
   * (both ways), `chat_id` keeps one chat's.
   */
  async messages(
    conversationId: string,
    opts: {
      order: 'asc' | 'desc';
      before_id?: string;
      after_id?: string;
      chat_id?: string;
      limit: number;
      section_id?: string;
      types?: string[];
    },
  ): Promise<{ items: MessageRow[]; has_more: boolean }> {
    let q = this.db.selectFrom('bots_message').selectAll().where('conversation_id', '=', conversationId);
    if (opts.chat_id) q = q.where('chat_id', '=', opts.chat_id);
    if (opts.section_id) q = q.where('section_id', '=', opts.section_id);
    if (opts.types) q = q.where('type', 'in', opts.types);
    const anchor = async (id: string) => {
      const a = await this.db
        .selectFrom('bots_message')
        .select(['created_at', 'id'])
        .where('conversation_id', '=', conversationId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (!a) throw notFound(`No message ${id} in this conversation.`);
      return { t: Number(a.created_at), id };
    };
    if (opts.before_id) {
      const a = await anchor(opts.before_id);
      q = q.where((eb) =>
        eb.or([eb('created_at', '<', a.t), eb.and([eb('created_at', '=', a.t), eb('id', '<', a.id)])]),
      );
    }
    if (opts.after_id) {
      const a = await anchor(opts.after_id);
      q = q.where((eb) =>
        eb.or([eb('created_at', '>', a.t), eb.and([eb('created_at', '=', a.t), eb('id', '>', a.id)])]),
      );
    }
    // Paging after a message reads forward; otherwise from the chosen end.
    const forward = opts.after_id ? true : opts.before_id ? false : opts.order === 'asc';
    const rows = (
      await q
        .orderBy('created_at', forward ? 'asc' : 'desc')
        .orderBy('id', forward ? 'asc' : 'desc')
        .limit(opts.limit + 1)
        .execute()
    ).map(msg);
    const items = rows.slice(0, opts.limit);
    const ordered = (opts.order === 'asc') === forward ? items : items.reverse();
    return { items: ordered, has_more: rows.length > opts.limit };
  }

  async createChat(
    c: Omit<
      ChatRow,
      | 'input_tokens'
      | 'output_tokens'
      | 'error_code'
      | 'error_msg'
      | 'required_action'
      | 'completed_at'
      | 'failed_at'
      | 'trace'
    >,
  ): Promise<ChatRow> {
    const row: ChatRow = {
      ...c,
      input_tokens: 0,
      output_tokens: 0,
      error_code: null,
      error_msg: null,
      required_action: null,
      completed_at: null,
      failed_at: null,
      trace: null,
    };
    await this.db.insertInto('bots_chat').values(row).execute();
    return row;
  }

  async updateChat(row: ChatRow) {
    const { id, ...rest } = row;
    await this.db.updateTable('bots_chat').set(rest).where('id', '=', id).execute();
  }

  /** A chat's trace (its steps with their times), or null while it runs. */
  async trace(conversationId: string, chatId: string): Promise<ChatSpan[] | null> {
    const r = await this.db
      .selectFrom('bots_chat')
      .select('trace')
      .where('conversation_id', '=', conversationId)
      .where('id', '=', chatId)
      .executeTakeFirst();
    if (!r) throw botError(404, 'bots.chatNotFound');
    return r.trace ? parseStoredJson(r.trace, "the chat's trace", z.array(ChatSpan)) : null;
  }

  async chat(conversationId: string, chatId: string): Promise<ChatRow> {
    const r = await this.db
      .selectFrom('bots_chat')
      .selectAll()
      .where('conversation_id', '=', conversationId)
      .where('id', '=', chatId)
      .executeTakeFirst();
    if (!r) throw botError(404, 'bots.chatNotFound');
    return chat(r);
  }
}
