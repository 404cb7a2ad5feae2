import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { PromptsService, PromptVersionSources, type Prompts } from '@tessera/ext-prompts/shared';
import { SpacesService, type Spaces } from '@tessera/ext-spaces/shared';
import type { ServerContext } from '@tessera/sdk/server';
import releases from '../src/server/index.ts';
import { bucketOf } from '../src/server/gray.ts';

// Prompt releases alone: a stand-in prompts extension has two prompts with three versions each and asks the release
// extension (through PromptVersionSources) what an environment serves; spaces name ann the owner, bob and cy members.
let t: ExtensionTester;
let prompts: ServerContext;
const ROLES: Record<string, 1 | 2 | 3> = { ann: 1, bob: 3, cy: 3 };
const PROMPTS = [
  { prompt_id: 'p1', prompt_key: 'greeting', name: 'Greeting', latest_version: '0.0.3' },
  { prompt_id: 'p2', prompt_key: 'summary', name: 'Summary', latest_version: '0.0.3' },
];
const VERSIONS = ['0.0.3', '0.0.2', '0.0.1'].map((version) => ({ version, has_model: true }));

beforeAll(async () => {
  t = await createExtensionTester(releases, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [
      { id: 'identity' },
      {
        id: 'spaces',
        register(ctx) {
          ctx.provide(SpacesService, {
            roleOf: async (space: string, user: string) => (space === 's1' ? ROLES[user] : undefined),
          } as Partial<Spaces> as Spaces);
        },
      },
      {
        id: 'prompts',
        register(ctx) {
          prompts = ctx;
          ctx.provide(PromptsService, {
            byId: async (space: string, id: string) =>
              space === 's1' ? PROMPTS.find((p) => p.prompt_id === id) : undefined,
            versions: async (_space: string, key: string) =>
              PROMPTS.some((p) => p.prompt_key === key) ? { versions: VERSIONS, labels: [] } : undefined,
          } as Partial<Prompts> as Prompts);
        },
      },
    ],
    users: { ann: { userId: 'ann' }, bob: { userId: 'bob' }, cy: { userId: 'cy' }, eve: { userId: 'eve' } },
    spaces: { s1: { ann: 'owner', bob: 'member', cy: 'member' }, s2: { eve: 'owner' } },
  });
});
afterAll(() => t.close());

const V1 = '/api/devops/prompt_platform/v1';
const post = (p: string, body: Record<string, unknown>, as = 'bob') =>
  t.request({ method: 'POST', url: `${V1}/${p}`, body: { space_id: 's1', ...body }, as });
const ok = async (p: string, body: Record<string, unknown>, as = 'bob') =>
  t.call('POST', `${V1}/${p}`, { space_id: 's1', ...body }, as);
/** What the prompts extension would hear for an environment and a caller. */
const served = (promptId: string, env: string, caller?: string) =>
  prompts.registry(PromptVersionSources).list()[0].resolve({ spaceId: 's1', promptId, env, caller });

