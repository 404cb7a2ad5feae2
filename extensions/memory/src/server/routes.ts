// Your memory: what a bot (or a memory base) remembers about the caller, listed, corrected and forgotten
// (/api/memory/long_term/profile/... and events/...). Only the caller's own rows are ever read or changed.
import { badRequest, notFound } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { BotsService } from '@tessera/ext-bots/shared';
import { z } from 'zod';
import { MAX_FACTS, type MemoryStore } from './store.ts';

const Owner = z.object({
  space_id: z.string().min(1),
  bot_id: z.string().min(1).max(32).optional(),
  memorybase_id: z.string().min(1).max(32).optional(),
});
/** Exactly one of bot_id and memorybase_id. */
const oneOwner = <T extends z.ZodObject<any>>(s: T) =>
  s.refine((b) => !!b.bot_id !== !!b.memorybase_id, {
    message: 'Give bot_id (a bot) or memorybase_id (a memory base).',
    path: ['bot_id'],
  });
const Whose = oneOwner(Owner);
type Whose = z.infer<typeof Owner>;
const extend = <T extends z.ZodRawShape>(shape: T) => oneOwner(Owner.extend(shape));

export function registerYourMemoryRoutes(ctx: ServerContext<unknown>, store: MemoryStore) {
  const inSpace = { space: { from: 'body' as const, field: 'space_id' } };
  /** The owner whose rows the call reads: the memory base, or the bot's (its draft's memory base, else itself). */
  const ownerOf = async (b: Whose): Promise<string> => {
    if (b.memorybase_id) {
      if (!(await store.base(b.memorybase_id, b.space_id)))
        throw notFound(`There is no memory base ${b.memorybase_id} in this space.`);
      return b.memorybase_id;
    }
    const bot = await ctx.service(BotsService).get(b.bot_id!);
    if (!bot || bot.space_id !== b.space_id) throw notFound(`There is no bot ${b.bot_id} in this space.`);
    return (await store.ownerOf(bot.bot_id, await store.settingsOf(bot.bot_id, 'draft'), b.space_id)).owner;
  };
  const eventTime = async <T>(fn: () => Promise<T>) => {
    try {
      return await fn();
    } catch (e) {
      throw badRequest((e as Error).message, { field: 'time' });
    }
  };

  ctx.route({
    method: 'POST',
    path: '/api/memory/long_term/profile/list',
    auth: inSpace,
    summary: 'What the bot (or memory base) remembers about you',
    body: Whose,
    handler: async ({ body, caller }) => ({ facts: await store.facts(await ownerOf(body), caller!.userId) }),
  });
  ctx.route({
    method: 'POST',
    path: '/api/memory/long_term/profile/update',
    auth: inSpace,
    summary: 'Set or correct a fact remembered about you',
    body: extend({
      key: z.string().regex(/^[a-z0-9_]{1,64}$/, 'A key uses lower-case letters, digits and _.'),
      value: z.string().min(1).max(1000),
    }),
    handler: async ({ body, caller }) => {
      const owner = await ownerOf(body);
      const known = await store.facts(owner, caller!.userId);
      if (!known.some((f) => f.key === body.key) && known.length >= MAX_FACTS)
        throw badRequest(`At most ${MAX_FACTS} facts are kept about a user.`);
      await store.upsert(owner, caller!.userId, body.key, body.value);
      return {};
    },
  });
  ctx.route({
    method: 'POST',
    path: '/api/memory/long_term/profile/delete',
    auth: inSpace,
    summary: 'Forget facts remembered about you (the given keys, or all)',
    body: extend({ keys: z.array(z.string().max(64)).max(100).optional() }),
    handler: async ({ body, caller }) => (await store.forget(await ownerOf(body), caller!.userId, body.keys), {}),
  });
  ctx.route({
    method: 'POST',
    path: '/api/memory/long_term/events/list',
    auth: inSpace,
    summary: 'Events noted for you: search by words and time range (ms), pages by offset',
    body: extend({
      query: z.string().max(200).optional(),
      from: z.number().int().optional(),
      to: z.number().int().optional(),
      limit: z.number().int().min(1).max(100).default(50),
      offset: z.number().int().min(0).max(100_000).default(0),
    }),
    handler: async ({ body, caller }) => ({
      events: await store.events(await ownerOf(body), caller!.userId, {
        text: body.query,
        from: body.from,
        to: body.to,
        limit: body.limit,
        offset: body.offset,
      }),
    }),
  });
  ctx.route({
    method: 'POST',
    path: '/api/memory/long_term/events/create',
    auth: inSpace,
    summary: 'Note an event for you (content and time)',
    body: extend({ content: z.string().min(1).max(2000), time: z.string().max(40).optional() }),
    handler: async ({ body, caller }) => {
      const owner = await ownerOf(body);
      return eventTime(() => store.addEvent(owner, caller!.userId, body.content, body.time));
    },
  });
  ctx.route({
    method: 'POST',
    path: '/api/memory/long_term/events/update',
    auth: inSpace,
    summary: 'Correct an event noted for you (its words or its time)',
    body: extend({
      id: z.string().min(1).max(32),
      content: z.string().min(1).max(2000).optional(),
      time: z.string().max(40).optional(),
    }),
    handler: async ({ body, caller }) => {
      const owner = await ownerOf(body);
      if (
        !(await eventTime(() =>
          store.updateEvent(owner, caller!.userId, body.id, { content: body.content, time: body.time }),
        ))
      )
        throw notFound(`You have no event ${body.id} here.`);
      return {};
    },
  });
  ctx.route({
    method: 'POST',
    path: '/api/memory/long_term/events/delete',
    auth: inSpace,
    summary: 'Forget events noted for you (the given ids, or all)',
    body: extend({ ids: z.array(z.string().max(32)).max(100).optional() }),
    handler: async ({ body, caller }) => (await store.forgetEvents(await ownerOf(body), caller!.userId, body.ids), {}),
  });
}
