import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type Agent } from '../agent.ts';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { ROOT, startStudio, type RunningStudio } from '../helpers.ts';
import { greetingCanvas } from '../workflow-kit.ts';

// Projects: a group of a space's resources with history and rollback, copies across spaces, and versioned
// publishing of its resources with records.
let studio: RunningStudio;
let llm: FakeLlm;
let agent: Agent;
let space: string;
let workflowId: string;
let botId: string;
let tableId: string;
const api = (p: string, body: Record<string, unknown>) => agent.post(`/api/intelligence_api/${p}`, body);

beforeAll(async () => {
  llm = await startFakeLlm();
  studio = await startStudio();
  agent = (await signUp(studio.url)).agent;
  space = (await agent.post('/api/space/create', { name: 'Projects' })).space_id;
  workflowId = (await agent.post('/api/workflow_api/create', { space_id: space, name: 'greet flow' })).workflow_id;
  await agent.post('/api/workflow_api/save', { space_id: space, workflow_id: workflowId, schema: greetingCanvas() });
  const model = await addFakeModel(agent, llm.url);
  botId = (await agent.post('/api/draftbot/create', { space_id: space, name: 'greet bot' })).bot_id;
  const info = (await agent.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: space, bot_id: botId }))
    .bot_info;
  await agent.post('/api/playground_api/draftbot/update_draft_bot_info', {
    space_id: space,
    bot_id: botId,
    base_revision: info.revision,
    config: { ...info.config, settings: { prompt: 'Greet.', model: { model_id: model } } },
  });
  tableId = (
    await agent.post('/api/memory/database/add', {
      space_id: space,
      table_name: 'guests',
      field_list: [{ name: 'who', type: 1 }],
    })
  ).database_info.id;
});
afterAll(async () => {
  await studio?.close();
  await llm?.close();
});

