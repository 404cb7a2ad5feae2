import { afterAll, beforeAll, expect, it } from 'vitest';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { signUp } from '../agent.ts';
import { link, node, ref, unique } from '../workflow-kit.ts';

let studio: RunningStudio;
beforeAll(async () => {
  studio = await startStudio();
});
afterAll(() => studio.close());

const v = (name: string, scope: 'user' | 'app', varName: string) => ({
  name,
  type: 'string',
  value: { kind: 'var', scope, name: varName },
});

it('Assign Variable writes user variables that later nodes and later runs read; app variables are shared in the space', async () => {
  const ann = await signUp(studio.url);
  const space = (await ann.agent.post('/api/space/create', { name: 'Vars' })).space_id;
  const api = (p: string, body: Record<string, unknown>) =>
    ann.agent.post(`/api/workflow_api/${p}`, { space_id: space, ...body });
  const { workflow_id } = await api('create', { name: unique('remember') });
  await api('save', {
    workflow_id,
    schema: {
      nodes: [
        node('start', '1', { outputs: [{ name: 'name', type: 'string' }] }),
        node('before', '15', {
          inputs: [v('prev', 'user', 'last_name')],
          settings: { mode: 'concat', template: '{{prev}}' },
        }),
        node('assign', '40', { inputs: [ref('last_name', 'start', ['name'])], settings: { scope: 'user' } }),
        node('end', '2', {
          inputs: [
            ref('previous', 'before', ['output']),
            v('now', 'user', 'last_name'),
            v('greeting', 'app', 'greeting'),
          ],
        }),
      ],
      links: [link('start', 'before'), link('before', 'assign'), link('assign', 'end')],
    },
  });
  await ann.agent.post('/api/variables/set', { space_id: space, scope: 'app', name: 'greeting', value: 'Welcome' });
  const first = await api('test_run', { workflow_id, input: { name: 'Ada' }, run_mode: 0 });
  expect(JSON.parse(first.output)).toEqual({ previous: '', now: 'Ada', greeting: 'Welcome' });
  const second = await api('test_run', { workflow_id, input: { name: 'Grace' }, run_mode: 0 });
  expect(JSON.parse(second.output)).toEqual({ previous: 'Ada', now: 'Grace', greeting: 'Welcome' });
  expect((await ann.agent.post('/api/variables/list', { space_id: space, scope: 'user' })).variables).toEqual([
    { name: 'last_name', value: 'Grace' },
  ]);

  // Another member sees the app variable but has user variables of their own.
  const bob = await signUp(studio.url);
  await ann.agent.post('/api/space/member/add', { space_id: space, user_ids: [bob.user.user_id] });
  expect((await bob.agent.post('/api/variables/list', { space_id: space, scope: 'app' })).variables).toEqual([
    { name: 'greeting', value: 'Welcome' },
  ]);
  expect((await bob.agent.post('/api/variables/list', { space_id: space, scope: 'user' })).variables).toEqual([]);
  const bad = await bob.agent.request('POST', '/api/variables/set', {
    space_id: space,
    scope: 'user',
    name: '9lives',
    value: 1,
  });
  expect(bad.status).toBe(400);
  expect(bad.body.msg).toMatch(/^Invalid request: name: /);
});
