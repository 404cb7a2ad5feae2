import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { ResourceKinds, type ServerContext } from '@tessera/sdk/server';
import { ChatFinished } from '@tessera/ext-bots/shared';
import { WorkflowRunFinished } from '@tessera/workflow-sdk';
import analytics from '../src/server/index.ts';

// Analytics alone: stand-ins raise runs' and chats' ends as the workflow and bots extensions do, and name their
// resources; the counts are read back by day, by resource and by channel.
let workflows: ServerContext;
let t: ExtensionTester;
beforeAll(async () => {
  t = await createExtensionTester(analytics, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [
      { id: 'identity' },
      { id: 'spaces' },
      {
        id: 'workflow',
        register(ctx) {
          workflows = ctx;
          ctx.register(ResourceKinds, {
            kind: 'workflow',
            list: async (q) =>
              (q.ids ?? []).map((id) => ({
                kind: 'workflow',
                id,
                space_id: q.spaceId,
                name: `Workflow ${id}`,
                description: '',
                icon_uri: '',
                creator_id: 'ann',
                created_at: 0,
                updated_at: 0,
              })),
          });
        },
      },
    ],
    users: { ann: { userId: 'ann' }, bob: { userId: 'bob' } },
    spaces: { s1: { ann: 'member' }, s2: { bob: 'member' } },
  });
});
afterAll(() => t.close());

const today = new Date().toISOString().slice(0, 10);
const run = (workflowId: string, extra: Record<string, unknown>) =>
  workflows.emit(WorkflowRunFinished, {
    execute_id: 'x',
    workflow_id: workflowId,
    space_id: 's1',
    status: 2,
    duration_ms: 40,
    execute_mode: 2,
    user_id: 'ann',
    ...extra,
  });

describe('usage analytics', () => {
  it("counts the space's runs and chats per day, by resource and channel, with errors, tokens, latency and users; not the editor's test runs or debug chats", async () => {
    run('w1', { connector_id: '1024', connector_uid: 'end-user-1', input_tokens: 10, output_tokens: 5 });
    run('w1', { connector_id: '1024', connector_uid: 'end-user-2', status: 3, duration_ms: 900 });
    run('w1', { connector_id: '1024', connector_uid: 'end-user-1' });
    run('w2', { input_tokens: 100 });
    run('w2', { execute_mode: 1 }); // a test run in the editor
    workflows.emit(ChatFinished, {
      chat_id: 'c1',
      bot_id: 'b1',
      space_id: 's1',
      conversation_id: 'v1',
      status: 'completed',
      input_tokens: 7,
      output_tokens: 3,
      duration_ms: 1200,
      user_id: 'end-user-3',
      connector_id: '999',
      version: '1.0.0',
    });
    // The editor's debug chat (the draft answers).
    workflows.emit(ChatFinished, {
      chat_id: 'c2',
      bot_id: 'b1',
      space_id: 's1',
      conversation_id: 'v2',
      status: 'completed',
      input_tokens: 1000,
      output_tokens: 1000,
      duration_ms: 10,
      user_id: 'ann',
      version: null,
    });
    workflows.emit(WorkflowRunFinished, {
      execute_id: 'y',
      workflow_id: 'w9',
      space_id: 's2',
      status: 2,
      duration_ms: 1,
    });
    const series = async () =>
      t.call('GET', `/api/data/analytics?space_id=s1&from=${today}&to=${today}`, undefined, 'ann');
    await expect.poll(async () => (await series()).totals.runs, { timeout: 5000 }).toBe(4);
    const s = await series();
    expect(s.totals).toEqual({
      runs: 4,
      chats: 1,
      errors: 1,
      input_tokens: 117,
      output_tokens: 8,
      p50_ms: 50,
      p95_ms: 2500,
      active_users: 4,
    });
    expect(s.days).toEqual([{ date: today, ...s.totals }]);
    const w1 = await t.call(
      'GET',
      `/api/data/analytics?space_id=s1&kind=workflow&resource_id=w1&from=${today}&to=${today}`,
      undefined,
      'ann',
    );
    expect(w1.totals).toMatchObject({ runs: 3, errors: 1, active_users: 2, p95_ms: 1000 });

    const byResource = (
      await t.call('GET', `/api/data/details?space_id=s1&from=${today}&to=${today}`, undefined, 'ann')
    ).rows;
    expect(
      byResource.map((r: { resource_id: string; name: string; runs: number; chats: number }) => [
        r.resource_id,
        r.name,
        r.runs + r.chats,
      ]),
    ).toEqual([
      ['w1', 'Workflow w1', 3],
      ['b1', '', 1],
      ['w2', 'Workflow w2', 1],
    ]);
    const byConnector = (
      await t.call(
        'GET',
        `/api/data/details?space_id=s1&group_by=connector&from=${today}&to=${today}`,
        undefined,
        'ann',
      )
    ).rows;
    expect(
      byConnector.map((r: { connector_id: string; active_users: number }) => [r.connector_id, r.active_users]).sort(),
    ).toEqual([
      ['', 1],
      ['1024', 2],
      ['999', 1],
    ]);
  });

  it('fills a period day by day and refuses one that runs backwards or is too long', async () => {
    const week = await t.call('GET', '/api/data/analytics?space_id=s1&from=2026-01-01&to=2026-01-07', undefined, 'ann');
    expect(week.days.map((d: { date: string }) => d.date)).toEqual([
      '2026-01-01',
      '2026-01-02',
      '2026-01-03',
      '2026-01-04',
      '2026-01-05',
      '2026-01-06',
      '2026-01-07',
    ]);
    expect(week.totals.runs).toBe(0);
    const back = await t.request({ url: '/api/data/analytics?space_id=s1&from=2026-02-01&to=2026-01-01', as: 'ann' });
    expect(back.status).toBe(400);
    expect(back.body.msg).toBe('The period 2026-02-01 to 2026-01-01 is empty: "from" comes first.');
    expect(
      (await t.request({ url: '/api/data/analytics?space_id=s1&from=2024-01-01&to=2026-01-01', as: 'ann' })).body.msg,
    ).toBe('Ask for at most 366 days at once.');
  });

  it("shows a space's usage to its members only", async () => {
    expect((await t.request({ url: '/api/data/analytics?space_id=s1', as: 'bob' })).status).toBe(403);
    expect((await t.request({ url: '/api/data/details?space_id=s1' })).status).toBe(401);
  });
});
