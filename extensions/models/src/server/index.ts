// The models extension (server half): provider credentials and models of a space or the platform, resolved for
// every model call; usage. Its parts: store.ts (tables and views), service.ts (ModelsService), routes.ts.
import { defineExtension } from '@tessera/sdk/server';
import type { Kysely } from 'kysely';
import { ModelsService } from '../shared/index.ts';
import { registerRoutes } from './routes.ts';
import { makeService } from './service.ts';

export default defineExtension({
  id: 'models',
  register(ctx) {
    ctx.migrations([
      {
        name: '0001_models',
        up: async (db: Kysely<any>) => {
          await db.schema
            .createTable('models_credential')
            .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
            .addColumn('scope', 'varchar(16)', (c) => c.notNull())
            .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('provider', 'varchar(64)', (c) => c.notNull())
            .addColumn('name', 'varchar(100)', (c) => c.notNull())
            .addColumn('base_url', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
            .addColumn('secret', 'text', (c) => c.notNull())
            .addColumn('created_by', 'varchar(32)', (c) => c.notNull())
            .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
            .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
            .execute();
          await db.schema
            .createTable('models_model')
            .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
            .addColumn('credential_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('scope', 'varchar(16)', (c) => c.notNull())
            .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('model_name', 'varchar(200)', (c) => c.notNull())
            .addColumn('display_name', 'varchar(200)', (c) => c.notNull())
            .addColumn('kind', 'varchar(16)', (c) => c.notNull())
            .addColumn('enabled', 'integer', (c) => c.notNull())
            .addColumn('capabilities', 'text', (c) => c.notNull())
            .addColumn('default_params', 'text', (c) => c.notNull())
            .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
            .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
            .execute();
          await db.schema.createIndex('models_model_space').on('models_model').columns(['space_id', 'kind']).execute();
          await db.schema
            .createTable('models_usage')
            .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
            .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('model_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('source', 'varchar(32)', (c) => c.notNull())
            .addColumn('run_id', 'varchar(32)')
            .addColumn('conversation_id', 'varchar(32)')
            .addColumn('input_tokens', 'integer', (c) => c.notNull())
            .addColumn('output_tokens', 'integer', (c) => c.notNull())
            .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
            .execute();
          await db.schema
            .createIndex('models_usage_space')
            .on('models_usage')
            .columns(['space_id', 'model_id', 'created_at'])
            .execute();
        },
      },
      {
        name: '0002_models_default',
        up: async (db: Kysely<any>) => {
          await db.schema
            .alterTable('models_model')
            .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
            .execute();
        },
      },
      {
        name: '0003_models_successor',
        up: async (db: Kysely<any>) => {
          await db.schema
            .alterTable('models_model')
            .addColumn('deprecated', 'integer', (c) => c.notNull().defaultTo(0))
            .execute();
          await db.schema
            .alterTable('models_model')
            .addColumn('successor_id', 'varchar(32)', (c) => c.notNull().defaultTo(''))
            .execute();
        },
      },
    ]);

    const service = makeService(ctx);
    ctx.provide(ModelsService, service.api);
    registerRoutes(ctx, service);
  },
});