describe('projects', () => {
  let projectId: string;

  it('groups resources of the space, keeps a history, and rolls back to an entry', async () => {
    projectId = (await api('draft_project/create', { space_id: space, name: 'Greeter app', description: 'greets' }))
      .project_id;
    expect(
      (
        await agent.request('POST', '/api/intelligence_api/draft_project/create', {
          space_id: space,
          name: 'greeter APP',
        })
      ).status,
    ).toBe(409);
    expect(
      await api('project/resource/add', {
        project_id: projectId,
        resources: [
          { res_type: 'workflow', res_id: workflowId },
          { res_type: 'bot', res_id: botId },
        ],
      }),
    ).toEqual({ added: 2 });
    const info = await api('search/get_draft_intelligence_info', { project_id: projectId });
    expect(info.resources.map((r: { name: string }) => r.name).sort()).toEqual(['greet bot', 'greet flow']);
    // A resource of another space is refused.
    const other = (await agent.post('/api/space/create', { name: 'Other' })).space_id;
    const foreign = (await agent.post('/api/workflow_api/create', { space_id: other, name: 'foreign' })).workflow_id;
    expect(
      (
        await agent.request('POST', '/api/intelligence_api/project/resource/add', {
          project_id: projectId,
          resources: [{ res_type: 'workflow', res_id: foreign }],
        })
      ).status,
    ).toBe(404);
    // Change it, then roll back to after the resources were added.
    await api('project/resource/add', { project_id: projectId, resources: [{ res_type: 'table', res_id: tableId }] });
    await api('draft_project/update', { project_id: projectId, name: 'Greeter app 2' });
    const history = (await api('draft_project/history_list', { project_id: projectId })).history;
    expect(history.map((h: { action: string }) => h.action)).toEqual(['update', 'add', 'add', 'create']);
    await api('draft_project/rollback', { project_id: projectId, history_id: history[2].history_id });
    const back = await api('search/get_draft_intelligence_info', { project_id: projectId });
    expect(back.project.name).toBe('Greeter app');
    expect(back.resources).toHaveLength(2);
    // Another user who is not a member cannot see or change it.
    const stranger = (await signUp(studio.url)).agent;
    expect(
      (
        await stranger.request('POST', '/api/intelligence_api/search/get_draft_intelligence_info', {
          project_id: projectId,
        })
      ).status,
    ).toBe(403);
  });

  it('publishes a version: checked to grow, each resource gets its next version, with records', async () => {
    expect(await api('publish/check_version_number', { project_id: projectId, version_number: 'one' })).toMatchObject({
      is_valid: false,
    });
    expect(
      (await api('publish/connector_list', { project_id: projectId })).connectors.map((c: { id: string }) => c.id),
    ).toEqual(['1024', '999', 'web-app']);
    const first = await api('publish/publish_project', {
      project_id: projectId,
      version_number: '1.0.0',
      connectors: ['1024'],
    });
    expect(first.status).toBe(1);
    expect(
      first.results
        .map((r: { res_type: string; status: string; version: string }) => [r.res_type, r.status, r.version])
        .sort(),
    ).toEqual([
      ['bot', 'published', 'v1.0.0'],
      ['workflow', 'published', 'v1.0.0'],
    ]);
    // The bot answers on the API now; the workflow has a version.
    expect(
      (await agent.post('/api/draftbot/list_draft_history', { space_id: space, bot_id: botId })).history_infos[0]
        .connectors,
    ).toEqual(['1024']);
    expect(
      (
        await agent.post('/api/workflow_api/version_list', { space_id: space, workflow_id: workflowId })
      ).version_list.map((v: { version: string }) => v.version),
    ).toEqual(['v1.0.0']);
    expect(await api('publish/check_version_number', { project_id: projectId, version_number: '1.0.0' })).toMatchObject(
      { is_valid: false, msg: 'The version must be greater than 1.0.0, the last one published.' },
    );
    expect(
      (
        await agent.request('POST', '/api/intelligence_api/publish/publish_project', {
          project_id: projectId,
          version_number: '0.9.0',
        })
      ).status,
    ).toBe(400);
    // A table is not published (nothing to publish for its kind); the record says so.
    await api('project/resource/add', { project_id: projectId, resources: [{ res_type: 'table', res_id: tableId }] });
    const second = await api('publish/publish_project', {
      project_id: projectId,
      version_number: '1.1.0',
      connectors: ['1024', '999'],
    });
    expect(second.results.find((r: { res_type: string }) => r.res_type === 'table')).toMatchObject({
      status: 'skipped',
    });
    expect(second.results.find((r: { res_type: string }) => r.res_type === 'bot')).toMatchObject({
      status: 'published',
      version: 'v1.0.1',
    });
    const records = (await api('publish/publish_record_list', { project_id: projectId })).records;
    expect(records.map((r: { version: string }) => r.version)).toEqual(['1.1.0', '1.0.0']);
    expect(
      (await api('publish/publish_record_detail', { project_id: projectId, record_id: records[1].record_id })).record
        .connectors,
    ).toEqual(['1024']);
    expect((await api('search/get_draft_intelligence_info', { project_id: projectId })).project.version).toBe('1.1.0');
  });

  it('copies a project into another space with independent copies of its resources; archives and deletes', async () => {
    const target = (await agent.post('/api/space/create', { name: 'Copies' })).space_id;
    const copy = await api('draft_project/crossspace_copy', { project_id: projectId, to_space_id: target });
    expect(copy.skipped).toEqual([]);
    const info = await api('search/get_draft_intelligence_info', { project_id: copy.project_id });
    expect(info.project).toMatchObject({ space_id: target, name: 'Greeter app', version: '' });
    expect(info.resources.map((r: { res_type: string }) => r.res_type).sort()).toEqual(['bot', 'table', 'workflow']);
    const copiedFlow = info.resources.find((r: { res_type: string }) => r.res_type === 'workflow').res_id;
    expect(copiedFlow).not.toBe(workflowId);
    expect(
      (
        await agent.post('/api/resource/library_resource_list', { space_id: target, res_type_filter: ['project'] })
      ).resource_list.map((x: { name: string }) => x.name),
    ).toEqual(['Greeter app']);
    // Archive leaves the active list; delete sends it to the library's bin, its resources stay.
    await api('draft_project/archive', { project_id: copy.project_id });
    expect((await api('search/get_draft_intelligence_list', { space_id: target })).intelligences).toEqual([]);
    expect(
      (await api('search/get_draft_intelligence_list', { space_id: target, archived: true })).intelligences.map(
        (p: { name: string }) => p.name,
      ),
    ).toEqual(['Greeter app']);
    await api('draft_project/delete', { project_id: copy.project_id });
    expect(
      (await agent.post('/api/resource/library_resource_recycle_info', { space_id: target })).resource_list.map(
        (x: { res_type: string }) => x.res_type,
      ),
    ).toEqual(['project']);
    expect(
      (await agent.post('/api/resource/library_resource_list', { space_id: target })).resource_list
        .map((x: { res_type: string }) => x.res_type)
        .sort(),
    ).toEqual(['bot', 'table', 'workflow']);
  });
});

