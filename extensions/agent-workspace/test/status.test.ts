import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import type { ServerContext } from '@tessera/sdk/server';
import { ModelsService } from '@tessera/ext-models/shared';
import workspace from '../src/server/index.ts';
import { Engine } from '../src/server/engine.ts';
import { WorkspaceStore } from '../src/server/store.ts';
import { TaskLimits } from '../src/shared/api.ts';

// A task's status as two hands change it at once: a step that read the task before a person stopped it must not
// write its own outcome over the stop.
let t: ExtensionTester;
let ctx!: ServerContext;
beforeAll(async () => {
  t = await createExtensionTester(workspace, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [
      {
        id: 'identity',
        register(c) {
          ctx = c;
        },
      },
      { id: 'spaces', register() {} },
      { id: 'models', services: [[ModelsService, {}]] },
    ],
  });
});
afterAll(() => t.close());

async function runningTask() {
  const store = new WorkspaceStore(ctx);
  const row = store.newTask(
    's1',
    'ann',
    { query: 'Add the numbers', model_id: 'm1', limits: TaskLimits.parse({}) },
    { plan: [{ step_id: 'p1', title: 'Add', detail: '', expert_id: '', status: 'pending', result: '' }] },
  );
  await store.db.insertInto('agent_task').values(row).execute();
  return { store, engine: new Engine(ctx, store), task: await store.task(row.id) };
}

describe('a task stopped while a step was at work', () => {
  it('keeps the stop: the step’s question and its failure are not written over it', async () => {
    const { store, engine, task } = await runningTask();
    expect(task.status).toBe('running');
    // The person stops it while the step is still working with the task it read.
    const stopped = await engine.end(await store.task(task.id), 'stopped', 'stopped', {
      key: 'endStoppedPlain',
      params: {},
    });
    expect(stopped.status).toBe('stopped');
    const asked = await engine.set(task, { status: 'waiting_user', question: 'Which numbers?' });
    expect(asked).toMatchObject({ status: 'stopped', question: '' });
    const failed = await engine.end(task, 'failed', 'failed', { key: 'endFailed', params: { detail: 'late' } });
    expect(failed).toMatchObject({ status: 'stopped', end_code: 'stopped' });
    // One notice: the stop's.
    const notices = (await store.messages(task.id)).filter((m) => m.kind === 'notice');
    expect(notices.map((m) => JSON.parse(m.data).key)).toEqual(['endStoppedPlain']);
    // Fields that do not change the status are written as before.
    expect((await engine.set(task, { feedback: 'thanks' })).feedback).toBe('thanks');
  });
});
