// The mock answer of a plugin API's call in a debug scene (the plugins' PluginCallMocks hook): the mock set bound to
// the API in that scene (a bot's debug chat, a workflow's test runs), its first rule that matches the call's input,
// its response. No set bound, or no rule that matches: the API answers.
import type { MockHit, PluginMockQuery } from '@tessera/ext-plugins/shared';
import { ComponentType } from '../shared/api.ts';
import { ruleMatches, sceneOf, type DebuggerStore } from './store.ts';

export async function mockAnswer(
  store: DebuggerStore,
  q: PluginMockQuery,
): Promise<(MockHit & { output: unknown }) | undefined> {
  const binding = await store.db
    .selectFrom('debugger_mock_binding')
    .select('mock_set_id')
    .where('space_id', '=', q.spaceId)
    .where('component_type', '=', ComponentType.Tool)
    .where('component_id', '=', q.apiId)
    .where('scene', '=', sceneOf(q.scene.scene))
    .where('caller_id', '=', q.scene.caller_id)
    .executeTakeFirst();
  if (!binding?.mock_set_id || binding.mock_set_id === '0') return undefined;
  for (const rule of await store.rules(binding.mock_set_id)) {
    if (!ruleMatches(rule, q.input)) continue;
    let output: unknown;
    try {
      output = JSON.parse(rule.expect_rule);
    } catch {
      continue;
    }
    return { output, mock_set_id: binding.mock_set_id, rule_id: rule.id, rule_name: rule.name };
  }
  return undefined;
}
