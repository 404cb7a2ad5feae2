import { SpansRecorded, genAiEvents, type StudioSpan } from '@tessera/sdk';
import { ErrorTexts, localizedMessage, type ServerContext, ServerContextToken } from '@tessera/sdk/server';
import { ModelsService } from '@tessera/ext-models/shared';
import {
  BotModes,
  BotSkills,
  ChatFinished,
  ToolOutputViews,
  type BotConfig,
  type BotTool,
  type SkillContribution,
  type ToolSource,
  type TurnMessage,
  type TurnResult,
} from '../shared/index.ts';
import {
  chatView,
  messageView,
  type ChatRow,
  type ConversationRow,
  ConversationStore,
  type MessageRow,
} from './conversations.ts';
import type { BotRow } from './store.ts';
import type { ChatSpan } from '../shared/api.ts';

/** Coze's chat error codes as its chat API reports them in last_error and error events. */
export const ChatErrorCode = { Failed: 4000, NotPublished: 4200, Cancelled: 4004, Internal: 5000 } as const;

export type ChatEvent = { event: string; data: unknown };

/** One step of a chat's trace: ms from the chat's start. */
export type { ChatSpan } from '../shared/api.ts';

export interface StartChat {
  bot: BotRow;
  config: BotConfig;
  /** The published version answering, or null for the draft. */
  version: string | null;
  conversation: ConversationRow;
  userId: string;
  endUserId: string;
  connectorId: string;
  /** Messages sent with the turn; the last user message is the query. */
  messages: { role: 'user' | 'assistant'; content: string; type?: string; meta_data?: Record<string, string> }[];
  customVariables: Record<string, string>;
  /** Keep the turn's messages in the conversation (the open API may ask not to). */
  save: boolean;
  logId: string;
  /** The caller's language (Accept-Language): a failed chat's message is kept in it. */
  language?: string;
  /** The caller's meta_data for the chat, given back on the chat object. */
  metaData?: Record<string, string>;
}

interface LiveChat {
  row: ChatRow;
  controller: AbortController;
  listeners: Set<(e: ChatEvent) => void>;
  /** Events so far (a subscriber that comes late gets them first). */
  backlog: ChatEvent[];
  done: Promise<ChatRow>;
}

const HISTORY_MESSAGES = 40;
const DEFAULT_SUGGEST_PROMPT =
  'Suggest three short questions the user could ask next in this conversation, in the language of the conversation, one per line, without numbering.';
const TOOL_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/** Runs chat turns: records them, streams their events in Coze's shape, cancels them. */
export class ChatService {
  static readonly inject = [ServerContextToken, ConversationStore] as const;
  #ctx: ServerContext<unknown>;
  #store: ConversationStore;
  #live = new Map<string, LiveChat>();

  constructor(ctx: ServerContext<unknown>, store: ConversationStore) {
    this.#ctx = ctx;
    this.#store = store;
  }

  /** Subscribes to a live chat's events (from the first one); returns the unsubscribe, or undefined when it is not live. */
  subscribe(chatId: string, fn: (e: ChatEvent) => void): (() => void) | undefined {
    const live = this.#live.get(chatId);
    if (!live) return undefined;
    for (const e of live.backlog) fn(e);
    live.listeners.add(fn);
    return () => live.listeners.delete(fn);
  }

  /** Cancels a live chat (its model request is aborted); false when it is not running here. */
  cancel(chatId: string): boolean {
    const live = this.#live.get(chatId);
    if (!live) return false;
    live.controller.abort();
    return true;
  }

  /** Waits for a live chat to end. */
  async settled(chatId: string): Promise<void> {
    await this.#live.get(chatId)?.done.catch(() => undefined);
  }

