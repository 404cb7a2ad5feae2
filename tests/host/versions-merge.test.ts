import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, signUp } from '../agent.ts';
import { draftBot, readSse } from '../bots-kit.ts';
import { bucketOf } from '../../extensions/bots/src/server/releases.ts';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { greetingCanvas, unique } from '../workflow-kit.ts';

// Versions compared and saves from an older draft merged (issue 35): bots (bot_diff, bot_diff_3way, bot_merge) and
// workflows (diff, merge_3way), field by field, through the studio's calls.
let studio: RunningStudio;
let llm: FakeLlm;
let owner: Agent;
let space: string;
let model: string;
beforeAll(async () => {
  llm = await startFakeLlm();
  studio = await startStudio();
  owner = (await signUp(studio.url)).agent;
  space = (await owner.post('/api/space/create', { name: 'Versions' })).space_id;
  model = await addFakeModel(owner, llm.url);
});
afterAll(async () => {
  await studio.close();
  await llm.close();
});

const post = (p: string, body: Record<string, unknown> = {}) => owner.post(p, { space_id: space, ...body });
const raw = (p: string, body: Record<string, unknown>) => owner.request('POST', p, { space_id: space, ...body });

describe('bot versions', () => {
  async function bot() {
    const bot_id = await draftBot(owner, space, { name: unique('merger'), model });
    const info = (await post('/api/playground_api/draftbot/get_draft_bot_info', { bot_id })).bot_info;
    return { bot_id, info };
  }
  const sideOf = (b: any) => ({ name: b.name, description: b.description, config: b.config });

  it('compares a version with the draft field by field, as a table and as text', async () => {
    const { bot_id, info } = await bot();
    await post('/api/draftbot/publish', { bot_id, connectors: ['1024'] });
    await post('/api/playground_api/draftbot/update_draft_bot_info', {
      bot_id,
      base_revision: info.revision,
      description: 'Now described',
      config: { ...info.config, settings: { ...info.config.settings, prompt: 'You help kindly.' } },
    });
    const { history_infos } = await post('/api/draftbot/list_draft_history', { bot_id });
    const d = await post('/api/playground_api/draftbot/bot_diff', { bot_id, left_version: history_infos[0].version });
    expect(d.diff.map((e: any) => [e.kind, e.key])).toEqual([['changed', 'config/settings/prompt']]);
    expect(d.text).toContain('~ config/settings/prompt: "You help." → "You help kindly."');
    expect((await raw('/api/playground_api/draftbot/bot_diff', { bot_id, left_version: 'v9.9.9' })).status).toBe(404);
  });

  it('merges a save from an older draft: what does not clash by itself, the rest by the person’s choice', async () => {
    const { bot_id, info } = await bot();
    const base = sideOf(info);
    // A teammate saves: a new description and another prompt.
    const theirs = await post('/api/playground_api/draftbot/update_draft_bot_info', {
      bot_id,
      base_revision: info.revision,
      description: 'Theirs',
      config: { ...info.config, settings: { ...info.config.settings, prompt: 'Their prompt.' } },
    });
    // This person's save, made from the older draft, is refused...
    const ours = {
      ...base,
      name: `${base.name} renamed`,
      config: { ...info.config, settings: { ...info.config.settings, prompt: 'My prompt.' } },
    };
    const refused = await raw('/api/playground_api/draftbot/update_draft_bot_info', {
      bot_id,
      base_revision: info.revision,
      name: ours.name,
      config: ours.config,
    });
    expect(refused.status).toBe(409);
    // ... and merged: the name and the description merge; the prompt both changed is a conflict.
    const m = await post('/api/playground_api/draftbot/bot_diff_3way', { bot_id, base, ours });
    expect(m.conflicts.map((c: any) => [c.key, c.ours, c.theirs])).toEqual([
      ['config/settings/prompt', 'My prompt.', 'Their prompt.'],
    ]);
    expect(m.merged).toMatchObject({ name: ours.name, description: 'Theirs' });
    expect(m.theirs_revision).toBe(theirs.bot_info.revision);
    const saved = await post('/api/playground_api/draftbot/bot_merge', {
      bot_id,
      base,
      ours,
      choices: { 'config/settings/prompt': 'ours' },
      theirs_revision: m.theirs_revision,
    });
    expect(saved.bot_info).toMatchObject({ name: ours.name, description: 'Theirs' });
    expect(saved.bot_info.config.settings.prompt).toBe('My prompt.');
    // A merge over a draft that moved on again is refused.
    const stale = await raw('/api/playground_api/draftbot/bot_merge', {
      bot_id,
      base,
      ours,
      theirs_revision: m.theirs_revision,
    });
    expect(stale.status).toBe(409);
    // Without a base it says what is missing.
    const noBase = await raw('/api/playground_api/draftbot/bot_diff_3way', { bot_id, ours });
    expect(noBase.status).toBe(400);
    expect(noBase.body.msg).toMatch(/base/);
  });
});

