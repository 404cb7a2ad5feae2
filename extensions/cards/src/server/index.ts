// Cards (server half): a card DSL edited in the builder, versioned and published, bound to a plugin API's or a
// workflow's output; a bot's answer that used a bound tool shows the card (its text where the channel cannot show
// cards). Its code past the routes loads with the first use.
import { defineExtension } from '@tessera/sdk/server';
import { ToolOutputViews } from '@tessera/ext-bots/shared';
import { migrations } from './migrations.ts';
import { registerRoutes } from './routes.ts';
import type { Cards } from './service.ts';
import { texts } from './texts.ts';

export default defineExtension({
  id: 'cards',
  register(ctx) {
    ctx.migrations(migrations);
    texts.register(ctx);
    let cards: Promise<Cards> | undefined;
    const load = () => (cards ??= import('./service.ts').then(({ Cards }) => ctx.resolve(Cards)));
    ctx.register(ToolOutputViews, { key: 'cards', view: async (t) => (await load()).view(t) });
    registerRoutes(ctx, load);
  },
});
