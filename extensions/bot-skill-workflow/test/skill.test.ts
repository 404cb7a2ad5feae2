import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { BotSkills, type BotSkillDefinition, type SkillTurnContext } from '@tessera/ext-bots/shared';
import { WorkflowRunnerService, type WorkflowRunRequest, type WorkflowRunner } from '@tessera/workflow-sdk';
import skill from '../src/server/index.ts';

// Workflows as tools, alone: a stand-in workflow runner with two workflows.
const runs: WorkflowRunRequest[] = [];
const runner: WorkflowRunner = {
  spaceOf: async () => 's1',
  info: async (id, spaceId) => {
    if (spaceId !== 's1') throw new Error('not in this space');
    if (id === 'w1')
      return {
        workflow_id: 'w1',
        space_id: 's1',
        name: 'Weather report',
        description: 'The weather in a city',
        flow_mode: 0,
        latest_version: 'v1.0.0',
        inputs: [
          { name: 'city', type: 'string', required: true },
          { name: 'days', type: 'integer' },
        ],
      };
    if (id === 'w2')
      return {
        workflow_id: 'w2',
        space_id: 's1',
        name: '天气',
        description: '',
        flow_mode: 0,
        latest_version: null,
        inputs: [],
      };
    throw new Error('no such workflow');
  },
  run: async (r) => {
    runs.push(r);
    if (r.input.city === 'Atlantis')
      return { execute_id: 'e2', status: 'fail', error: 'no such city', usage: { input_tokens: 0, output_tokens: 0 } };
    return {
      execute_id: 'e1',
      status: 'success',
      output: { forecast: `sunny in ${String(r.input.city)}` },
      usage: { input_tokens: 0, output_tokens: 0 },
    };
  },
};
let t: ExtensionTester;
let def: BotSkillDefinition;
beforeAll(async () => {
  t = await createExtensionTester(skill, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [{ id: 'bots' }, { id: 'workflow', services: [[WorkflowRunnerService, runner]] }],
  });
  def = t.server.host.points.registry(BotSkills).get('workflows')!;
});
afterAll(() => t.close());

const turn = (settings: unknown, version: string | null = null): SkillTurnContext => ({
  botId: 'b1',
  spaceId: 's1',
  userId: 'ann',
  endUserId: 'end-1',
  connectorId: '1024',
  conversationId: 'c1',
  chatId: '',
  version,
  settings: def.settings.parse(settings),
  customVariables: {},
  query: '',
  signal: new AbortController().signal,
});

describe('workflows as bot tools', () => {
  it('gives each workflow as a tool named after it, its Start fields as the arguments', async () => {
    const { tools } = await def.contribute(
      turn({ workflows: [{ workflow_id: 'w1' }, { workflow_id: 'w2' }, { workflow_id: 'gone' }] }),
    );
    expect(tools!.map((x) => x.name)).toEqual(['Weather_report', 'workflow_w2']);
    expect(tools![0].description).toBe('The weather in a city');
    expect(tools![0].parameters).toMatchObject({ type: 'object', required: ['city'] });
    const out = await tools![0].execute({ city: 'Oslo' }, { signal: new AbortController().signal });
    expect(out).toEqual({ forecast: 'sunny in Oslo' });
    expect(runs.at(-1)).toMatchObject({
      spaceId: 's1',
      userId: 'ann',
      workflowId: 'w1',
      version: undefined,
      botId: 'b1',
      connectorId: '1024',
      connectorUid: 'end-1',
    });
  });

  it("runs an unpublished workflow's draft for the debug chat only, and fails a tool with the run's error", async () => {
    const published = await def.contribute(turn({ workflows: [{ workflow_id: 'w2' }] }, 'v1.0.0'));
    expect(published.tools).toEqual([]);
    const draft = await def.contribute(turn({ workflows: [{ workflow_id: 'w2' }, { workflow_id: 'w1' }] }));
    await draft.tools![0].execute({}, { signal: new AbortController().signal });
    expect(runs.at(-1)!.version).toBe('draft');
    await expect(
      draft.tools![1].execute({ city: 'Atlantis' }, { signal: new AbortController().signal }),
    ).rejects.toThrow('The workflow "Weather report" failed: no such city');
  });

  it("reads Coze's workflow_id_list and describes the bot's workflows", async () => {
    expect(def.fromOpenApi!({ workflow_id_list: { ids: [{ id: 'w1' }] } }, undefined)).toEqual({
      workflows: [{ workflow_id: 'w1' }],
    });
    expect(def.fromOpenApi!({ name: 'x' }, undefined)).toBeUndefined();
    expect(await def.describe!({ workflows: [{ workflow_id: 'w1' }] }, 's1')).toEqual({
      workflow_info_list: [{ id: 'w1', name: 'Weather report', description: 'The weather in a city', icon_url: '' }],
    });
    expect(
      def.settings.safeParse({ workflows: Array.from({ length: 21 }, (_, i) => ({ workflow_id: `w${i}` })) }).success,
    ).toBe(false);
  });
});