describe('projects and a kind no studio code names', () => {
  it("hold, publish and copy a fixture extension's notes, and leave them out when the extension is off", async () => {
    const s1 = await startStudio({ extensionsDir: path.join(ROOT, 'tests/fixtures/kinds'), keepDatabase: true });
    const a = (await signUp(s1.url)).agent;
    const s = (await a.post('/api/space/create', { name: 'Notes' })).space_id;
    const { id } = await a.post('/api/fixture-notes/create', { space_id: s, name: 'plan' });
    const { project_id } = await a.post('/api/intelligence_api/draft_project/create', { space_id: s, name: 'Planner' });
    await a.post('/api/intelligence_api/project/resource/add', {
      project_id,
      resources: [{ res_type: 'note', res_id: id }],
    });
    expect(
      (await a.post('/api/intelligence_api/search/get_draft_intelligence_info', { project_id })).resources,
    ).toEqual([expect.objectContaining({ res_type: 'note', res_id: id, name: 'plan' })]);
    const published = await a.post('/api/intelligence_api/publish/publish_project', {
      project_id,
      version_number: '0.1.0',
    });
    expect(published.results).toEqual([
      expect.objectContaining({ res_type: 'note', status: 'published', version: 'note-v1' }),
    ]);
    const other = (await a.post('/api/space/create', { name: 'Elsewhere' })).space_id;
    const copy = await a.post('/api/intelligence_api/draft_project/crossspace_copy', {
      project_id,
      to_space_id: other,
    });
    const copied = (
      await a.post('/api/intelligence_api/search/get_draft_intelligence_info', { project_id: copy.project_id })
    ).resources;
    expect(copied).toEqual([expect.objectContaining({ res_type: 'note', name: 'plan' })]);
    expect(copied[0].res_id).not.toBe(id);
    await s1.server.close();
    const s2 = await startStudio({
      extensionsDir: path.join(ROOT, 'tests/fixtures/kinds'),
      keepData: s1.dataDir,
      env: { TESSERA_DISABLE: 'fixture-notes', ...(s1.databaseUrl ? { DATABASE_URL: s1.databaseUrl } : {}) },
    });
    try {
      a.base = s2.url;
      expect(
        (await a.post('/api/intelligence_api/search/get_draft_intelligence_info', { project_id })).resources,
      ).toEqual([]);
      expect(
        (
          await a.request('POST', '/api/intelligence_api/project/resource/add', {
            project_id,
            resources: [{ res_type: 'note', res_id: id }],
          })
        ).status,
      ).toBe(400);
    } finally {
      await s2.close();
      await s1.close().catch(() => undefined);
    }
  });
});
