import { expect, it } from 'vitest';
import type { ChildRunRequest, ChildRunResult, NodeRunContext } from '@tessera/ext-workflow/shared';
import { subWorkflow } from '../src/server/index.ts';

it('runs the child, passes its question up and the answer down', async () => {
  const calls: ChildRunRequest[] = [];
  const results: ChildRunResult[] = [
    { status: 'interrupted', execute_id: 'c1', event_id: 'e1', interrupt: { type: 2, data: { question: 'Name?' } } },
    { status: 'success', execute_id: 'c1', output: { answer: 'Ada' } },
  ];
  const base = {
    settings: { workflow_id: 'w2' },
    inputs: { x: 1 },
    runWorkflow: async (r: ChildRunRequest) => (calls.push(r), results.shift()!),
    interrupt: (request: unknown) => ({ interrupt: request }),
  };
  const first = await subWorkflow.execute(base as unknown as NodeRunContext);
  expect(first).toEqual({
    interrupt: { type: 2, data: { question: 'Name?', child_execute_id: 'c1', child_event_id: 'e1' } },
  });
  const second = await subWorkflow.execute({
    ...base,
    resume: 'Ada',
    interrupted: (first as { interrupt: unknown }).interrupt,
  } as unknown as NodeRunContext);
  expect(second).toEqual({ outputs: { answer: 'Ada' } });
  expect(calls).toEqual([
    { workflow_id: 'w2', version: undefined, input: { x: 1 } },
    { workflow_id: 'w2', input: {}, resume: { execute_id: 'c1', event_id: 'e1', data: 'Ada' } },
  ]);
});
