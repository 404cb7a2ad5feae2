// The Api node (4): calls one API of a published plugin (the draft in test runs); asks the user to
// authorise an OAuth plugin with an interrupt (7) and calls again when the run resumes.
import { ExecuteMode, InterruptType, type NodeTypeDefinition } from '@tessera/workflow-sdk';
import { z } from 'zod';
import { TrafficScene, type Plugins } from '../shared/index.ts';
import { isRecord } from '@tessera/sdk';

export const ApiNodeSettings = z.object({
  plugin_id: z.string().min(1, 'Choose a plugin API.'),
  api_id: z.string().min(1, 'Choose a plugin API.'),
  /** A published version name; empty: the latest published version. */
  plugin_version: z.string().max(64).default(''),
  api_name: z.string().max(100).default(''),
  plugin_name: z.string().max(100).default(''),
});
type Settings = z.infer<typeof ApiNodeSettings>;

export function apiNode(plugins: () => Plugins): NodeTypeDefinition {
  return {
    key: 'plugin',
    // A plugin's API may change something on the other side.
    repeatSafe: false,
    code: 4,
    category: 'utility',
    label: { 'en-US': 'Plugin', 'zh-CN': '插件' },
    description: { 'en-US': 'Calls an API of a plugin of the space.', 'zh-CN': '调用空间中插件的一个 API。' },
    settings: ApiNodeSettings,
    async execute(ctx) {
      const s = ctx.settings as Settings;
      // Test runs try the plugin's draft; runs of a published workflow use a published version.
      const version = ctx.executeMode === ExecuteMode.Run ? s.plugin_version || undefined : 'draft';
      const r = await ctx.span(
        'plugin',
        { 'plugin.id': s.plugin_id, 'plugin.api_id': s.api_id, 'plugin.version': version ?? 'latest' },
        () =>
          plugins().call({
            spaceId: ctx.spaceId,
            userId: ctx.userId,
            pluginId: s.plugin_id,
            apiId: s.api_id,
            version,
            input: ctx.inputs,
            // A test run's calls may be answered by mock data bound to the workflow's test runs.
            ...(version === 'draft' && ctx.workflowId
              ? { scene: { scene: TrafficScene.WorkflowDebug, caller_id: ctx.workflowId } }
              : {}),
            signal: ctx.signal,
          }),
      );
      if (r.status === 'ok' && r.mock) ctx.log(`answered by the mock rule "${r.mock.rule_name}" (test run)`);
      if (r.status === 'needs_auth') {
        ctx.log(`${r.plugin_name} needs the user's authorisation`);
        return ctx.interrupt({
          type: InterruptType.OauthPlugin,
          data: { plugin_id: r.plugin_id, plugin_name: r.plugin_name, authorize_url: r.authorize_url },
        });
      }
      const out = r.output;
      const declared = ctx.outputs.map((o) => o.name);
      if (isRecord(out)) return { outputs: out };
      return { outputs: { [declared[0] ?? 'data']: out } };
    },
  };
}
