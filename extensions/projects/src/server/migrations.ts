import type { Migration } from '@tessera/sdk/server';

export const migrations: Migration[] = [
  {
    name: '0001_projects',
    up: async (db) => {
      await db.schema
        .createTable('projects_project')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('description', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
        .addColumn('icon_uri', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('creator_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('archived', 'integer', (c) => c.notNull().defaultTo(0))
        // The latest published version number ('' before the first).
        .addColumn('version', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('deleted_at', 'varchar(32)')
        .execute();
      await db.schema
        .createIndex('projects_project_space')
        .on('projects_project')
        .columns(['space_id', 'updated_at'])
        .execute();
      await db.schema
        .createTable('projects_member')
        .addColumn('project_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('kind', 'varchar(32)', (c) => c.notNull())
        .addColumn('resource_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('added_at', 'varchar(32)', (c) => c.notNull())
        .addPrimaryKeyConstraint('projects_member_pk', ['project_id', 'kind', 'resource_id'])
        .execute();
      await db.schema
        .createTable('projects_history')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('project_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('action', 'varchar(32)', (c) => c.notNull())
        // The project as it was after the change: name, description, icon, its resources.
        .addColumn('snapshot', 'text', (c) => c.notNull())
        .addColumn('created_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('projects_history_project')
        .on('projects_history')
        .columns(['project_id', 'created_at'])
        .execute();
      await db.schema
        .createTable('projects_publish')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('project_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('version', 'varchar(32)', (c) => c.notNull())
        .addColumn('description', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
        .addColumn('connectors', 'text', (c) => c.notNull())
        // Per resource: its kind, id, name, and the version it got or why it could not be published.
        .addColumn('results', 'text', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('created_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('projects_publish_project')
        .on('projects_publish')
        .columns(['project_id', 'created_at'])
        .execute();
    },
  },
  {
    name: '0002_project_variables',
    up: async (db) => {
      // The project's variables (JSON list of project_memory.Variable), as edited and as each publication took them.
      await db.schema
        .alterTable('projects_project')
        .addColumn('variables', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      await db.schema
        .alterTable('projects_publish')
        .addColumn('variables', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
    },
  },
  {
    name: '0003_publish_connector_settings',
    up: async (db) => {
      // Per connector, its settings for this publication (the Web SDK's allowed origins ...).
      await db.schema
        .alterTable('projects_publish')
        .addColumn('connector_settings', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();
    },
  },
];
