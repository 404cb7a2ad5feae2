// Where a space stands with bots (the home page's getting-started steps read it): how many bots it has, whether
// anyone has talked to one, whether one is published.
import type { ServerContext } from '@tessera/sdk/server';
import { SpaceProgress } from '../shared/api.ts';

export function registerProgressRoute(ctx: ServerContext<unknown>) {
  ctx.route({
    ...SpaceProgress,
    auth: { space: { from: 'body', field: 'space_id' } },
    handler: async ({ body }) => {
      const live = ctx.db.selectFrom('bots_meta').where('space_id', '=', body.space_id).where('deleted_at', 'is', null);
      const [count, published, chat] = await Promise.all([
        live.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
        live.select('id').where('latest_version', 'is not', null).limit(1).executeTakeFirst(),
        ctx.db
          .selectFrom('bots_chat')
          .select('id')
          .where('space_id', '=', body.space_id)
          .where('status', '=', 'completed')
          .limit(1)
          .executeTakeFirst(),
      ]);
      return { bot_count: Number(count?.n ?? 0), chatted: !!chat, published: !!published };
    },
  });
}
