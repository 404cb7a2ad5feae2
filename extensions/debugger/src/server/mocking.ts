// The mock answer of a call in a debug scene (the plugins' PluginCallMocks and the workflows' WorkflowCallMocks
// hooks): the mock set bound to the API or workflow in that scene (a bot's debug chat, a workflow's test runs), its
// first rule that matches the call's input, its response. No set bound, or no rule that matches: the call goes on.
import { ComponentType } from '../shared/api.ts';
import { ruleMatches, sceneOf, type DebuggerStore } from './store.ts';

export interface MockCall {
  spaceId: string;
  componentType: number;
  componentId: string;
  input: Record<string, unknown>;
  scene: { scene: number; caller_id: string };
}

export async function mockAnswer(
  store: DebuggerStore,
  q: MockCall,
): Promise<{ output: unknown; mock_set_id: string; rule_id: string; rule_name: string } | undefined> {
  const binding = await store.db
    .selectFrom('debugger_mock_binding')
    .select('mock_set_id')
    .where('space_id', '=', q.spaceId)
    .where('component_type', '=', q.componentType)
    .where('component_id', '=', q.componentId)
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
    // A workflow answers an object of its outputs.
    if (q.componentType === ComponentType.Workflow && (!output || typeof output !== 'object' || Array.isArray(output)))
      output = { output };
    return { output, mock_set_id: binding.mock_set_id, rule_id: rule.id, rule_name: rule.name };
  }
  return undefined;
}
