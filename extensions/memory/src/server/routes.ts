// Your memory: what a bot (or a memory base) remembers about the caller, listed, corrected and forgotten
// (/api/memory/long_term/profile/... and events/...). Only the caller's own rows are ever read or changed.
import { badRequest, notFound, describeError } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { BotsService } from '@tessera/ext-bots/shared';
import {
  CreateEvent,
  DeleteEvents,
  DeleteFacts,
  ListEvents,
  ListFacts,
  UpdateEvent,
  UpdateFact,
  type MemoryOwner,
} from '../shared/api.ts';
import { MAX_FACTS, type MemoryStore } from './store.ts';

export function registerYourMemoryRoutes(ctx: ServerContext<unknown>, store: MemoryStore) {
  const inSpace = { space: { from: 'body' as const, field: 'space_id' } };
  /** The owner whose rows the call reads: the memory base, or the bot's (its draft's memory base, else itself). */
  const ownerOf = async (b: MemoryOwner): Promise<string> => {
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
      throw badRequest(describeError(e), { field: 'time' });
    }
  };

  ctx.route({
    ...ListFacts,
    auth: inSpace,
    handler: async ({ body, caller }) => ({ facts: await store.facts(await ownerOf(body), caller!.userId) }),
  });
  ctx.route({
    ...UpdateFact,
    auth: inSpace,
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
    ...DeleteFacts,
    auth: inSpace,
    handler: async ({ body, caller }) => (await store.forget(await ownerOf(body), caller!.userId, body.keys), {}),
  });
  ctx.route({
    ...ListEvents,
    auth: inSpace,
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
    ...CreateEvent,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const owner = await ownerOf(body);
      return eventTime(() => store.addEvent(owner, caller!.userId, body.content, body.time));
    },
  });
  ctx.route({
    ...UpdateEvent,
    auth: inSpace,
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
    ...DeleteEvents,
    auth: inSpace,
    handler: async ({ body, caller }) => (await store.forgetEvents(await ownerOf(body), caller!.userId, body.ids), {}),
  });
}
