// The memory extension's calls: your memory (what a bot or a memory base remembers about the caller: facts and
// events, /api/memory/long_term/...) and memory bases with the keys they keep (Coze's /api/long_term_memory/...).
// One contract for the routes, the pages and /openapi.json. Times are Unix seconds (facts: milliseconds).
import { defineEndpoint, imageRef } from '@tessera/sdk';
import { z } from 'zod';

const Id = z.string().min(1).max(32);
const Name = z.string().trim().min(1, 'Give the memory base a name.').max(100);
const Done = z.object({});
export const MAX_METAS = 50;

/** One key a memory base keeps about users (what extraction looks for). */
export const Meta = z.object({
  key: z
    .string()
    .regex(
      /^[a-z][a-z0-9_]{0,63}$/,
      'A key uses lower-case letters, digits and _ (starting with a letter), at most 64.',
    ),
  description: z.string().max(300).default(''),
});
export type MemoryMeta = z.output<typeof Meta>;

const Owner = z.object({
  space_id: z.string().min(1),
  bot_id: Id.optional(),
  memorybase_id: Id.optional(),
});
export type MemoryOwner = z.output<typeof Owner>;
/** Exactly one of bot_id and memorybase_id. */
const ofOwner = <T extends z.ZodRawShape>(shape: T) =>
  Owner.extend(shape).refine((b: { bot_id?: string; memorybase_id?: string }) => !!b.bot_id !== !!b.memorybase_id, {
    message: 'Give bot_id (a bot) or memorybase_id (a memory base).',
    path: ['bot_id'],
  });

export const FactView = z.object({ id: z.string(), key: z.string(), value: z.string(), updated_at: z.number() });
export type FactView = z.output<typeof FactView>;
export const EventView = z.object({ id: z.string(), content: z.string(), time: z.string() });
export type EventView = z.output<typeof EventView>;

// ---- your memory

export const ListFacts = defineEndpoint({
  method: 'POST',
  path: '/api/memory/long_term/profile/list',
  summary: 'What the bot (or memory base) remembers about you',
  body: ofOwner({}),
  response: z.object({ facts: z.array(FactView) }),
});

export const UpdateFact = defineEndpoint({
  method: 'POST',
  path: '/api/memory/long_term/profile/update',
  summary: 'Set or correct a fact remembered about you',
  body: ofOwner({
    key: z.string().regex(/^[a-z0-9_]{1,64}$/, 'A key uses lower-case letters, digits and _.'),
    value: z.string().min(1).max(1000),
  }),
  response: Done,
});

export const DeleteFacts = defineEndpoint({
  method: 'POST',
  path: '/api/memory/long_term/profile/delete',
  summary: 'Forget facts remembered about you (the given keys, or all)',
  body: ofOwner({ keys: z.array(z.string().max(64)).max(100).optional() }),
  response: Done,
});

export const ListEvents = defineEndpoint({
  method: 'POST',
  path: '/api/memory/long_term/events/list',
  summary: 'Events noted for you: search by words and time range (ms), pages by offset',
  body: ofOwner({
    query: z.string().max(200).optional(),
    from: z.number().int().optional(),
    to: z.number().int().optional(),
    limit: z.number().int().min(1).max(100).default(50),
    offset: z.number().int().min(0).max(100_000).default(0),
  }),
  response: z.object({ events: z.array(EventView) }),
});

export const CreateEvent = defineEndpoint({
  method: 'POST',
  path: '/api/memory/long_term/events/create',
  summary: 'Note an event for you (content and time)',
  body: ofOwner({ content: z.string().min(1).max(2000), time: z.string().max(40).optional() }),
  response: EventView,
});

export const UpdateEvent = defineEndpoint({
  method: 'POST',
  path: '/api/memory/long_term/events/update',
  summary: 'Correct an event noted for you (its words or its time)',
  body: ofOwner({
    id: Id,
    content: z.string().min(1).max(2000).optional(),
    time: z.string().max(40).optional(),
  }),
  response: Done,
});

