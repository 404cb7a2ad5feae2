import { badRequest } from '@tessera/sdk';
import { defineExtension } from '@tessera/sdk/server';
import { z } from 'zod';
import { VariablesService, type VariableKey, type Variables } from '../shared/index.ts';

const Name = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'Use letters, digits and _ (not starting with a digit), at most 64.');
const MAX_VALUE = 64 * 1024;

export default defineExtension({
  id: 'variables',
  register(ctx) {
    ctx.migrations([
      {
        name: '0001_variables',
        up: async (db) => {
          await db.schema
            .createTable('variables_value')
            .addColumn('scope', 'varchar(8)', (c) => c.notNull())
            .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('name', 'varchar(64)', (c) => c.notNull())
            .addColumn('value', 'text', (c) => c.notNull())
            .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
            .addPrimaryKeyConstraint('variables_value_pk', ['scope', 'space_id', 'user_id', 'name'])
            .execute();
        },
      },
    ]);
    // App variables are stored with an empty user id.
    const owner = (k: VariableKey) => (k.scope === 'user' ? (k.userId ?? '') : '');
    const store: Variables = {
      async all(k) {
        const rows = await ctx.db
          .selectFrom('variables_value')
          .select(['name', 'value'])
          .where('scope', '=', k.scope)
          .where('space_id', '=', k.spaceId)
          .where('user_id', '=', owner(k))
          .execute();
        return Object.fromEntries(rows.map((r) => [r.name as string, JSON.parse(r.value as string)]));
      },
      async set(k, name, value) {
        if (k.scope === 'user' && !k.userId) throw new Error('A user variable needs the user.');
        const text = JSON.stringify(value ?? null);
        if (text.length > MAX_VALUE) throw new Error(`The value of '${name}' is larger than ${MAX_VALUE / 1024} KB.`);
        const row = {
          scope: k.scope,
          space_id: k.spaceId,
          user_id: owner(k),
          name,
          value: text,
          updated_at: new Date().toISOString(),
        };
        await ctx.db
          .insertInto('variables_value')
          .values(row)
          .onConflict((oc) =>
            oc
              .columns(['scope', 'space_id', 'user_id', 'name'])
              .doUpdateSet({ value: text, updated_at: row.updated_at }),
          )
          .execute();
      },
      async remove(k, name) {
        await ctx.db
          .deleteFrom('variables_value')
          .where('scope', '=', k.scope)
          .where('space_id', '=', k.spaceId)
          .where('user_id', '=', owner(k))
          .where('name', '=', name)
          .execute();
      },
    };
    ctx.provide(VariablesService, store);

    const Scope = z.enum(['app', 'user']);
    const key = (scope: 'app' | 'user', spaceId: string, userId: string): VariableKey => ({ scope, spaceId, userId });
    ctx.route({
      method: 'POST',
      path: '/api/variables/list',
      auth: { space: { from: 'body', field: 'space_id' } },
      summary: "The space's app variables, or the caller's user variables",
      body: z.object({ space_id: z.string().min(1), scope: Scope }),
      handler: async ({ body, caller }) => ({
        variables: Object.entries(await store.all(key(body.scope, body.space_id, caller!.userId))).map(
          ([name, value]) => ({ name, value }),
        ),
      }),
    });
    ctx.route({
      method: 'POST',
      path: '/api/variables/set',
      auth: { space: { from: 'body', field: 'space_id' } },
      summary: 'Set an app variable, or one of your user variables',
      body: z.object({ space_id: z.string().min(1), scope: Scope, name: Name, value: z.unknown() }),
      handler: async ({ body, caller }) => {
        try {
          await store.set(key(body.scope, body.space_id, caller!.userId), body.name, body.value);
        } catch (e) {
          throw badRequest((e as Error).message);
        }
        return null;
      },
    });
    ctx.route({
      method: 'POST',
      path: '/api/variables/delete',
      auth: { space: { from: 'body', field: 'space_id' } },
      summary: 'Delete an app variable, or one of your user variables',
      body: z.object({ space_id: z.string().min(1), scope: Scope, name: Name }),
      handler: async ({ body, caller }) => {
        await store.remove(key(body.scope, body.space_id, caller!.userId), body.name);
        return null;
      },
    });
  },
});