describe('workflow versions', () => {
  const wf = (p: string, body: Record<string, unknown>) => post(`/api/workflow_api/${p}`, body);
  const canvasOf = async (workflow_id: string) => {
    const w = (await wf('canvas', { workflow_id })).workflow;
    return { canvas: JSON.parse(w.schema_json), revision: w.revision as number };
  };
  const titled = (c: any, id: string, title: string) => ({
    ...c,
    nodes: c.nodes.map((n: any) => (n.node_id === id ? { ...n, node_param: { ...n.node_param, title } } : n)),
  });

  it('compares a published version with the draft, and merges a save from an older draft', async () => {
    const { workflow_id } = await wf('create', { name: unique('merged') });
    await wf('save', { workflow_id, schema: greetingCanvas() });
    await wf('publish', { workflow_id, workflow_version: 'v1.0.0', force: true });
    const { canvas: base, revision } = await canvasOf(workflow_id);
    // A teammate renames Greet and removes the Anonymous node (and so its links).
    const theirs = titled(
      {
        ...base,
        nodes: base.nodes.filter((n: any) => n.node_id !== 'anon'),
        links: base.links.filter((l: any) => l.from_node_id !== 'anon' && l.to_node_id !== 'anon'),
      },
      'greet',
      'Their greet',
    );
    await wf('save', { workflow_id, schema: theirs, base_revision: revision });
    // What the draft changes against the published version.
    const { version_list } = await wf('version_list', { workflow_id });
    const d = await wf('diff', { workflow_id, left_commit_id: version_list[0].commit_id });
    expect(d.diff.map((e: any) => `${e.kind} ${e.key}`)).toEqual([
      'changed nodes/greet/node_param/title',
      'removed nodes/anon',
      'removed links/if:false->anon',
      'removed links/anon:default->agg',
    ]);
    // This person, from the older draft, renamed Greet too and edited Anonymous.
    const ours = titled(titled(base, 'greet', 'My greet'), 'anon', 'Nobody');
    const m = await wf('merge_3way', { workflow_id, base, ours });
    expect(m.conflicts.map((c: any) => c.key)).toEqual(['nodes/greet/node_param/title', 'nodes/anon']);
    expect(m.theirs_revision).toBe(revision + 1);
    const bad = await raw('/api/workflow_api/merge_3way', { workflow_id, base: { nodes: 'x' }, ours });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/canvas base/);
  });
});

