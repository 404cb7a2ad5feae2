// Which agent holds each conversation (across turns and restarts of the studio).
import type { Migration, ServerContext } from '@tessera/sdk/server';
import type { Kysely } from 'kysely';
import { ServerContextToken } from '@tessera/sdk/server';

interface StateDb {
  bot_multi_agent_holder: { conversation_id: string; bot_id: string; agent_id: string; updated_at: string };
}

export const migrations: Migration[] = [
  {
    name: '0001_holder',
    up: async (db) => {
      await db.schema
        .createTable('bot_multi_agent_holder')
        .addColumn('conversation_id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('bot_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('agent_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
    },
  },
];

export class Holders {
  static readonly inject = [ServerContextToken] as const;
  readonly #ctx: ServerContext;
  constructor(ctx: ServerContext) {
    this.#ctx = ctx;
  }
  get #db(): Kysely<StateDb> {
    return this.#ctx.db;
  }
  async get(conversationId: string): Promise<string | undefined> {
    if (!conversationId) return undefined;
    return (
      await this.#db
        .selectFrom('bot_multi_agent_holder')
        .select('agent_id')
        .where('conversation_id', '=', conversationId)
        .executeTakeFirst()
    )?.agent_id;
  }
  async set(conversationId: string, botId: string, agentId: string): Promise<void> {
    if (!conversationId) return;
    const updated_at = new Date().toISOString();
    await this.#db
      .insertInto('bot_multi_agent_holder')
      .values({ conversation_id: conversationId, bot_id: botId, agent_id: agentId, updated_at })
      .onConflict((oc) => oc.column('conversation_id').doUpdateSet({ agent_id: agentId, updated_at }))
      .execute();
  }
}
