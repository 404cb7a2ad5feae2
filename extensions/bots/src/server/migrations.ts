import type { Migration } from '@tessera/sdk/server';

export const migrations: Migration[] = [
  {
    name: '0001_bots_conversations',
    up: async (db) => {
      await db.schema
        .createTable('bots_meta')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('description', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
        .addColumn('icon_uri', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('mode', 'varchar(64)', (c) => c.notNull())
        .addColumn('creator_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('draft_revision', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('published_revision', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('latest_version', 'varchar(32)')
        .addColumn('latest_commit_id', 'varchar(32)')
        .addColumn('published_at', 'varchar(32)')
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('deleted_at', 'varchar(32)')
        .execute();
      await db.schema.createIndex('bots_meta_space').on('bots_meta').columns(['space_id', 'updated_at']).execute();
      await db.schema
        .createTable('bots_draft')
        .addColumn('bot_id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('config', 'text', (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull())
        .addColumn('updated_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('bots_commit')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('bot_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('config', 'text', (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull())
        .addColumn('version', 'varchar(32)', (c) => c.notNull())
        .addColumn('changelog', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
        .addColumn('connectors', 'text', (c) => c.notNull())
        .addColumn('created_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('bots_commit_bot').on('bots_commit').columns(['bot_id', 'created_at']).execute();
      await db.schema
        .createTable('bots_conversation')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('bot_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        // The studio user who owns it (the session's or the token's); end_user_id is the channel's user.
        .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('end_user_id', 'varchar(200)', (c) => c.notNull())
        .addColumn('connector_id', 'varchar(32)', (c) => c.notNull())
        // 1: the editor's debug chat (answered by the draft).
        .addColumn('draft', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('name', 'varchar(200)', (c) => c.notNull().defaultTo(''))
        .addColumn('section_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('meta_data', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('bots_conversation_owner')
        .on('bots_conversation')
        .columns(['bot_id', 'user_id', 'connector_id', 'updated_at'])
        .execute();
      await db.schema
        .createTable('bots_message')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('conversation_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('section_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('chat_id', 'varchar(32)')
        .addColumn('bot_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('role', 'varchar(16)', (c) => c.notNull())
        .addColumn('type', 'varchar(32)', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('content_type', 'varchar(32)', (c) => c.notNull().defaultTo('text'))
        .addColumn('reasoning_content', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('meta_data', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('feedback', 'varchar(16)')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('bots_message_conv')
        .on('bots_message')
        .columns(['conversation_id', 'created_at', 'id'])
        .execute();
      await db.schema.createIndex('bots_message_chat').on('bots_message').columns(['chat_id']).execute();
      await db.schema
        .createTable('bots_chat')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('conversation_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('section_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('bot_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('version', 'varchar(32)')
        .addColumn('status', 'varchar(32)', (c) => c.notNull())
        .addColumn('input_tokens', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('output_tokens', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('error_code', 'integer')
        .addColumn('error_msg', 'text')
        .addColumn('required_action', 'text')
        .addColumn('log_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('completed_at', 'bigint')
        .addColumn('failed_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('bots_chat_conv')
        .on('bots_chat')
        .columns(['conversation_id', 'created_at'])
        .execute();
    },
  },
  {
    name: '0002_chat_trace',
    up: async (db) => {
      await db.schema.alterTable('bots_chat').addColumn('trace', 'text').execute();
    },
  },
  {
    // What a publication to each connector took (the Web SDK's allowed origins).
    name: '0003_connector_settings',
    up: async (db) => {
      await db.schema
        .alterTable('bots_commit')
        .addColumn('connector_settings', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();
    },
  },
  {
    // The meta_data a caller gives a chat comes back on the chat object (Coze's CreateChatData.meta_data).
    name: '0004_chat_meta',
    up: async (db) => {
      await db.schema
        .alterTable('bots_chat')
        .addColumn('meta_data', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();
    },
  },
  {
    // "Has anyone in this space talked to a bot yet" (the home page's getting-started list) without a scan.
    name: '0005_chat_space',
    up: async (db) => {
      await db.schema.createIndex('bots_chat_space').on('bots_chat').columns(['space_id', 'created_at']).execute();
    },
  },
  {
    // A service app's token names a session (the JWT's session_name): its conversations are that session's only.
    name: '0006_conversation_session',
    up: async (db) => {
      await db.schema
        .alterTable('bots_conversation')
        .addColumn('session_name', 'varchar(200)', (c) => c.notNull().defaultTo(''))
        .execute();
    },
  },
  {
    // Several versions live on a connector: the one everyone gets (pinned, or the latest) and one in gray release
    // (a share of the end users, or a list of them); versions taken out of service; what was done to the versions.
    name: '0007_releases',
    up: async (db) => {
      await db.schema
        .createTable('bots_release')
        .addColumn('bot_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('connector_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('version', 'varchar(64)')
        .addColumn('gray_version', 'varchar(64)')
        .addColumn('gray_percent', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('gray_users', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('updated_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .addPrimaryKeyConstraint('bots_release_pk', ['bot_id', 'connector_id'])
        .execute();
      await db.schema
        .alterTable('bots_commit')
        .addColumn('inactive', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('bots_operation')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('bot_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('type', 'varchar(32)', (c) => c.notNull())
        .addColumn('version', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('connector_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('operator_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('bots_operation_bot')
        .on('bots_operation')
        .columns(['bot_id', 'created_at'])
        .execute();
    },
  },
];