  /** Starts a turn: returns once the chat is recorded; its events follow (subscribe at once). */
  async start(s: StartChat): Promise<ChatRow> {
    const mode = this.#ctx.registry(BotModes).get(s.config.mode);
    const query = [...s.messages].reverse().find((m) => m.role === 'user');
    const row = await this.#store.createChat({
      id: this.#store.newId(),
      conversation_id: s.conversation.id,
      section_id: s.conversation.section_id,
      bot_id: s.bot.id,
      space_id: s.bot.space_id,
      user_id: s.userId,
      version: s.version,
      status: 'created',
      log_id: s.logId,
      meta_data: JSON.stringify(s.metaData ?? {}),
      created_at: Date.now(),
    });
    const live: LiveChat = {
      row,
      controller: new AbortController(),
      listeners: new Set(),
      backlog: [],
      done: undefined as unknown as Promise<ChatRow>,
    };
    this.#live.set(row.id, live);
    live.done = this.#run(s, live, mode, query?.content ?? '').finally(() => this.#live.delete(row.id));
    return row;
  }

  async #run(s: StartChat, live: LiveChat, mode: ReturnType<typeof this.mode>, query: string): Promise<ChatRow> {
    const row = live.row;
    const began = Date.now();
    const emit = (event: string, data: unknown) => {
      const e = { event, data };
      live.backlog.push(e);
      for (const fn of live.listeners) fn(e);
    };
    const chatEvent = (event: string) => emit(event, chatView(row));
    // The trace: when the skills were asked, each tool call, the answer's first and last token.
    const spans: ChatSpan[] = [];
    const at = () => Date.now() - began;
    const openTools = new Map<string, ChatSpan>();
    let answerSpan: ChatSpan | undefined;
    let answer = '';
    const base = {
      conversation_id: row.conversation_id,
      section_id: row.section_id,
      chat_id: row.id,
      bot_id: s.bot.id,
    };
    // The turn's messages keep their order in the history (a message never shares a moment with the one before).
    let lastAt = 0;
    const save = async (input: Parameters<ConversationStore['addMessage']>[0]) => {
      lastAt = Math.max(Date.now(), lastAt + 1);
      const m = { ...input, created_at: lastAt };
      // Not saved (the open API's auto_save_history: false): the same message, streamed only.
      return s.save
        ? this.#store.addMessage(m)
        : ({
            content_type: 'text',
            reasoning_content: '',
            meta_data: '{}',
            ...m,
            id: m.id ?? this.#store.newId(),
            feedback: null,
            updated_at: lastAt,
          } as MessageRow);
    };
    try {
      // What came with the turn is part of the conversation (the query included).
      const history = await this.#history(s.conversation, row.id);
      const earlier = s.messages.slice(0, s.messages.lastIndexOf(s.messages.findLast((m) => m.role === 'user')!));
      for (const m of s.messages)
        await save({
          ...base,
          role: m.role,
          type: m.type ?? (m.role === 'user' ? 'question' : 'answer'),
          content: m.content,
          meta_data: JSON.stringify(m.meta_data ?? {}),
        });
      chatEvent('conversation.chat.created');
      row.status = 'in_progress';
      chatEvent('conversation.chat.in_progress');
      if (!mode)
        throw Object.assign(new Error(`The mode "${s.config.mode}" is not available: its extension is disabled.`), {
          code: ChatErrorCode.Failed,
          text: { key: 'bots.modeMissing', params: { mode: s.config.mode } },
        });
      if (!query.trim())
        throw Object.assign(new Error('Write a message first.'), {
          code: ChatErrorCode.Failed,
          text: { key: 'bots.emptyMessage' },
        });

      const answerId = this.#store.newId();
      const answerAt = Date.now();
      let reasoning = '';
      // What the mode says of its answer (who answered, in a mode with several agents): the answer's meta_data.
      const answerMeta: Record<string, string> = {};
      const answerView = (content: string) =>
        messageView({
          ...base,
          id: answerId,
          role: 'assistant',
          type: 'answer',
          content,
          content_type: 'text',
          reasoning_content: '',
          meta_data: JSON.stringify(answerMeta),
          feedback: null,
          created_at: answerAt,
          updated_at: Date.now(),
        });
      const pending: Promise<unknown>[] = [];
      // The steps' messages are saved at once but told in the order they were made (a save that ends first waits for
      // the ones before it): a handoff before the hook it led to, on every database.
      let told: Promise<unknown> = Promise.resolve();
      const tell = <M>(saved: Promise<M>, then: (m: M) => unknown) => {
        told = Promise.all([saved, told]).then(([m]) => then(m));
        pending.push(told);
      };
      const settings = mode.settings.parse(s.config.settings);
      const toolCall = (call: { id: string; name: string; arguments: unknown }) => {
        const span: ChatSpan = {
          name: call.name,
          kind: 'tool',
          start_ms: at(),
          end_ms: at(),
          status: 'ok',
          attributes: { arguments: call.arguments },
        };
        spans.push(span);
        openTools.set(call.id, span);
        const content = JSON.stringify({ id: call.id, name: call.name, arguments: call.arguments });
        tell(
          save({
            ...base,
            role: 'assistant',
            type: 'function_call',
            content,
            meta_data: JSON.stringify({ tool_call_id: call.id }),
          }),
          (m) => emit('conversation.message.completed', messageView(m)),
        );
      };
      const toolResult = (r: { id: string; name: string; output?: unknown; error?: string }) => {
        const span = openTools.get(r.id);
        if (span) {
          span.end_ms = at();
          if (r.error !== undefined)
            Object.assign(span, { status: 'error', attributes: { ...span.attributes, error: r.error } });
        }
        const content =
          r.error !== undefined
            ? JSON.stringify({ error: r.error })
            : typeof r.output === 'string'
              ? r.output
              : JSON.stringify(r.output ?? null);
        tell(
          save({
            ...base,
            role: 'assistant',
            type: 'tool_response',
            content,
            meta_data: JSON.stringify({
              tool_call_id: r.id,
              name: r.name,
              ...(r.error !== undefined ? { error: 'true' } : {}),
            }),
          }),
          async (m) => {
            emit('conversation.message.completed', messageView(m));
            const source = sources.get(r.name);
            if (source && r.error === undefined) await showOutput(r.name, source, r.output);
          },
        );
      };
      // What shows a tool's output in the answer (a card bound to the plugin API or workflow it ran).
      const sources = new Map<string, ToolSource>();
      const showOutput = async (name: string, source: ToolSource, output: unknown) => {
        for (const v of this.#ctx.registry(ToolOutputViews).list()) {
          const shown = await v
            .view({
              spaceId: s.bot.space_id,
              botId: s.bot.id,
              version: s.version,
              connectorId: s.connectorId,
              tool: { name, source },
              output,
              language: s.language === 'zh-CN' || s.language === 'en-US' ? s.language : undefined,
            })
            .catch((e: unknown) => {
              this.#ctx.logger.warn(`chat ${row.id}: showing the output of ${name} failed: ${describe(e)}`);
              return undefined;
            });
          if (!shown) continue;
          const m = await save({
            ...base,
            role: 'assistant',
            type: 'answer',
            content: shown.content,
            content_type: shown.content_type,
            meta_data: JSON.stringify({ ...shown.meta_data, tool_output: name }),
          });
          emit('conversation.message.completed', messageView(m));
        }
      };
      // What a set of skills contributes to this turn: the bot's own, or one agent's (a mode with several agents).
      const skillsOf = async (skills: Record<string, unknown>) => {
        const span: ChatSpan = { name: 'skills', kind: 'skills', start_ms: at(), end_ms: 0, status: 'ok' };
        spans.push(span);
        const c = await this.#skills(s, skills, query, row.id, live.controller.signal);
        span.end_ms = at();
        for (const t of c.flatMap((x) => x.tools ?? [])) if (t.source) sources.set(t.name, t.source);
        // What skills looked up before the model ran shows among the answer's steps.
        for (const step of c.flatMap((x) => x.steps ?? [])) {
          const id = `skill-${this.#store.newId()}`;
          toolCall({ id, name: step.name, arguments: step.arguments });
          toolResult({ id, name: step.name, output: step.result });
        }
        span.attributes = { tools: c.flatMap((x) => x.tools ?? []).map((t) => t.name) };
        return c;
      };
      const result = await mode.run({
        botId: s.bot.id,
        spaceId: s.bot.space_id,
        userId: s.userId,
        endUserId: s.endUserId,
        connectorId: s.connectorId,
        conversationId: s.conversation.id,
        chatId: row.id,
        version: s.version,
        settings,
        config: s.config,
        query,
        history: [...history, ...earlier.map((m) => ({ role: m.role, content: m.content }))],
        customVariables: s.customVariables,
        skills: () => skillsOf(s.config.skills),
        skillsOf,
        render,
        signal: live.controller.signal,
        recordUsage: async (u) => {
          row.input_tokens += u.input_tokens;
          row.output_tokens += u.output_tokens;
          await this.#ctx.optionalService(ModelsService)?.recordUsage({
            space_id: s.bot.space_id,
            model_id: u.model_id,
            input_tokens: u.input_tokens,
            output_tokens: u.output_tokens,
            source: 'chat',
            conversation_id: s.conversation.id,
          });
        },
        emit: {
          delta: (text) => {
            if (!text) return;
            if (!answerSpan)
              spans.push((answerSpan = { name: 'answer', kind: 'model', start_ms: at(), end_ms: at(), status: 'ok' }));
            answerSpan.end_ms = at();
            answer += text;
            emit('conversation.message.delta', { ...answerView(text) });
          },
          reasoning: (text) => {
            reasoning += text;
            emit('conversation.message.delta', { ...answerView(''), reasoning_content: text });
          },
          toolCall,
          toolResult,
          meta: (values) => Object.assign(answerMeta, values),
        },
        language: s.language === 'zh-CN' || s.language === 'en-US' ? s.language : undefined,
      });
      await Promise.all(pending);
      // A mode that used models through something else (a chat-flow's LLM nodes) reports the tokens itself.
      if (result.usage && row.input_tokens + row.output_tokens === 0) {
        row.input_tokens = result.usage.input_tokens;
        row.output_tokens = result.usage.output_tokens;
      }
      if (result.answer !== undefined && result.answer !== answer) {
        // A mode that answers at once (no deltas): the whole answer is one delta.
        if (!answer) emit('conversation.message.delta', answerView(result.answer));
        answer = result.answer;
      }
      if (live.controller.signal.aborted)
        throw Object.assign(new Error('The chat was cancelled.'), { code: ChatErrorCode.Cancelled });
      const answerRow = await save({
        ...base,
        id: answerId,
        role: 'assistant',
        type: 'answer',
        content: answer,
        reasoning_content: reasoning,
        ...(Object.keys(answerMeta).length ? { meta_data: JSON.stringify(answerMeta) } : {}),
      });
      emit('conversation.message.completed', messageView(answerRow));
      const suggestStart = at();
      const suggestions = await this.#suggestions(
        s,
        mode,
        settings,
        [...history, { role: 'user', content: query }, { role: 'assistant', content: answer }],
        live.controller.signal,
        result.suggest,
      );
      if ((result.suggest?.mode ?? s.config.suggest_reply.mode) !== 'off')
        spans.push({
          name: 'suggested replies',
          kind: 'suggestions',
          start_ms: suggestStart,
          end_ms: at(),
          status: 'ok',
          attributes: { count: suggestions.length },
        });
      for (const text of suggestions) {
        const m = await save({ ...base, role: 'assistant', type: 'follow_up', content: text });
        emit('conversation.message.completed', messageView(m));
      }
      // A verbose message says the answer is complete, as Coze's stream does.
      emit(
        'conversation.message.completed',
        messageView({
          ...base,
          id: this.#store.newId(),
          role: 'assistant',
          type: 'verbose',
          content: JSON.stringify({ msg_type: 'generate_answer_finish', data: '{"finish_reason":0}' }),
          content_type: 'text',
          reasoning_content: '',
          meta_data: '{}',
          feedback: null,
          created_at: Date.now(),
          updated_at: Date.now(),
        }),
      );
      row.status = 'completed';
      row.completed_at = Date.now();
      spans.unshift({
        name: s.bot.name,
        kind: 'turn',
        start_ms: 0,
        end_ms: at(),
        status: 'ok',
        attributes: {
          mode: s.config.mode,
          version: s.version ?? 'draft',
          input_tokens: row.input_tokens,
          output_tokens: row.output_tokens,
        },
      });
      row.trace = JSON.stringify(spans);
      await this.#store.updateChat(row);
      chatEvent('conversation.chat.completed');
    } catch (e) {
      const cancelled = live.controller.signal.aborted;
      row.status = cancelled ? 'canceled' : 'failed';
      row.error_code = cancelled ? ChatErrorCode.Cancelled : ((e as { code?: number }).code ?? ChatErrorCode.Failed);
      row.error_msg = cancelled
        ? 'The chat was cancelled.'
        : localizedMessage(
            {
              msg: describe(e),
              text: (e as { text?: { key: string; params?: Record<string, string | number> } }).text,
            },
            s.language ?? '',
            this.#ctx.registry(ErrorTexts),
          );
      row.failed_at = Date.now();
      spans.unshift({
        name: s.bot.name,
        kind: 'turn',
        start_ms: 0,
        end_ms: at(),
        status: 'error',
        attributes: { mode: s.config.mode, version: s.version ?? 'draft', error: row.error_msg },
      });
      row.trace = JSON.stringify(spans);
      await this.#store.updateChat(row).catch((err) => this.#ctx.report(err));
      if (!cancelled)
        this.#ctx.logger.warn(`chat ${row.id} failed: ${row.error_msg}`, { bot_id: s.bot.id, log_id: s.logId });
      chatEvent(cancelled ? 'conversation.chat.canceled' : 'conversation.chat.failed');
    }
    await this.#store
      .touch(s.conversation.id, s.conversation.name ? undefined : query.slice(0, 60))
      .catch(() => undefined);
    emit('done', '[DONE]');
    this.#ctx.emit(ChatFinished, {
      chat_id: row.id,
      bot_id: s.bot.id,
      space_id: s.bot.space_id,
      conversation_id: row.conversation_id,
      status: row.status,
      input_tokens: row.input_tokens,
      output_tokens: row.output_tokens,
      duration_ms: Date.now() - began,
      user_id: s.userId,
      connector_id: s.connectorId,
      version: s.version,
    });
    // The turn as a trace for whoever keeps them (the chat's id; its conversation is the thread).
    this.#ctx.emit(SpansRecorded, {
      space_id: s.bot.space_id,
      source: 'bot',
      spans: turnSpans(row.id, began, spans, {
        bot_id: s.bot.id,
        conversation_id: row.conversation_id,
        log_id: s.logId,
        connector_id: s.connectorId,
        question: query,
        answer,
        input_tokens: row.input_tokens,
        output_tokens: row.output_tokens,
        error: row.error_msg ?? '',
      }),
    });
    return row;
  }

  mode(key: string) {
    return this.#ctx.registry(BotModes).get(key);
  }

  /** The current section's questions and answers before this chat, oldest first. */
  async #history(c: ConversationRow, chatId: string): Promise<TurnMessage[]> {
    const { items } = await this.#store.messages(c.id, {
      order: 'desc',
      limit: HISTORY_MESSAGES,
      section_id: c.section_id,
      types: ['question', 'answer'],
    });
    return (
      items
        // An answer that showed a tool's output (a card) is not the model's: it saw the output as the tool's result.
        .filter((m) => m.chat_id !== chatId && m.content && !m.meta_data.includes('"tool_output"'))
        .reverse()
        .map((m) => ({ role: m.role, content: m.content }))
    );
  }

  /** What the bot's enabled skills give this turn; a skill that fails is reported and left out. */
  async #skills(
    s: StartChat,
    skills: Record<string, unknown>,
    query: string,
    chatId: string,
    signal: AbortSignal,
  ): Promise<SkillContribution[]> {
    const out: SkillContribution[] = [];
    const names = new Set<string>();
    for (const [key, value] of Object.entries(skills)) {
      const skill = this.#ctx.registry(BotSkills).get(key);
      if (!skill) continue; // its extension is off: its tools are gone, nothing else changes
      const parsed = skill.settings.safeParse(value);
      if (!parsed.success) continue;
      try {
        const c = await skill.contribute({
          botId: s.bot.id,
          spaceId: s.bot.space_id,
          userId: s.userId,
          endUserId: s.endUserId,
          connectorId: s.connectorId,
          conversationId: s.conversation.id,
          chatId,
          version: s.version,
          settings: parsed.data,
          customVariables: s.customVariables,
          query,
          signal,
        });
        const tools = (c.tools ?? []).filter((t: BotTool) => TOOL_NAME.test(t.name) && !names.has(t.name));
        tools.forEach((t) => names.add(t.name));
        out.push({ ...c, tools });
      } catch (e) {
        this.#ctx.report(e);
      }
    }
    return out;
  }

  async #suggestions(
    s: StartChat,
    mode: NonNullable<ReturnType<typeof this.mode>>,
    settings: unknown,
    transcript: TurnMessage[],
    signal: AbortSignal,
    override?: TurnResult['suggest'],
  ): Promise<string[]> {
    const reply = override ?? s.config.suggest_reply;
    if (reply.mode === 'off') return [];
    const modelId = override?.model_id || mode.modelOf?.(settings);
    const models = this.#ctx.optionalService(ModelsService);
    if (!modelId || !models) return [];
    try {
      const { generateText } = await import('ai');
      const model = await models.get(s.bot.space_id, modelId);
      const prompt = reply.mode === 'custom' && reply.prompt?.trim() ? reply.prompt : DEFAULT_SUGGEST_PROMPT;
      const r = await generateText({
        model: await model.chat(),
        system: prompt,
        messages: [...transcript.slice(-6), { role: 'user', content: 'Suggest what I could ask next.' }],
        abortSignal: signal,
        maxRetries: 0,
        maxOutputTokens: 200,
      });
      await models.recordUsage({
        space_id: s.bot.space_id,
        model_id: modelId,
        input_tokens: r.usage.inputTokens ?? 0,
        output_tokens: r.usage.outputTokens ?? 0,
        source: 'chat',
        conversation_id: s.conversation.id,
      });
      return r.text
        .split('\n')
        .map((l) => l.replace(/^\s*(?:[-*•]|\d+[.)])\s*/, '').trim())
        .filter(Boolean)
        .slice(0, 3);
    } catch (e) {
      if (!signal.aborted) this.#ctx.logger.warn(`suggested replies failed: ${describe(e)}`, { bot_id: s.bot.id });
      return [];
    }
  }
}

