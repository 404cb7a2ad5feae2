import { defineExtension } from '@tessera/sdk/server';
import { BotSkills, type BotTool } from '@tessera/ext-bots/shared';
import { paramsToJsonSchema, PluginsService, TrafficScene } from '@tessera/ext-plugins/shared';
import { PluginSkillSettings } from '../shared.ts';

/** A tool name the model can call: letters, digits and _, unique in the turn. */
export function uniqueName(base: string, taken: Set<string>): string {
  let name =
    base
      .replace(/[^A-Za-z0-9_]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 56) || 'tool';
  if (!/^[A-Za-z_]/.test(name)) name = `api_${name}`;
  let n = name;
  for (let i = 2; taken.has(n); i++) n = `${name}_${i}`;
  taken.add(n);
  return n;
}

export default defineExtension({
  id: 'bot-skill-plugins',
  register(ctx) {
    const plugins = () => ctx.service(PluginsService);
    ctx.register(BotSkills, {
      key: 'plugins',
      label: { 'en-US': 'Plugins', 'zh-CN': '插件' },
      settings: PluginSkillSettings,
      async contribute(turn) {
        const s = turn.settings as PluginSkillSettings;
        const taken = new Set<string>();
        const tools: BotTool[] = [];
        // A published bot calls published plugins; the draft (debug chat) tries their drafts.
        const version = turn.version === null ? 'draft' : undefined;
        for (const item of s.apis) {
          const tool = await plugins().tool(turn.spaceId, item.plugin_id, item.api_id, version);
          if (!tool) {
            ctx.logger.warn(
              `bot ${turn.botId}: the plugin API ${item.plugin_id}/${item.api_id} is gone or not published; the tool is left out`,
            );
            continue;
          }
          tools.push({
            name: uniqueName(tool.name, taken),
            description: `${tool.desc || tool.name} (plugin ${tool.plugin_name})`.slice(0, 1000),
            parameters: paramsToJsonSchema(tool.request_params),
            source: { kind: 'plugin_api', id: tool.api_id, plugin_id: tool.plugin_id },
            async execute(args, call) {
              const r = await plugins().call({
                spaceId: turn.spaceId,
                userId: turn.userId,
                pluginId: tool.plugin_id,
                apiId: tool.api_id,
                version,
                input: args,
                // The debug chat's calls may be answered by mock data bound to the bot's debugging.
                ...(version === 'draft' ? { scene: { scene: TrafficScene.BotDebug, caller_id: turn.botId } } : {}),
                signal: call.signal,
              });
              if (r.status === 'needs_auth')
                throw new Error(
                  `The plugin ${r.plugin_name} needs the user's authorisation first: ask them to open ${r.authorize_url} and try again.`,
                );
              return r.output;
            },
          });
        }
        return { tools };
      },
      async describe(settings, spaceId) {
        const s = PluginSkillSettings.parse(settings);
        const list = [];
        for (const a of s.apis) {
          const tool =
            (await plugins()
              .tool(spaceId, a.plugin_id, a.api_id)
              .catch(() => undefined)) ??
            (await plugins()
              .tool(spaceId, a.plugin_id, a.api_id, 'draft')
              .catch(() => undefined));
          if (tool)
            list.push({
              plugin_id: tool.plugin_id,
              api_id: tool.api_id,
              name: tool.plugin_name,
              api_name: tool.name,
              description: tool.desc,
            });
        }
        return { plugin_info_list: list };
      },
      fromOpenApi(body) {
        const list = (
          body.plugin_id_list as { id_list?: { plugin_id?: string | number; api_id?: string | number }[] } | undefined
        )?.id_list;
        return list
          ? {
              apis: list
                .filter((i) => i?.plugin_id && i?.api_id)
                .map((i) => ({ plugin_id: String(i.plugin_id), api_id: String(i.api_id) })),
            }
          : undefined;
      },
    });
  },
});
