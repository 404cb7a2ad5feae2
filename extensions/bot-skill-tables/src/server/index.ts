import { defineExtension } from '@tessera/sdk/server';
import { BotSkills } from '@tessera/ext-bots/shared';
import { FieldType, TableType, TablesService, type TableInfo } from '@tessera/ext-tables/shared';
import { TableSkillSettings } from '../shared.ts';

const TYPE: Record<number, string> = {
  [FieldType.Text]: 'text',
  [FieldType.Number]: 'integer',
  [FieldType.Date]: "time ('YYYY-MM-DD HH:mm:ss')",
  [FieldType.Float]: 'number',
  [FieldType.Boolean]: 'boolean (1/0)',
};
const schema = (t: TableInfo) =>
  `TABLE ${t.table_name}${t.table_desc ? ` -- ${t.table_desc}` : ''}: id, ${t.field_list.map((f) => `${f.name} ${TYPE[f.type] ?? 'text'}${f.desc ? ` (${f.desc})` : ''}`).join(', ')}`;

export default defineExtension({
  id: 'bot-skill-tables',
  register(ctx) {
    const tables = () => ctx.service(TablesService);
    ctx.register(BotSkills, {
      key: 'tables',
      label: { 'en-US': 'Tables', 'zh-CN': '数据表' },
      settings: TableSkillSettings,
      async contribute(turn) {
        const s = turn.settings as TableSkillSettings;
        const infos: TableInfo[] = [];
        for (const item of s.tables) {
          const info = await tables().info(item.database_id);
          if (info && info.space_id === turn.spaceId) infos.push(info);
          else ctx.logger.warn(`bot ${turn.botId}: its table ${item.database_id} is gone; it is left out`);
        }
        if (!infos.length) return {};
        // The debug chat reads and writes the draft data; a published bot the online data.
        const tableType = turn.version === null ? TableType.Draft : TableType.Online;
        return {
          instructions: `You keep data in tables; read and change it with the run_sql tool (one SELECT, INSERT, UPDATE or DELETE; no joins, subqueries or comments; UPDATE and DELETE need a WHERE; quote text with single quotes).\n${infos.map(schema).join('\n')}`,
          tools: [
            {
              name: 'run_sql',
              description: `Runs one SQL statement over the tables ${infos.map((t) => t.table_name).join(', ')} and answers the rows or how many changed.`,
              parameters: {
                type: 'object',
                properties: { sql: { type: 'string', description: 'One SELECT, INSERT, UPDATE or DELETE statement.' } },
                required: ['sql'],
                additionalProperties: false,
              },
              async execute(args) {
                const text = String(args.sql ?? '');
                const r = await tables().sql(turn.spaceId, text, [], {
                  tableType,
                  uuid: turn.endUserId,
                  tableIds: infos.map((t) => t.id),
                });
                return { sql: text, kind: r.kind, rowNum: r.rowNum, rows: r.rows.slice(0, 100) };
              },
            },
          ],
        };
      },
      async describe(settings) {
        const s = TableSkillSettings.parse(settings);
        const list = [];
        for (const item of s.tables) {
          const info = await tables().info(item.database_id);
          if (info)
            list.push({
              table_id: info.id,
              table_name: info.table_name,
              table_desc: info.table_desc,
              field_list: info.field_list.map((f) => ({
                name: f.name,
                desc: f.desc,
                type: f.type,
                must_required: f.must_required,
              })),
            });
        }
        return { database_list: list };
      },
    });
  },
});
