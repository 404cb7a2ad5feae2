import { defineExtension } from '@tessera/sdk/server';
import { BotSkills } from '@tessera/ext-bots/shared';
import { SYSTEM_VARIABLES, SystemVariableConf, VariablesSkillSettings } from '../shared.ts';
import { registerMemoryApi } from './memory.ts';
import { registerOpenApi } from './open.ts';
import { MAX_VALUE, variableStore } from './store.ts';

export default defineExtension({
  id: 'bot-skill-variables',
  register(ctx) {
    ctx.migrations([
      {
        name: '0001_bot_variables',
        up: async (db) => {
          await db.schema
            .createTable('bot_variables_value')
            .addColumn('bot_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('connector_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('end_user_id', 'varchar(200)', (c) => c.notNull())
            .addColumn('name', 'varchar(64)', (c) => c.notNull())
            .addColumn('value', 'text', (c) => c.notNull())
            .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
            .addPrimaryKeyConstraint('bot_variables_value_pk', ['bot_id', 'connector_id', 'end_user_id', 'name'])
            .execute();
        },
      },
      {
        // When a value was first set (the open API's create_time); older rows take their last change.
        name: '0002_bot_variables_created',
        up: async (db) => {
          await db.schema.alterTable('bot_variables_value').addColumn('created_at', 'varchar(32)').execute();
          await db
            .updateTable('bot_variables_value')
            .set((eb) => ({ created_at: eb.ref('updated_at') }))
            .execute();
        },
      },
    ]);
    const { values, set } = variableStore(ctx);

    ctx.register(BotSkills, {
      key: 'variables',
      label: { 'en-US': 'Variables', 'zh-CN': '变量' },
      settings: VariablesSkillSettings,
      async contribute(turn) {
        const s = turn.settings as VariablesSkillSettings;
        const system = {
          sys_uuid: turn.endUserId,
          sys_connector_id: turn.connectorId,
          sys_time: new Date().toISOString(),
        };
        if (!s.variables.length) return { values: system };
        const who = { botId: turn.botId, connectorId: turn.connectorId, endUserId: turn.endUserId };
        const stored = await values(who);
        const current: Record<string, string> = {};
        for (const v of s.variables) current[v.name] = stored[v.name] ?? v.default_value;
        const writable = s.variables.filter((v) => v.writable);
        return {
          values: { ...system, ...current },
          instructions: writable.length
            ? `You remember facts about the user in variables. Call set_variable when the user tells you one of them: ${writable.map((v) => `${v.name}${v.description ? ` (${v.description})` : ''}`).join(', ')}.`
            : undefined,
          tools: writable.length
            ? [
                {
                  name: 'set_variable',
                  description: 'Remember a value about the user for later conversations.',
                  parameters: {
                    type: 'object',
                    properties: {
                      name: { type: 'string', enum: writable.map((v) => v.name) },
                      value: { type: 'string' },
                    },
                    required: ['name', 'value'],
                    additionalProperties: false,
                  },
                  async execute(args) {
                    const name = String(args.name ?? '');
                    if (!writable.some((v) => v.name === name))
                      throw new Error(`There is no writable variable "${name}".`);
                    const value = String(args.value ?? '');
                    if (value.length > MAX_VALUE) throw new Error(`The value is longer than ${MAX_VALUE} characters.`);
                    await set(who, name, value);
                    return { ok: true, name, value };
                  },
                },
              ]
            : [],
        };
      },
      async describe(settings) {
        const s = VariablesSkillSettings.parse(settings);
        return {
          variables: s.variables.map((v) => ({
            keyword: v.name,
            default_value: v.default_value,
            description: v.description,
            enable: true,
            prompt_enable: true,
            channel: 'custom',
          })),
        };
      },
    });

    registerOpenApi(ctx);
    ctx.route({
      method: 'GET',
      path: '/api/memory/sys_variable_conf',
      auth: 'user',
      summary: 'The system variables a bot with the variables skill has (read-only)',
      response: SystemVariableConf,
      handler: async ({ headers }) => {
        const zh = /^zh/i.test(String(headers['accept-language'] ?? ''));
        return {
          conf: SYSTEM_VARIABLES.map((v) => ({
            key: v.key,
            default_value: '',
            description: v.description[zh ? 'zh-CN' : 'en-US'],
            can_write: 'false',
            group_name: 'system',
          })),
        };
      },
    });

    registerMemoryApi(ctx);
  },
});
