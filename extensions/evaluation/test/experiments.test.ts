import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { ModelsService } from '@tessera/ext-models/shared';
import { EvalTargets, Evaluators } from '../src/shared/index.ts';
import evaluation from '../src/server/index.ts';

// Evaluation alone, over a stand-in target (it shouts its input back) and a stand-in evaluator (exact match with
// the reference): a set frozen as a version, an experiment run in the background over it, results and aggregates.
let t: ExtensionTester;
beforeAll(async () => {
  t = await createExtensionTester(evaluation, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [
      { id: 'identity' },
      { id: 'spaces' },
      { id: 'models', services: [[ModelsService, {}]] },
      {
        id: 'standins',
        register(ctx) {
          ctx.register(EvalTargets, {
            kind: 'shout',
            label: { 'en-US': 'Shout' },
            inputs: async () => ['text'],
            check: async () => undefined,
            run: async (r) => ({ output: String(r.inputs.text).toUpperCase() }),
          });
          ctx.register(Evaluators, {
            kind: 'exact',
            label: { 'en-US': 'Exact' },
            settings: z.object({}),
            evaluate: async (e) => ({ score: e.output === e.reference ? 1 : 0, reason: 'exact match' }),
          });
        },
      },
    ],
    spaces: { s1: { ann: 'member' } },
  });
});
afterAll(() => t.close());

const ev = (p: string, body: object) => t.call('POST', `/api/evaluation/v1/${p}`, { space_id: 's1', ...body }, 'ann');

it('runs an experiment over a frozen version of a set: a result per item and the mean score', async () => {
  const { set_id } = await ev('sets/create', { name: 'Words', columns: [{ name: 'text' }, { name: 'expected' }] });
  await ev('sets/items/add', {
    set_id,
    items: [
      { text: 'hi', expected: 'HI' },
      { text: 'yo', expected: 'YO' },
      { text: 'ok', expected: 'no' },
      { text: 'up', expected: 'UP' },
    ],
  });
  await ev('sets/versions/create', { set_id, version: '1.0.0' });
  // Items added after the version are not in it.
  await ev('sets/items/add', { set_id, items: [{ text: 'late', expected: 'LATE' }] });
  const { evaluator_id } = await ev('evaluators/create', { name: 'Exact', kind: 'exact', settings: {} });
  const { experiment_id } = await ev('experiments/create', {
    name: 'First',
    set_id,
    set_version: '1.0.0',
    target: { kind: 'shout', settings: {}, mapping: { text: 'text' } },
    evaluators: [{ evaluator_id, reference_column: 'expected' }],
  });
  await expect
    .poll(async () => (await ev('experiments/get', { experiment_id })).experiment.status, { timeout: 15_000 })
    .toBe('success');
  const r = await ev('experiments/get', { experiment_id });
  expect(r.experiment).toMatchObject({ total: 4, finished: 4, failed: 0 });
  expect(r.results.map((x: { output: string }) => x.output)).toEqual(['HI', 'YO', 'OK', 'UP']);
  expect(r.aggregates[0]).toMatchObject({ name: 'Exact', count: 4, mean: 0.75, min: 0, max: 1 });
});

it('refuses an experiment over a version the set does not have', async () => {
  const { set_id } = await ev('sets/create', { name: 'Empty', columns: [{ name: 'text' }] });
  const r = await t.request({
    method: 'POST',
    url: '/api/evaluation/v1/experiments/create',
    body: {
      space_id: 's1',
      name: 'X',
      set_id,
      set_version: '9.9.9',
      target: { kind: 'shout', settings: {}, mapping: {} },
      evaluators: [],
    },
    as: 'ann',
  });
  expect(r.status).toBe(400);
});
