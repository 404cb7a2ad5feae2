// Variable values per bot, connector and end user.
import type { Kysely } from 'kysely';
import type { ServerContext } from '@tessera/sdk/server';

export const MAX_VALUE = 4000;

export interface Who {
  botId: string;
  connectorId: string;
  endUserId: string;
}

export interface StoredValue {
  value: string;
  created_at: string;
  updated_at: string;
}

/** This extension's table, as its migrations make it. */
interface VariablesDb {
  bot_variables_value: {
    bot_id: string;
    connector_id: string;
    end_user_id: string;
    name: string;
    value: string;
    created_at: string | null;
    updated_at: string;
  };
}

export function variableStore(ctx: ServerContext<unknown>) {
  const db: Kysely<VariablesDb> = ctx.db;
  const rows = async (w: Who): Promise<Record<string, StoredValue>> => {
    const list = await db
      .selectFrom('bot_variables_value')
      .select(['name', 'value', 'created_at', 'updated_at'])
      .where('bot_id', '=', w.botId)
      .where('connector_id', '=', w.connectorId)
      .where('end_user_id', '=', w.endUserId)
      .execute();
    return Object.fromEntries(
      list.map((r) => [
        r.name,
        {
          value: r.value,
          created_at: r.created_at ?? r.updated_at,
          updated_at: r.updated_at,
        },
      ]),
    );
  };
  return {
    rows,
    async values(w: Who): Promise<Record<string, string>> {
      return Object.fromEntries(Object.entries(await rows(w)).map(([k, v]) => [k, v.value]));
    },
    async set(w: Who, name: string, value: string) {
      const now = new Date().toISOString();
      const row = {
        bot_id: w.botId,
        connector_id: w.connectorId,
        end_user_id: w.endUserId,
        name,
        value,
        created_at: now,
        updated_at: now,
      };
      await db
        .insertInto('bot_variables_value')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['bot_id', 'connector_id', 'end_user_id', 'name']).doUpdateSet({ value, updated_at: now }),
        )
        .execute();
    },
  };
}