/** `{{name}}` (and `{{ name }}`) from the values; unknown names render empty. */
export function render(template: string, values: Record<string, unknown>): string {
  return template.replace(/\{\{\s*([\p{L}\p{N}_.-]+)\s*\}\}/gu, (_m, name: string) => {
    const v = values[name];
    if (v === undefined || v === null) return '';
    return typeof v === 'string' ? v : JSON.stringify(v);
  });
}

export function describe(e: unknown): string {
  const err = e as { message?: string; statusCode?: number; cause?: { message?: string } };
  const msg = err?.message ?? String(e);
  return `${err?.statusCode ? `The model answered HTTP ${err.statusCode}: ` : ''}${msg}${err?.cause?.message && !msg.includes(err.cause.message) ? ` (${err.cause.message})` : ''}`;
}

/** A turn's spans (times from its start) as the studio's telemetry: the turn (kind chat) with its question and answer, and what ran in it. */
export function turnSpans(
  chatId: string,
  began: number,
  spans: ChatSpan[],
  t: {
    bot_id: string;
    conversation_id: string;
    log_id: string;
    connector_id: string;
    question: string;
    answer: string;
    input_tokens: number;
    output_tokens: number;
    error: string;
  },
): StudioSpan[] {
  const root = spans.find((x) => x.kind === 'turn');
  const rootId = `${chatId}-0`;
  return spans.map((x, i) => {
    const isRoot = x === root;
    const attributes: Record<string, unknown> = { ...x.attributes };
    if (isRoot)
      Object.assign(attributes, {
        'tessera.bot_id': t.bot_id,
        'gen_ai.conversation.id': t.conversation_id,
        'tessera.log_id': t.log_id,
        'tessera.connector_id': t.connector_id,
        input: t.question,
        output: t.answer,
      });
    // The tokens of the turn on its answer span (what the model wrote), once.
    if (x.kind === 'model' && x.name === 'answer')
      Object.assign(attributes, {
        'gen_ai.usage.input_tokens': t.input_tokens,
        'gen_ai.usage.output_tokens': t.output_tokens,
        'gen_ai.completion': t.answer.slice(0, 16_000),
      });
    delete attributes.input_tokens;
    delete attributes.output_tokens;
    const start = began + x.start_ms;
    const end = began + Math.max(x.start_ms, x.end_ms);
    return {
      trace_id: chatId,
      span_id: isRoot ? rootId : `${chatId}-${i + 1}`,
      parent_span_id: isRoot ? null : rootId,
      name: x.name,
      kind: isRoot ? 'chat' : x.kind === 'model' ? 'llm' : x.kind,
      start_ms: start,
      end_ms: end,
      status: x.status === 'error' ? 'error' : 'ok',
      status_message: isRoot && t.error ? t.error : undefined,
      attributes,
      events: genAiEvents(attributes, start, end),
    };
  });
}
