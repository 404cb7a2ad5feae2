import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { BotModes, type BotModeDefinition } from '@tessera/ext-bots/shared';
import { testTurn } from '@tessera/ext-bots/testing';
import { WorkflowRunnerService, type WorkflowRunRequest, type WorkflowRunner } from '@tessera/workflow-sdk';
import chatflow from '../src/server/index.ts';

const runs: WorkflowRunRequest[] = [];
const flows: Record<
  string,
  { flow_mode: number; latest_version: string | null; stream?: string[]; output?: Record<string, unknown> }
> = {
  streaming: { flow_mode: 3, latest_version: 'v1.0.0', stream: ['Hel', 'lo'] },
  quiet: { flow_mode: 3, latest_version: null, output: { answer: 'from End' } },
  plain: { flow_mode: 0, latest_version: 'v1.0.0' },
};
const runner: WorkflowRunner = {
  spaceOf: async () => 'space-1',
  info: async (id) => ({ workflow_id: id, space_id: 'space-1', name: id, description: '', inputs: [], ...flows[id] }),
  run: async (r) => {
    runs.push(r);
    const f = flows[r.workflowId];
    for (const c of f.stream ?? []) r.onMessage?.({ content: c, final: false, node_id: 'end' });
    return { execute_id: 'e', status: 'success', output: f.output, usage: { input_tokens: 4, output_tokens: 2 } };
  },
};
let t: ExtensionTester;
let mode: BotModeDefinition;
beforeAll(async () => {
  t = await createExtensionTester(chatflow, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [{ id: 'bots' }, { id: 'workflow', services: [[WorkflowRunnerService, runner]] }],
  });
  mode = t.server.host.points.registry(BotModes).get('chatflow')!;
});
afterAll(() => t.close());

describe('the chat-flow mode alone', () => {
  it("passes the message as USER_INPUT and streams the chat-flow's answer", async () => {
    const r = testTurn({ settings: { workflow_id: 'streaming' }, query: 'hi', customVariables: { lang: 'en' } });
    expect(await mode.run(r.turn)).toEqual({ answer: 'Hello', usage: { input_tokens: 4, output_tokens: 2 } });
    expect(r.deltas).toEqual(['Hel', 'lo']);
    expect(runs.at(-1)).toMatchObject({
      workflowId: 'streaming',
      version: undefined,
      input: { USER_INPUT: 'hi', CONVERSATION_NAME: 'conv-1', lang: 'en' },
    });
  });

  it("answers with End's output when nothing streamed; the draft may run an unpublished chat-flow, a published bot may not", async () => {
    expect((await mode.run(testTurn({ settings: { workflow_id: 'quiet' }, query: 'x' }).turn)).answer).toBe('from End');
    expect(runs.at(-1)!.version).toBe('draft');
    await expect(
      mode.run(testTurn({ settings: { workflow_id: 'quiet' }, query: 'x', version: 'v1.0.0' }).turn),
    ).rejects.toThrow(/not published/);
  });

  it('refuses a workflow that is not a chat-flow, and a bot without one', async () => {
    await expect(mode.run(testTurn({ settings: { workflow_id: 'plain' }, query: 'x' }).turn)).rejects.toThrow(
      /is a workflow, not a chat-flow/,
    );
    expect(mode.problems!(mode.settings.parse({}))).toEqual(['Choose the chat-flow that answers.']);
  });
});