export const DeleteEvents = defineEndpoint({
  method: 'POST',
  path: '/api/memory/long_term/events/delete',
  summary: 'Forget events noted for you (the given ids, or all)',
  body: ofOwner({ ids: z.array(z.string().max(32)).max(100).optional() }),
  response: Done,
});

// ---- memory bases

const BASE = '/api/long_term_memory';
const OneBase = z.object({ space_id: Id, memorybase_id: Id });

export const MemoryBaseView = z.object({
  memorybase_id: z.string(),
  space_id: z.string(),
  name: z.string(),
  description: z.string(),
  icon_uri: z.string(),
  creator_id: z.string(),
  metas: z.array(z.object({ key: z.string(), description: z.string() })),
  create_time: z.number(),
  update_time: z.number(),
});
export type MemoryBaseView = z.output<typeof MemoryBaseView>;
const Metas = z.object({ metas: z.array(z.object({ key: z.string(), description: z.string() })) });

export const CreateMemoryBase = defineEndpoint({
  method: 'POST',
  path: `${BASE}/memorybase/create`,
  summary: 'Create a memory base (name unique in the space; the keys it keeps about users)',
  body: z.object({
    space_id: Id,
    name: Name,
    description: z.string().max(2000).default(''),
    icon_uri: imageRef().default(''),
    metas: z.array(Meta).default([]),
  }),
  response: z.object({ memorybase_id: z.string() }),
});

export const UpdateMemoryBase = defineEndpoint({
  method: 'POST',
  path: `${BASE}/memorybase/update`,
  summary: "Change a memory base's name, description or icon",
  body: OneBase.extend({
    name: Name.optional(),
    description: z.string().max(2000).optional(),
    icon_uri: imageRef().optional(),
  }),
  response: Done,
});

export const DeleteMemoryBase = defineEndpoint({
  method: 'POST',
  path: `${BASE}/memorybase/delete`,
  summary: 'Delete a memory base into the recycle bin (refused while bots use it)',
  body: OneBase,
  response: Done,
});

export const ListMemoryBases = defineEndpoint({
  method: 'POST',
  path: `${BASE}/memorybase/list`,
  summary: "The space's memory bases, by name",
  body: z.object({ space_id: Id, name: z.string().max(100).optional() }),
  response: z.object({ memorybases: z.array(MemoryBaseView) }),
});

export const GetMemoryBase = defineEndpoint({
  method: 'POST',
  path: `${BASE}/memorybase/get`,
  summary: 'A memory base with its keys and the bots that use it',
  body: OneBase,
  response: z.object({
    memorybase: MemoryBaseView,
    used_by: z.array(z.object({ kind: z.string(), id: z.string(), name: z.string(), space_id: z.string() })),
  }),
});
export type MemoryBaseDetail = z.output<typeof GetMemoryBase.response>;

export const ListMetas = defineEndpoint({
  method: 'POST',
  path: `${BASE}/get_memory_meta_list`,
  summary: 'The keys a memory base keeps about users',
  body: OneBase,
  response: Metas,
});

export const UpdateMetas = defineEndpoint({
  method: 'POST',
  path: `${BASE}/update_memory_meta`,
  summary: 'Add or change keys of a memory base (by key)',
  body: OneBase.extend({ metas: z.array(Meta).min(1).max(MAX_METAS) }),
  response: Metas,
});

export const DeleteMetas = defineEndpoint({
  method: 'POST',
  path: `${BASE}/delete_memory_meta`,
  summary: 'Remove keys of a memory base (facts already kept under them stay until users forget them)',
  body: OneBase.extend({ keys: z.array(z.string().max(64)).min(1).max(MAX_METAS) }),
  response: Metas,
});

export const MetaUsers = defineEndpoint({
  method: 'POST',
  path: `${BASE}/get_memory_meta_user_list`,
  summary: 'How many end users the memory base remembers something of, and how many facts per key (never the values)',
  body: OneBase,
  response: z.object({
    user_count: z.number(),
    keys: z.array(z.object({ key: z.string(), user_count: z.number() })),
  }),
});
