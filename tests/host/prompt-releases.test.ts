import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type Agent } from '../agent.ts';
import { startStudio, type RunningStudio } from '../helpers.ts';

// Prompt releases with the prompts extension: an app holding a token asks for a prompt by environment (and the end
// user it serves) through Coze Loop's mget and render calls, and gets what the environment's releases say: nothing
// before a release, the approved version after, a gray version for its share of callers, the same caller always the
// same; every change is in the space's audit log.
let studio: RunningStudio;
let owner: Agent;
let member: Agent;
let space: string;
let token: string;
let promptId: string;

const base = '/api/prompt/v1/prompts';
const V1 = '/api/devops/prompt_platform/v1';
const open = async (path: string, body: Record<string, unknown>) => {
  const r = await fetch(`${studio.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ workspace_id: space, ...body }),
  });
  const json: any = await r.json();
  // The open API's envelope: code and msg, the answer in data.
  return { status: r.status, body: { ...json, ...json.data } };
};
const commit = async (system: string) => {
  await owner.post(`${base}/${promptId}/drafts/save`, {
    prompt_draft: {
      detail: {
        prompt_template: {
          template_type: 'normal',
          messages: [
            { role: 'system', content: system },
            { role: 'user', content: '{{question}}' },
          ],
          variable_defs: [{ key: 'question' }],
        },
      },
    },
  });
  return (await owner.post(`${base}/${promptId}/drafts/commit`, {})).version as string;
};

beforeAll(async () => {
  studio = await startStudio();
  owner = (await signUp(studio.url)).agent;
  const m = await signUp(studio.url);
  member = m.agent;
  space = (await owner.post('/api/space/create', { name: 'Releases' })).space_id;
  await owner.post('/api/space/member/add', { space_id: space, user_ids: [m.user.user_id] });
  token = (
    await owner.post('/api/permission_api/pat/create', {
      name: 'app',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['prompt.read'] }],
    })
  ).token;
  promptId = (await owner.post(base, { workspace_id: space, prompt_key: 'support.reply', prompt_name: 'Reply' }))
    .prompt_id;
});
afterAll(() => studio?.close());

describe('prompt releases through the open API', () => {
  it('serves what production released once approved, a gray share to its callers, and names what is missing', async () => {
    const v1 = await commit('You answer politely.');
    const v2 = await commit('You answer briefly.');
    const fetchFor = (user_id?: string) =>
      open('/v1/loop/prompts/mget', { queries: [{ prompt_key: 'support.reply', env: 'production', user_id }] });
    // Nothing released yet: a not-found that says so; an environment the space lacks, the same.
    expect(await fetchFor('u1')).toMatchObject({
      status: 404,
      body: { msg: 'No version of support.reply is released to production.' },
    });
    expect(
      (await open('/v1/loop/prompts/mget', { queries: [{ prompt_key: 'support.reply', env: 'moon' }] })).body.msg,
    ).toBe('No version of support.reply is released to moon.');

    // The member asks; the owner (an administrator of the space) approves; production serves it.
    const asked = (
      await member.post(`${V1}/release_task/create`, {
        space_id: space,
        env: 'production',
        release_resources: [{ prompt_id: promptId, version: v1 }],
        comment: 'first',
      })
    ).task;
    expect(asked.status).toBe('waiting_approval');
    expect((await fetchFor('u1')).status).toBe(404);
    await owner.post(`${V1}/release_task/approve`, { space_id: space, task_id: asked.task_id, approve: true });
    expect((await fetchFor('u1')).body.items[0].prompt).toMatchObject({ prompt_key: 'support.reply', version: v1 });

    // A gray release of v2 to 30 %: its share of 1,000 callers, each the same version on every call.
    const gray = (
      await member.post(`${V1}/release_task/create`, {
        space_id: space,
        env: 'production',
        release_resources: [{ prompt_id: promptId, version: v2 }],
        gray_release_config: { percentage: 30 },
      })
    ).task;
    await owner.post(`${V1}/release_task/approve`, { space_id: space, task_id: gray.task_id, approve: true });
    const callers = Array.from({ length: 1000 }, (_, i) => `end-user-${i}`);
    const versionsOf = async () => {
      const out: string[] = [];
      for (let i = 0; i < callers.length; i += 50) {
        const r = await open('/v1/loop/prompts/mget', {
          queries: callers
            .slice(i, i + 50)
            .map((user_id) => ({ prompt_key: 'support.reply', env: 'production', user_id })),
        });
        out.push(...r.body.items.map((x: { prompt: { version: string } }) => x.prompt.version));
      }
      return out;
    };
    const first = await versionsOf();
    const share = first.filter((v) => v === v2).length / 1000;
    expect(share).toBeGreaterThan(0.25);
    expect(share).toBeLessThan(0.35);
    expect(await versionsOf()).toEqual(first);
    // Render follows the same rule, for the same caller.
    const graySample = callers[first.indexOf(v2)];
    const rendered = await open('/v1/loop/prompts/render', {
      prompt_key: 'support.reply',
      env: 'production',
      user_id: graySample,
      variables: { question: 'Where is my order?' },
    });
    expect(rendered.body).toMatchObject({ version: v2, messages: [{ content: 'You answer briefly.' }, {}] });
    // No caller named: the version everyone gets.
    expect((await fetchFor()).body.items[0].prompt.version).toBe(v1);
    // A version or a label asked for still wins over the environment.
    expect(
      (
        await open('/v1/loop/prompts/mget', {
          queries: [{ prompt_key: 'support.reply', version: v1, env: 'production' }],
        })
      ).body.items[0].prompt.version,
    ).toBe(v1);
  });

  it('keeps every change in the space’s audit log, and lets no one outside the space see or change a release', async () => {
    const events = (await owner.post('/api/audit/events/list', { space_id: space, action: 'prompt.release' })).events;
    const actions = events.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['prompt.release.create', 'prompt.release.decide']));
    const stranger = (await signUp(studio.url)).agent;
    const r = await stranger.request('POST', `${V1}/release/info_list`, { space_id: space, prompt_id: promptId });
    expect(r.status).toBe(403);
    const approve = await stranger.request('POST', `${V1}/release_task/list`, { space_id: space, to_approve: true });
    expect(approve.status).toBe(403);
  });
});
