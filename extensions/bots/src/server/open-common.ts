// What the bots' open API routes share: Coze's not found (4200), its message shape, and where a call's bot or
// conversation lives (the space its token must reach).
import { ApiError, ErrorCode, OpenApiCode, badRequest } from '@tessera/sdk';
import type { Caller } from '@tessera/sdk/server';
import { z } from 'zod';
import type { ConversationRow } from './conversations.ts';
import type { BotDeps } from './publishing.ts';

/** Not found as the open API says it (4200). */
export const missing = (msg: string) =>
  new ApiError(404, ErrorCode.NOT_FOUND, msg, '', { openCode: OpenApiCode.NOT_FOUND });
export const as4200 = (e: unknown): never => {
  if (ApiError.is(e) && e.status === 404) throw missing(e.msg);
  throw e;
};
export const secs = (iso: string | null) => (iso ? Math.floor(Date.parse(iso) / 1000) : 0);

/** Coze's meta_data: at most 16 pairs of short texts. */
export const MetaData = z
  .record(z.string().max(64), z.string().max(512))
  .refine((m) => Object.keys(m).length <= 16, 'meta_data has at most 16 keys.');
export const Message = z.object({
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
export const textOf = (m: z.infer<typeof Message>): string => {
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

/** How the open API's routes find a call's space, and the caller's own conversations. */
export function openAccess(deps: BotDeps) {
  const { bots, conversations } = deps;
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
  return { botSpace, convSpace, byBody, byQueryBot, byConvQuery, byConvBody, sessionOf, own };
}