describe('several versions live on a connector', () => {
  it('serves a gray version to a share of the end users and a list of them, then to all, rolls back and takes one out', async () => {
    const bot_id = await draftBot(owner, space, { name: unique('gray'), model, prompt: 'Version one.' });
    await post('/api/draftbot/publish', { bot_id, connectors: ['1024'] });
    const info = (await post('/api/playground_api/draftbot/get_draft_bot_info', { bot_id })).bot_info;
    await post('/api/playground_api/draftbot/update_draft_bot_info', {
      bot_id,
      base_revision: info.revision,
      config: { ...info.config, settings: { ...info.config.settings, prompt: 'Version two.' } },
    });
    await post('/api/draftbot/publish', { bot_id, connectors: ['1024'] });
    const { history_infos } = await post('/api/draftbot/list_draft_history', { bot_id });
    const [v2, v1] = history_infos.map((h: any) => h.version as string);
    const pat = await owner.post('/api/permission_api/pat/create', {
      name: 'gray',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['bot.chat'] }],
    });
    /** The persona prompt that answered this end user on the API. */
    const promptFor = async (user: string) => {
      const res = await fetch(`${studio.url}/v3/chat`, {
        method: 'POST',
        headers: { authorization: `Bearer ${pat.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          bot_id,
          user_id: user,
          stream: true,
          additional_messages: [{ role: 'user', content: 'Hi', content_type: 'text' }],
        }),
      });
      await readSse(res);
      return llm.requests.at(-1)!.body.messages[0].content as string;
    };
    expect(await promptFor('anyone')).toBe('Version two.');

    // v2 in gray for 30% of the users and for "vip"; the others keep v1.
    const gray = await post('/api/devops/dp/update_gray', {
      bot_id,
      connector_id: '1024',
      version: v2,
      percentage: 30,
      user_ids: ['vip'],
    });
    expect(gray.connectors).toEqual([
      { connector_id: '1024', version: v1, pinned: true, gray: { version: v2, percentage: 30, user_ids: ['vip'] } },
    ]);
    const users = Array.from({ length: 40 }, (_, i) => `user-${i}`);
    for (const u of users)
      expect([u, await promptFor(u)]).toEqual([u, bucketOf(bot_id, u) < 30 ? 'Version two.' : 'Version one.']);
    const inGray = users.filter((u) => bucketOf(bot_id, u) < 30).length;
    expect(inGray).toBeGreaterThan(4);
    expect(inGray).toBeLessThan(24);
    expect(await promptFor('vip')).toBe('Version two.');
    // The same users stay in as the share grows.
    await post('/api/devops/dp/update_gray', { bot_id, connector_id: '1024', version: v2, percentage: 60 });
    for (const u of users.filter((x) => bucketOf(bot_id, x) < 30)) expect(await promptFor(u)).toBe('Version two.');

    // Full release, then a rollback to v1 for everyone.
    await post('/api/devops/dp/full_release', { bot_id, connector_id: '1024' });
    expect(await promptFor(users.find((u) => bucketOf(bot_id, u) >= 60)!)).toBe('Version two.');
    await post('/api/devops/dp/rollback', { bot_id, connector_id: '1024', version: v1 });
    expect(await promptFor('vip')).toBe('Version one.');
    // v1 taken out of service: the latest in service answers; it cannot come back.
    const out = await post('/api/devops/dp/inactivate', { bot_id, version: v1 });
    expect(out.versions.map((v: any) => [v.version, v.inactive])).toEqual([
      [v2, false],
      [v1, true],
    ]);
    expect(await promptFor('vip')).toBe('Version two.');
    const again = await raw('/api/devops/dp/rollback', { bot_id, connector_id: '1024', version: v1 });
    expect(again.status).toBe(400);
    expect(again.body.msg).toMatch(/taken out of service/);
    expect(
      (await raw('/api/devops/dp/update_gray', { bot_id, connector_id: '1024', version: v2, percentage: 10 })).body.msg,
    ).toMatch(/already answers everyone/);
    expect((await raw('/api/devops/dp/update_gray', { bot_id, connector_id: '1024', version: v2 })).status).toBe(400);
    await post('/api/devops/dp/record_changelog', { bot_id, version: v2, changelog: 'Kinder answers' });
    const { operations } = await post('/api/devops/dp/list_operation_histories', { bot_id });
    expect(operations.map((o: any) => o.type)).toEqual([
      'changelog',
      'inactivate',
      'rollback',
      'full_release',
      'gray',
      'gray',
      'publish',
      'publish',
    ]);
  });
});
