import { defineExtension } from '@tessera/sdk/server';
import { BotSkills, type BotTool } from '@tessera/ext-bots/shared';
import { McpClientsService } from '@tessera/ext-mcp/shared';
import { McpSkillSettings } from '../shared.ts';

export default defineExtension({
  id: 'bot-skill-mcp',
  register(ctx) {
    const mcp = () => ctx.service(McpClientsService);
    ctx.register(BotSkills, {
      key: 'mcp',
      label: { 'en-US': 'MCP tools', 'zh-CN': 'MCP 工具' },
      settings: McpSkillSettings,
      async contribute(turn) {
        const s = turn.settings as McpSkillSettings;
        if (!s.tools.length) return {};
        const servers = await mcp().servers(turn.spaceId);
        const taken = new Set<string>();
        const tools: BotTool[] = [];
        for (const item of s.tools) {
          const server = servers.find((x) => x.server_id === item.server_id);
          const info = server?.tools.find((t) => t.name === item.tool);
          if (!server || !info) {
            ctx.logger.warn(
              `bot ${turn.botId}: the MCP tool ${item.server_id}/${item.tool} is gone; the tool is left out`,
            );
            continue;
          }
          let name = info.name.replace(/[^A-Za-z0-9_]+/g, '_').slice(0, 56) || 'tool';
          for (let i = 2; taken.has(name); i++) name = `${info.name.slice(0, 50)}_${i}`;
          taken.add(name);
          tools.push({
            name,
            description: `${info.description || info.name} (MCP server ${server.name})`.slice(0, 1000),
            parameters: info.input_schema?.type === 'object' ? info.input_schema : { type: 'object', properties: {} },
            async execute(args, call) {
              const r = await mcp().callTool(turn.spaceId, server.server_id, info.name, args, call.signal);
              if (r.is_error) throw new Error(r.text || `The MCP tool ${info.name} failed.`);
              return r.structured ?? r.text;
            },
          });
        }
        return { tools };
      },
    });
  },
});