describe('prompt releases', () => {
  it('release to production waits for an approver other than who asked; rejected needs a reason; approved is served', async () => {
    // The defaults: dev and staging free, production approved by the space's owner and administrators.
    const { config } = await ok('release_approval_config/get', {});
    expect(config.envs.map((e: { env: string }) => e.env)).toEqual(['dev', 'staging', 'production']);
    expect(await ok('release_task/list_approvers', { env: 'production' })).toEqual({
      need_approval: true,
      approvers: [],
      admins_approve: true,
    });

    const dev = (
      await ok('release_task/create', { env: 'dev', release_resources: [{ prompt_id: 'p1', version: '0.0.2' }] })
    ).task;
    expect(dev).toMatchObject({ status: 'done', subtasks: [{ subtask_key: 'full', status: 'done' }] });
    expect(await served('p1', 'dev')).toBe('0.0.2');

    const asked = (
      await ok('release_task/create', {
        env: 'production',
        release_resources: [{ prompt_id: 'p1', version: '0.0.2' }],
        comment: 'New greeting',
      })
    ).task;
    expect(asked).toMatchObject({ status: 'waiting_approval', can_approve: false, can_cancel: true });
    expect(await served('p1', 'production')).toBeUndefined();
    // A member is not an approver; the owner is, and sees it in the inbox.
    expect((await post('release_task/approve', { task_id: asked.task_id, approve: true }, 'cy')).status).toBe(403);
    const inbox = await ok('release_task/list', { to_approve: true }, 'ann');
    expect(inbox.tasks.map((x: { task_id: string }) => x.task_id)).toEqual([asked.task_id]);
    expect((await ok('release_task/list', { to_approve: true }, 'cy')).tasks).toEqual([]);
    const approved = (await ok('release_task/approve', { task_id: asked.task_id, approve: true }, 'ann')).task;
    expect(approved).toMatchObject({ status: 'done', decisions: [{ user_id: 'ann', approve: true }] });
    expect(await served('p1', 'production')).toBe('0.0.2');
    expect((await post('release_task/approve', { task_id: asked.task_id, approve: true }, 'ann')).body.msg).toMatch(
      /waits for no decision/,
    );

    // The owner's own release waits for someone else (four eyes); a rejection says why.
    const own = (
      await ok(
        'release_task/create',
        { env: 'production', release_resources: [{ prompt_id: 'p1', version: '0.0.3' }] },
        'ann',
      )
    ).task;
    expect(own.can_approve).toBe(false);
    expect((await post('release_task/approve', { task_id: own.task_id, approve: true }, 'ann')).body.msg).toMatch(
      /Someone else approves your own release/,
    );
    // Named approvers replace the administrators.
    await ok('release_approval_config/update', { config: { ...config, approvers: ['cy'] } }, 'ann');
    expect((await post('release_task/approve', { task_id: own.task_id, approve: false }, 'cy')).body.msg).toMatch(
      /Say why/,
    );
    const rejected = (
      await ok('release_task/approve', { task_id: own.task_id, approve: false, reason: 'Not this week' }, 'cy')
    ).task;
    expect(rejected).toMatchObject({
      status: 'rejected',
      decisions: [{ user_id: 'cy', approve: false, reason: 'Not this week' }],
    });
    expect(await served('p1', 'production')).toBe('0.0.2');
    await ok('release_approval_config/update', { config }, 'ann');
  });

  it('gray release serves its share of 1,000 callers, each always the same version, and its listed users; then all', async () => {
    await ok('release_task/create', { env: 'staging', release_resources: [{ prompt_id: 'p2', version: '0.0.1' }] });
    const gray = (
      await ok('release_task/create', {
        env: 'staging',
        release_resources: [{ prompt_id: 'p2', version: '0.0.3' }],
        gray_release_config: { percentage: 30, user_ids: ['vip'] },
      })
    ).task;
    expect(gray).toMatchObject({
      status: 'in_gray',
      subtasks: [
        { subtask_key: 'gray', status: 'done' },
        { subtask_key: 'full', status: 'pending' },
      ],
    });
    const callers = Array.from({ length: 1000 }, (_, i) => `user-${i}`);
    const first = await Promise.all(callers.map((c) => served('p2', 'staging', c)));
    const share = first.filter((v) => v === '0.0.3').length;
    expect(share).toBeGreaterThan(250);
    expect(share).toBeLessThan(350);
    expect(await Promise.all(callers.map((c) => served('p2', 'staging', c)))).toEqual(first);
    expect(first.every((v, i) => v === (bucketOf(gray.task_id, callers[i]) < 3000 ? '0.0.3' : '0.0.1'))).toBe(true);
    expect(await served('p2', 'staging', 'vip')).toBe('0.0.3');
    expect(await served('p2', 'staging')).toBe('0.0.1');
    expect(await ok('release/preview', { prompt_id: 'p2', env: 'staging', user_id: 'vip' })).toEqual({
      version: '0.0.3',
      gray: true,
    });

    // A wider share keeps everyone already in it (the same hash, a higher bound).
    await ok('release_task/trigger_subtask', {
      task_id: gray.task_id,
      subtask_key: 'gray',
      gray_release_config: { percentage: 60, user_ids: [] },
    });
    const wider = await Promise.all(callers.map((c) => served('p2', 'staging', c)));
    expect(first.every((v, i) => v !== '0.0.3' || wider[i] === '0.0.3')).toBe(true);
    expect(wider.filter((v) => v === '0.0.3').length).toBeGreaterThan(550);
    // vip is no longer listed: the share alone decides.
    expect(await served('p2', 'staging', 'vip')).toBe(bucketOf(gray.task_id, 'vip') < 6000 ? '0.0.3' : '0.0.1');

    const info = (await ok('release/info_list', { prompt_id: 'p2' })).envs.find(
      (e: { env: string }) => e.env === 'staging',
    );
    expect(info).toMatchObject({ version: '0.0.1', gray_release_config: { version: '0.0.3', percentage: 60 } });

    const full = (await ok('release_task/trigger_subtask', { task_id: gray.task_id, subtask_key: 'full' })).task;
    expect(full.status).toBe('done');
    expect(new Set(await Promise.all(callers.map((c) => served('p2', 'staging', c))))).toEqual(new Set(['0.0.3']));
    const after = (await ok('release/info_list', { prompt_id: 'p2' })).envs.find(
      (e: { env: string }) => e.env === 'staging',
    );
    expect(after).toMatchObject({ version: '0.0.3', previous_version: '0.0.1', gray_release_config: null });
  });

  it('cancels a gray release and rolls back a release while it is live; a later one must be rolled back first', async () => {
    await ok('release_task/create', { env: 'dev', release_resources: [{ prompt_id: 'p2', version: '0.0.1' }] });
    const gray = (
      await ok('release_task/create', {
        env: 'dev',
        release_resources: [{ prompt_id: 'p2', version: '0.0.2' }],
        gray_release_config: { percentage: 100, user_ids: [] },
      })
    ).task;
    expect(await served('p2', 'dev', 'someone')).toBe('0.0.2');
    expect((await ok('release_task/cancel', { task_id: gray.task_id })).task.status).toBe('cancelled');
    expect(await served('p2', 'dev', 'someone')).toBe('0.0.1');

    const second = (
      await ok('release_task/create', { env: 'dev', release_resources: [{ prompt_id: 'p2', version: '0.0.2' }] })
    ).task;
    const third = (
      await ok('release_task/create', { env: 'dev', release_resources: [{ prompt_id: 'p2', version: '0.0.3' }] })
    ).task;
    expect((await post('release_task/rollback', { task_id: second.task_id })).body.msg).toMatch(
      /roll that one back first/,
    );
    // A gray release under way on top of the third: roll that back only once it is released to all or cancelled.
    const over = (
      await ok('release_task/create', {
        env: 'dev',
        release_resources: [{ prompt_id: 'p2', version: '0.0.1' }],
        gray_release_config: { percentage: 50, user_ids: [] },
      })
    ).task;
    expect((await post('release_task/rollback', { task_id: third.task_id })).body.msg).toMatch(
      /Another release is in gray in dev/,
    );
    await ok('release_task/cancel', { task_id: over.task_id });
    expect((await ok('release_task/rollback', { task_id: third.task_id })).task.status).toBe('rolled_back');
    expect(await served('p2', 'dev')).toBe('0.0.2');
    // Roll back by environment: the version live before comes back, without an approval.
    const back = (await ok('release/rollback', { prompt_id: 'p2', env: 'dev' })).task;
    expect(back).toMatchObject({
      trigger_operation: 'rollback',
      status: 'done',
      release_resources: [{ version: '0.0.1' }],
    });
    expect(await served('p2', 'dev')).toBe('0.0.1');
    // Offline: nothing is served.
    await ok('release_task/create', {
      env: 'dev',
      trigger_operation: 'offline',
      release_resources: [{ prompt_id: 'p2' }],
    });
    expect(await served('p2', 'dev')).toBeUndefined();
    const history = await ok('release_task/list', { prompt_id: 'p2' });
    expect(history.tasks[0]).toMatchObject({ trigger_operation: 'offline', status: 'done' });
    expect(history.total).toBeGreaterThanOrEqual(7);
  });

  it('refuses what cannot be released, another space, and configuration by a member, each with why', async () => {
    expect(
      (await post('release_task/create', { env: 'moon', release_resources: [{ prompt_id: 'p1', version: '0.0.1' }] }))
        .body.msg,
    ).toMatch(/no environment moon: choose one of dev, staging, production/);
    expect(
      (await post('release_task/create', { env: 'dev', release_resources: [{ prompt_id: 'p1', version: '9.9.9' }] }))
        .body.msg,
    ).toMatch(/greeting has no version 9\.9\.9/);
    expect(
      (await post('release_task/create', { env: 'dev', release_resources: [{ prompt_id: 'nope', version: '0.0.1' }] }))
        .status,
    ).toBe(404);
    expect(
      (
        await post('release_task/create', {
          env: 'dev',
          release_resources: [{ prompt_id: 'p1', version: '0.0.1' }],
          gray_release_config: { percentage: 0, user_ids: [] },
        })
      ).body.msg,
    ).toMatch(/share above 0 or some users/);
    // In the caller's language.
    const zh = await t.request({
      method: 'POST',
      url: `${V1}/release_task/create`,
      body: { space_id: 's1', env: 'moon', release_resources: [{ prompt_id: 'p1', version: '0.0.1' }] },
      headers: { 'accept-language': 'zh-CN' },
      as: 'bob',
    });
    expect(zh.body.msg).toBe('此空间没有环境 moon：请从 dev, staging, production 中选择。');
    expect((await post('release_task/list', {}, 'eve')).status).toBe(403);
    const { config } = await ok('release_approval_config/get', {});
    expect((await post('release_approval_config/update', { config }, 'bob')).status).toBe(403);
    expect(
      (await post('release_approval_config/update', { config: { ...config, approvers: ['eve'] } }, 'ann')).body.msg,
    ).toMatch(/eve is not a member of this space/);
    expect(
      (
        await post(
          'release_approval_config/update',
          { config: { ...config, envs: [config.envs[0], config.envs[0]] } },
          'ann',
        )
      ).status,
    ).toBe(400);
  });
});
