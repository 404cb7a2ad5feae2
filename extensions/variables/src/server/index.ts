import { badRequest, describeError } from '@tessera/sdk';
import { defineExtension } from '@tessera/sdk/server';
import type { Kysely } from 'kysely';
import { DeleteVariable, ListVariables, SetVariable } from '../shared/api.ts';
import { VariablesService, type VariableKey, type Variables } from '../shared/index.ts';

const MAX_VALUE = 64 * 1024;

/** The extension's table: app values have an empty user id. */
interface VariablesDb {
  variables_value: {
    scope: string;
    space_id: string;
    user_id: string;
    name: string;
    value: string;
    updated_at: string;
  };
}

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
    const db = () => ctx.db as Kysely<VariablesDb>;
    const owner = (k: VariableKey) => (k.scope === 'user' ? (k.userId ?? '') : '');
    const store: Variables = {
      async all(k) {
        const rows = await db()
          .selectFrom('variables_value')
          .select(['name', 'value'])
          .where('scope', '=', k.scope)
          .where('space_id', '=', k.spaceId)
          .where('user_id', '=', owner(k))
          .execute();
        return Object.fromEntries(rows.map((r): [string, unknown] => [r.name, JSON.parse(r.value)]));
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
        await db()
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
        await db()
          .deleteFrom('variables_value')
          .where('scope', '=', k.scope)
          .where('space_id', '=', k.spaceId)
          .where('user_id', '=', owner(k))
          .where('name', '=', name)
          .execute();
      },
    };
    ctx.provide(VariablesService, store);

    const key = (scope: 'app' | 'user', spaceId: string, userId: string): VariableKey => ({ scope, spaceId, userId });
    ctx.route({
      ...ListVariables,
      auth: { space: { from: 'body', field: 'space_id' } },
      handler: async ({ body, caller }) => ({
        variables: Object.entries(await store.all(key(body.scope, body.space_id, caller!.userId))).map(
          ([name, value]) => ({ name, value }),
        ),
      }),
    });
    ctx.route({
      ...SetVariable,
      auth: { space: { from: 'body', field: 'space_id' } },
      handler: async ({ body, caller }) => {
        try {
          await store.set(key(body.scope, body.space_id, caller!.userId), body.name, body.value);
        } catch (e) {
          throw badRequest(describeError(e));
        }
        return null;
      },
    });
    ctx.route({
      ...DeleteVariable,
      auth: { space: { from: 'body', field: 'space_id' } },
      handler: async ({ body, caller }) => {
        await store.remove(key(body.scope, body.space_id, caller!.userId), body.name);
        return null;
      },
    });
  },
});
