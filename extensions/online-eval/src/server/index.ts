// Online evaluation (server half): observation tasks (routes.ts) over their store (store.ts); the sampler
// (sampler.ts) watches the spans observability takes and queues a sample of those a task's rule (rule.ts) matches;
// the scorer (scorer.ts) scores them with the task's evaluators, as the spans' annotations.
import { defineExtension } from '@tessera/sdk/server';
import { SpansArrived } from '@tessera/ext-observability/shared';
import { migrations } from './migrations.ts';
import { registerRoutes } from './routes.ts';
import { Sampler } from './sampler.ts';
import { Scorer } from './scorer.ts';
import { TaskStore } from './store.ts';

const scorers = new WeakMap<object, Scorer>();

export default defineExtension({
  id: 'online-eval',
  register(ctx) {
    ctx.migrations(migrations);
    const store = ctx.resolve(TaskStore);
    const scorer = ctx.resolve(Scorer);
    scorer.register();
    scorers.set(ctx, scorer);
    const sampler = new Sampler(ctx, store, scorer.kick);
    ctx.on(SpansArrived, (e) => sampler.take(e.space_id, e.spans));
    registerRoutes(ctx, store, sampler, scorer);
  },
  async start(ctx) {
    // With several processes an item being scored may be live elsewhere: those are left alone.
    if (ctx.host.distributed) return;
    const n = await scorers.get(ctx)?.resume();
    if (n) ctx.logger.info(`online-eval: scoring again what ${n} task(s) had queued before the last stop`);
  },
});
