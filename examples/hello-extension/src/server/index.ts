import { defineExtension } from '@tessera/sdk/server';
import { z } from 'zod';

export default defineExtension({
  id: 'hello',
  configSchema: z.object({ greeting: z.string().default('Hello') }),
  register(ctx) {
    ctx.migrations([
      {
        name: '0001_greetings',
        up: (db) =>
          db.schema
            .createTable('hello_greeting')
            .addColumn('name', 'varchar(100)', (c) => c.primaryKey())
            .addColumn('count', 'integer', (c) => c.notNull())
            .execute(),
      },
    ]);
    ctx.route({
      method: 'GET',
      path: '/api/hello/greeting',
      auth: 'anonymous',
      summary: 'A greeting and how often it was given',
      query: z.object({ name: z.string().min(1).max(100).default('world') }),
      handler: async ({ query }) => {
        const row = await ctx.db
          .selectFrom('hello_greeting')
          .select('count')
          .where('name', '=', query.name)
          .executeTakeFirst();
        return { text: `${ctx.config.greeting}, ${query.name}!`, count: Number(row?.count ?? 0) };
      },
    });
    ctx.route({
      method: 'POST',
      path: '/api/hello/greet',
      auth: 'anonymous',
      body: z.object({ name: z.string().min(1).max(100) }),
      handler: async ({ body }) => {
        const row = await ctx.db
          .selectFrom('hello_greeting')
          .select('count')
          .where('name', '=', body.name)
          .executeTakeFirst();
        if (row)
          await ctx.db
            .updateTable('hello_greeting')
            .set({ count: Number(row.count) + 1 })
            .where('name', '=', body.name)
            .execute();
        else await ctx.db.insertInto('hello_greeting').values({ name: body.name, count: 1 }).execute();
        return { count: Number(row?.count ?? 0) + 1 };
      },
    });
  },
});
