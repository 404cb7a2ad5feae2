// Long-term memory: a bot skill that gives the model what it remembers about the end user (profile facts
// extracted after each finished chat by a model, in a background job) and a time capsule of events it can
// add to and recall by text and time; memory bases that bots share. Everything is kept per owner (the bot
// or its memory base) and end user. Parts: store.ts (rows), skill.ts (the skill and extraction),
// routes.ts (your memory), bases.ts (memory bases, a resource kind).
import { defineExtension } from '@tessera/sdk/server';
import { registerMemoryBases } from './bases.ts';
import { migrations } from './migrations.ts';
import { registerYourMemoryRoutes } from './routes.ts';
import { registerMemorySkill } from './skill.ts';
import { MemoryStore } from './store.ts';

export default defineExtension({
  id: 'memory',
  register(ctx) {
    ctx.migrations(migrations);
    const store = ctx.resolve(MemoryStore);
    registerMemorySkill(ctx, store);
    registerYourMemoryRoutes(ctx, store);
    registerMemoryBases(ctx, store);
  },
});
