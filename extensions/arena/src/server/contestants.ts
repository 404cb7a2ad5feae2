// Who fights in an arena, and how each answers: a chat model (streamed, given the battle's earlier questions and its
// own answers), or a bot of the space published to the API (through its channel, in a conversation of the battle's
// own, so it keeps the earlier questions itself). Bots are named `bot:<id>` among the contestants.
import type { ServerContext } from '@tessera/sdk/server';
import { ModelsService } from '@tessera/ext-models/shared';
import { BotChatsService, BotsService, Connectors } from '@tessera/ext-bots/shared';

export interface Contestant {
  id: string;
  name: string;
  kind: 'model' | 'bot';
}
export type Pool = 'space' | 'public';
export type Kind = 'model' | 'bot';
const BOT = 'bot:';
export const kindOf = (id: string): Kind => (id.startsWith(BOT) ? 'bot' : 'model');

/** The contestants of an arena: the space's enabled chat models (the platform's only, in public), or its bots. */
export async function contestants(ctx: ServerContext, spaceId: string, pool: Pool, kind: Kind): Promise<Contestant[]> {
  if (kind === 'model')
    return (await ctx.service(ModelsService).list(spaceId, 'chat'))
      .filter((m) => m.enabled && (pool === 'space' || m.scope === 'platform'))
      .map((m) => ({ id: m.model_id, name: m.display_name || m.model_name, kind }));
  if (pool === 'public') return [];
  const bots = ctx.optionalService(BotsService);
  if (!bots) return [];
  const out: Contestant[] = [];
  for (const b of await bots.list(spaceId)) {
    const p = await bots.publication(b.bot_id);
    if (p?.connectors.includes(Connectors.API)) out.push({ id: `${BOT}${b.bot_id}`, name: b.name, kind });
  }
  return out;
}

export interface Said {
  question: string;
  answer: string;
}
export interface Speaking {
  spaceId: string;
  userId: string;
  /** The battle and side: a bot's conversation is the battle's own. */
  battleId: string;
  side: 'a' | 'b';
  /** The bot's conversation so far ('' for a new one). */
  conversationId: string;
  earlier: Said[];
  question: string;
  signal: AbortSignal;
  onDelta(text: string): void;
}

/** A contestant answers; resolves with the conversation a bot spoke in (kept for the next question). */
export async function speak(ctx: ServerContext, id: string, s: Speaking): Promise<{ conversationId: string }> {
  return kindOf(id) === 'bot' ? botSpeaks(ctx, id.slice(BOT.length), s) : modelSpeaks(ctx, id, s);
}

async function modelSpeaks(ctx: ServerContext, modelId: string, s: Speaking): Promise<{ conversationId: string }> {
  const models = ctx.service(ModelsService);
  const model = await models.get(s.spaceId, modelId);
  const { streamText } = await import('ai');
  let failure: unknown;
  const result = streamText({
    model: await model.chat(),
    messages: [
      ...s.earlier.flatMap((t) => [
        { role: 'user' as const, content: t.question },
        { role: 'assistant' as const, content: t.answer },
      ]),
      { role: 'user', content: s.question },
    ],
    temperature: model.default_params.temperature,
    maxOutputTokens: model.default_params.max_tokens,
    abortSignal: s.signal,
    maxRetries: 0,
    onError: ({ error }) => void (failure ??= error),
  });
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') s.onDelta(part.text);
    else if (part.type === 'error') failure ??= part.error;
  }
  if (failure && !s.signal.aborted) throw failure;
  if (!s.signal.aborted) {
    const u = await result.totalUsage;
    await models
      .recordUsage({
        space_id: s.spaceId,
        model_id: modelId,
        input_tokens: u.inputTokens ?? 0,
        output_tokens: u.outputTokens ?? 0,
        source: 'arena',
      })
      .catch(() => undefined);
  }
  return { conversationId: '' };
}

async function botSpeaks(ctx: ServerContext, botId: string, s: Speaking): Promise<{ conversationId: string }> {
  const chats = ctx.optionalService(BotChatsService);
  if (!chats) throw new Error('bots are off in this studio');
  const { chat_id, conversation_id } = await chats.startPublished({
    botId,
    userId: s.userId,
    endUserId: `arena:${s.battleId}:${s.side}`,
    message: s.question,
    conversationId: s.conversationId || undefined,
    logId: ctx.host.newId(),
  });
  let failed: string | undefined;
  await chats.stream(
    chat_id,
    {
      send: (event, data) => {
        const d = data as { type?: string; content?: string; last_error?: { msg?: string } };
        if (event === 'conversation.message.delta' && d.type === 'answer' && d.content) s.onDelta(d.content);
        if (event === 'conversation.chat.failed') failed = d.last_error?.msg || 'the chat failed';
      },
      close: () => undefined,
      closed: false,
    },
    s.signal,
  );
  if (failed && !s.signal.aborted) throw new Error(failed);
  return { conversationId: conversation_id };
}
