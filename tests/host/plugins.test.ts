import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, signUp } from '../agent.ts';
import { startStudio, type RunningStudio } from '../helpers.ts';
import {
  accountOpenApi,
  API_KEY,
  CLIENT_ID,
  CLIENT_SECRET,
  petStoreOpenApi3,
  startPluginServer,
  SWAGGER2_YAML,
  type PluginServer,
} from '../fixtures/plugin-server.ts';
import { link, lit, node, ref, unique } from '../workflow-kit.ts';

let studio: RunningStudio;
let remote: PluginServer;
let owner: Agent;
let space: string;
beforeAll(async () => {
  remote = await startPluginServer();
  studio = await startStudio({ env: { TESSERA_ALLOW_PRIVATE_NETWORK: 'true' } });
  owner = (await signUp(studio.url)).agent;
  space = (await owner.post('/api/space/create', { name: 'Plugins' })).space_id;
});
afterAll(async () => {
  await studio.close();
  await remote.close();
});

const p = (path: string, body: Record<string, unknown> = {}, who = owner) =>
  who.post(`/api/plugin_api/${path}`, { space_id: space, ...body });
const raw = (path: string, body: Record<string, unknown>, who = owner) =>
  who.request('POST', `/api/plugin_api/${path}`, { space_id: space, ...body });
const wf = (path: string, body: Record<string, unknown>) =>
  owner.post(`/api/workflow_api/${path}`, { space_id: space, ...body });

async function importPetStore(name = unique('Pets')) {
  const r = await p('register', { openapi: petStoreOpenApi3(remote.url), name, service_token: API_KEY });
  const info = await p('get_plugin_info', { plugin_id: r.plugin_id });
  const api = (n: string) => info.api_info.find((a: any) => a.name === n);
  return { plugin_id: r.plugin_id as string, info, api, created: r };
}

/** Start(id) -> Plugin getPet -> End(name, tags). */
async function petWorkflow(plugin_id: string, api_id: string) {
  const { workflow_id } = await wf('create', { name: unique('pet lookup') });
  await wf('save', {
    workflow_id,
    schema: {
      nodes: [
        node('start', '1', { outputs: [{ name: 'id', type: 'integer', required: true }] }),
        node('pet', '4', {
          title: 'Get pet',
          inputs: [ref('petId', 'start', ['id'], 'integer'), lit('verbose', true, 'boolean')],
          outputs: [
            { name: 'name', type: 'string' },
            { name: 'tags', type: 'array', items: 'string' },
          ],
          settings: { plugin_id, api_id },
        }),
        node('end', '2', { inputs: [ref('name', 'pet', ['name']), ref('tags', 'pet', ['tags'], 'array')] }),
      ],
      links: [link('start', 'pet'), link('pet', 'end')],
    },
  });
  return workflow_id as string;
}

describe('importing OpenAPI documents', () => {
  it('turns OpenAPI 3 with $ref, allOf, arrays, path parameters and a server variable into APIs', async () => {
    const { info, api, created } = await importPetStore();
    expect(created).toMatchObject({
      created: 3,
      auth_hint: { auth_type: 1, location: 1, key: 'X-Api-Key' },
      auth_completed: true,
    });
    expect(info.meta_info).toMatchObject({
      name: expect.stringMatching(/^Pets/),
      url: `${remote.url}/v1`,
      auth_type: [1],
      key: 'X-Api-Key',
      service_token: '****3456',
    });
    const get = api('getPet');
    expect(get).toMatchObject({ path: '/pets/{petId}', method: 1, desc: 'A pet by id' });
    expect(get.request_params).toEqual([
      expect.objectContaining({ name: 'petId', type: 2, location: 1, is_required: true }),
      expect.objectContaining({ name: 'verbose', type: 6, location: 2, is_required: false }),
    ]);
    // allOf merged: id (from Base, required) and name, tags (array of strings).
    expect(get.response_params.map((x: any) => [x.name, x.type, x.is_required])).toEqual([
      ['id', 2, true],
      ['name', 1, true],
      ['tags', 5, false],
    ]);
    expect(get.response_params[2].sub_parameters[0].type).toBe(1);
    const add = api('addPet');
    expect(add.method).toBe(2);
    expect(add.request_params.map((x: any) => [x.name, x.type, x.location, x.is_required])).toEqual([
      ['name', 1, 3, true],
      ['tags', 5, 3, false],
      ['owner', 4, 3, false],
    ]);
    expect(add.request_params[2].sub_parameters[0]).toMatchObject({ name: 'email', type: 1 });
    const list = api('listPets');
    expect(list.request_params[0]).toMatchObject({ name: 'limit', type: 2, global_default: '10' });
    expect(list.response_params[0]).toMatchObject({ name: 'items', type: 5, sub_type: 4 });
    expect(list.response_params[0].sub_parameters[0].sub_parameters.map((x: any) => x.name)).toEqual([
      'id',
      'name',
      'tags',
    ]);
  });

  it('reads Swagger 2 in YAML: host and basePath, body parameters from definitions, an API key in the query', async () => {
    const preview = await p('preview_openapi', { openapi: SWAGGER2_YAML });
    expect(preview).toMatchObject({
      name: 'Weather',
      server_url: 'https://weather.example.com/api',
      auth: { auth_type: 1, location: 2, key: 'appid' },
    });
    expect(preview.apis.map((a: any) => [a.name, a.method, a.path])).toEqual([
      ['get_reading', 1, '/readings/{city}'],
      ['post_readings', 2, '/readings'],
    ]);
    expect(preview.apis[0].request_params.map((x: any) => [x.name, x.location])).toEqual([
      ['city', 1],
      ['units', 2],
    ]);
    expect(preview.apis[1].request_params.map((x: any) => [x.name, x.type, x.location])).toEqual([
      ['city', 1, 3],
      ['temps', 5, 3],
    ]);
    expect(preview.apis[0].response_params.map((x: any) => x.name)).toEqual(['city', 'temps']);
  });

  it('reads OAuth 2.0 authorization code from OpenAPI 3.1 YAML (type lists with null)', async () => {
    const preview = await p('preview_openapi', { openapi: accountOpenApi(remote.url) });
    expect(preview.auth).toEqual({
      auth_type: 3,
      client_url: `${remote.url}/oauth/authorize`,
      authorization_url: `${remote.url}/oauth/token`,
      scope: 'read profile',
    });
    expect(preview.apis[0].response_params[0].sub_parameters.map((x: any) => [x.name, x.type])).toEqual([
      ['login', 1],
      ['token', 1],
    ]);
  });

  it('refuses what is not a document with a message naming the problem, and imports into an existing plugin', async () => {
    expect((await raw('preview_openapi', { openapi: 'not: [valid' })).body.msg).toMatch(/not valid YAML/);
    expect((await raw('preview_openapi', { openapi: '{"info":{}}' })).body.msg).toMatch(/neither `openapi`/);
    expect(
      (
        await raw('preview_openapi', {
          openapi: '{"openapi":"3.0.0","paths":{"/a":{"get":{"responses":{"200":{"$ref":"#/nowhere"}}}}}}',
        })
      ).body.msg,
    ).toMatch(/references could not be resolved/);
    // An external reference is never fetched (it is left unresolved).
    await raw('preview_openapi', {
      openapi: `{"openapi":"3.0.0","paths":{"/a":{"get":{"responses":{"200":{"description":"x","content":{"application/json":{"schema":{"$ref":"${remote.url}/secret.json"}}}}}}}}}`,
    });
    expect(remote.seen.some((r) => r.url.includes('secret.json'))).toBe(false);
    const { plugin_id } = await p('register_plugin_meta', {
      name: unique('By hand'),
      url: `${remote.url}/v1`,
      auth_type: [0],
    });
    expect(await p('batch_create_api', { plugin_id, openapi: petStoreOpenApi3(remote.url) })).toMatchObject({
      created: 3,
      replaced: 0,
    });
    expect(await p('batch_create_api', { plugin_id, openapi: petStoreOpenApi3(remote.url) })).toMatchObject({
      created: 0,
      replaced: 0,
    });
    expect(
      await p('batch_create_api', { plugin_id, openapi: petStoreOpenApi3(remote.url), replaced_same_paths: true }),
    ).toMatchObject({ created: 0, replaced: 3 });
  });
});

describe('plugins and their APIs', () => {
  it('creates APIs by hand with nested parameters, checks path parameters, lists and searches', async () => {
    const name = unique('Hand made');
    const { plugin_id } = await p('register_plugin_meta', {
      name,
      desc: 'made by hand',
      url: `${remote.url}/v1`,
      auth_type: [1],
      location: 1,
      key: 'X-Api-Key',
      service_token: API_KEY,
      common_params: { '4': [{ name: 'X-Client', value: 'studio' }] },
    });
    expect((await raw('register_plugin_meta', { name: name.toUpperCase(), url: remote.url })).status).toBe(409);
    const missing = await raw('create_api', {
      plugin_id,
      name: 'get_pet',
      path: '/pets/{petId}',
      method: 1,
      request_params: [],
    });
    expect([missing.status, missing.body.msg]).toEqual([
      400,
      expect.stringMatching(/add a request parameter petId in the path/),
    ]);
    const { api_id } = await p('create_api', {
      plugin_id,
      name: 'add_pet',
      path: '/pets',
      method: 2,
      request_params: [
        { name: 'name', type: 1, location: 3, is_required: true },
        { name: 'tags', type: 5, location: 3, sub_type: 1, sub_parameters: [{ name: '[Array Item]', type: 1 }] },
        { name: 'owner', type: 4, location: 3, sub_parameters: [{ name: 'email', type: 1, is_required: true }] },
      ],
    });
    expect((await raw('create_api', { plugin_id, name: 'add_pet', path: '/other', method: 1 })).body.msg).toMatch(
      /already has an API named/,
    );
    const list = await p('get_dev_plugin_list', { name: 'hand MADE' });
    expect(list.plugin_list.find((x: any) => x.plugin_id === plugin_id)).toMatchObject({
      api_count: 1,
      published: false,
    });
    // Debug: the real request (the key masked, the common header sent) and the real response.
    const d = await p('debug_api', {
      plugin_id,
      api_id,
      parameters: JSON.stringify({ name: 'Tom', tags: ['cat'], owner: { email: 'a@b.c' } }),
      save_example: true,
    });
    expect(d).toMatchObject({
      success: true,
      status_code: 201,
      request: { method: 'POST', url: `${remote.url}/v1/pets`, headers: { 'x-api-key': '****', 'x-client': 'studio' } },
      response: { status: 201 },
    });
    expect(JSON.parse(d.request.body)).toEqual({ name: 'Tom', tags: ['cat'], owner: { email: 'a@b.c' } });
    expect(remote.seen.at(-1)!.headers['x-api-key']).toBe(API_KEY);
    expect(d.response_params.map((x: any) => [x.name, x.type])).toEqual([
      ['id', 2],
      ['name', 1],
      ['tags', 5],
    ]);
    // Response parameters taken from the debug response; the example kept.
    const updated = await p('update_api', { plugin_id, api_id, response_params: d.response_params });
    expect(updated).toMatchObject({ debug_status: 1, debug_example: { req_example: expect.stringContaining('Tom') } });
    // A missing required nested parameter is named; the server is not called.
    const before = remote.seen.length;
    const bad = await raw('debug_api', { plugin_id, api_id, parameters: { name: 'x', owner: {} } });
    expect([bad.status, bad.body.msg]).toEqual([400, 'The parameter owner.email is required.']);
    expect(remote.seen.length).toBe(before);
  });

  it('keeps secrets encrypted at rest and returns them masked; a masked value sent back keeps the secret', async () => {
    const { plugin_id, info } = await importPetStore();
    expect(JSON.stringify(info)).not.toContain(API_KEY);
    await p('update_plugin_meta', { plugin_id, desc: 'changed', service_token: info.meta_info.service_token });
    const row = await studio.server.database.db
      .selectFrom('plugins_plugin')
      .select('secret')
      .where('id', '=', plugin_id)
      .executeTakeFirstOrThrow();
    expect(row.secret).not.toContain(API_KEY);
    expect(row.secret.length).toBeGreaterThan(20);
    const { api } = { api: (await p('get_plugin_info', { plugin_id })).api_info.find((a: any) => a.name === 'getPet') };
    expect((await p('debug_api', { plugin_id, api_id: api.api_id, parameters: { petId: 1 } })).success).toBe(true);
  });

  it('is visible to members of its space only', async () => {
    const { plugin_id } = await importPetStore();
    const stranger = (await signUp(studio.url)).agent;
    expect(
      (await stranger.request('POST', '/api/plugin_api/get_plugin_info', { space_id: space, plugin_id })).status,
    ).toBe(403);
    const own = (await stranger.post('/api/space/create', { name: 'Mine' })).space_id;
    expect(
      (await stranger.request('POST', '/api/plugin_api/get_plugin_info', { space_id: own, plugin_id })).status,
    ).toBe(404);
  });
});

describe('publishing and the Api node', () => {
  it('runs the draft in test runs and the published version in published runs', async () => {
    const { plugin_id, api } = await importPetStore();
    const getPet = api('getPet');
    const workflow_id = await petWorkflow(plugin_id, getPet.api_id);
    // Not published: a test run tries the draft.
    const test = await wf('test_run', { workflow_id, input: { id: 1 }, run_mode: 0 });
    expect(test.execute_status).toBe(2);
    expect(JSON.parse(test.output)).toEqual({ name: 'Rex', tags: ['dog'] });
    expect(remote.seen.at(-1)!.url).toBe('/v1/pets/1?verbose=true');
    expect((await raw('publish_plugin', { plugin_id, version_name: '' })).status).toBe(400);
    await p('publish_plugin', { plugin_id, version_name: 'v1.0.0', version_desc: 'first' });
    expect((await raw('publish_plugin', { plugin_id, version_name: 'v1.0.0' })).body.msg).toMatch(/already exists/);
    expect((await p('get_published_list', { plugin_id })).versions).toEqual([
      expect.objectContaining({ version_name: 'v1.0.0', api_count: 3 }),
    ]);
    const playground = await p('get_playground_plugin_list', {});
    expect(
      playground.plugin_list
        .find((x: any) => x.id === plugin_id)
        .plugin_apis.map((a: any) => a.name)
        .sort(),
    ).toEqual(['addPet', 'getPet', 'listPets']);
    await wf('publish', { workflow_id, workflow_version: 'v1.0.0' });
    // The draft changes its path to one that does not exist: the published run keeps the published API.
    await p('update_api', { plugin_id, api_id: getPet.api_id, path: '/nowhere/{petId}' });
    const pat = await owner.post('/api/permission_api/pat/create', {
      name: 'runner',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['workflow.run'] }],
    });
    const r = await new Agent(studio.url, { bearer: pat.token }).request('POST', '/v1/workflow/run', {
      workflow_id,
      parameters: { id: 1 },
    });
    expect(r.body).toMatchObject({ code: 0 });
    expect(JSON.parse(r.body.data)).toEqual({ name: 'Rex', tags: ['dog'] });
    const draftRun = await wf('test_run', { workflow_id, input: { id: 1 }, run_mode: 0 });
    expect(draftRun.execute_status).toBe(3);
    expect(draftRun.reason).toMatch(/HTTP 404/);
    // A new version is what published runs use from then on.
    await p('publish_plugin', { plugin_id, version_name: 'v1.0.1' });
    const after = await new Agent(studio.url, { bearer: pat.token }).request('POST', '/v1/workflow/run', {
      workflow_id,
      parameters: { id: 1 },
    });
    expect(after.body.msg).toMatch(/HTTP 404/);
  });

  it('fails a node whose API is disabled, or whose plugin is gone, with a message naming it', async () => {
    const { plugin_id, api } = await importPetStore();
    const workflow_id = await petWorkflow(plugin_id, api('getPet').api_id);
    await p('update_api', { plugin_id, api_id: api('getPet').api_id, disabled: true });
    expect((await wf('test_run', { workflow_id, input: { id: 1 }, run_mode: 0 })).reason).toMatch(/may be disabled/);
    await p('del_plugin', { plugin_id });
    expect((await wf('test_run', { workflow_id, input: { id: 1 }, run_mode: 0 })).reason).toMatch(/does not exist/);
  });
});

describe('OAuth 2.0 authorization code', () => {
  /** Follows the authorise URL as a browser would: the provider redirects back to the studio's callback. */
  async function authorise(authorizeUrl: string) {
    const res = await fetch(authorizeUrl, { redirect: 'manual' });
    const back = new URL(res.headers.get('location')!);
    expect(back.pathname).toMatch(/^\/api\/plugin_oauth\/\d+\/authorization_code$/);
    const page = await fetch(`${studio.url}${back.pathname}${back.search}`);
    return { status: page.status, text: await page.text() };
  }

  it('interrupts a run until the user authorises, resumes it, refreshes the token and keeps tokens per user', async () => {
    const { plugin_id } = await p('register', {
      openapi: accountOpenApi(remote.url),
      name: unique('Account'),
      oauth_client_id: CLIENT_ID,
      oauth_client_secret: CLIENT_SECRET,
    });
    const info = await p('get_plugin_info', { plugin_id });
    expect(info.meta_info.auth_type).toEqual([3]);
    expect(JSON.parse(info.meta_info.oauth_info)).toMatchObject({
      client_id: CLIENT_ID,
      client_secret: '****-xyz',
      scope: 'read profile',
    });
    expect(info.authorized).toBe(false);
    const me = info.api_info[0];
    const { workflow_id } = await wf('create', { name: unique('who am i') });
    await wf('save', {
      workflow_id,
      schema: {
        nodes: [
          node('start', '1', { outputs: [] }),
          node('me', '4', { outputs: [{ name: 'user', type: 'object' }], settings: { plugin_id, api_id: me.api_id } }),
          node('end', '2', { inputs: [ref('login', 'me', ['user', 'login'])] }),
        ],
        links: [link('start', 'me'), link('me', 'end')],
      },
    });
    const first = await wf('test_run', { workflow_id, input: {}, run_mode: 0 });
    expect(first.interrupt).toMatchObject({
      type: 7,
      data: { plugin_id, authorize_url: expect.stringContaining('/oauth/authorize?') },
    });
    const authorizeUrl = new URL(first.interrupt.data.authorize_url);
    expect(Object.fromEntries(authorizeUrl.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: CLIENT_ID,
      scope: 'read profile',
      state: expect.any(String),
    });
    // A state used twice, or forged, is refused.
    const forged = await fetch(`${studio.url}/api/plugin_oauth/${plugin_id}/authorization_code?code=x&state=forged`);
    expect(forged.status).toBe(400);
    expect(await authorise(authorizeUrl.toString())).toMatchObject({
      status: 200,
      text: expect.stringContaining('is authorised'),
    });
    expect((await p('get_oauth_status', { plugin_id })).status).toBe(1);
    const resumed = await wf('test_resume', {
      workflow_id,
      execute_id: first.execute_id,
      event_id: first.interrupt.event_id,
      data: 'authorized',
      run_mode: 0,
    });
    expect(resumed.execute_status).toBe(2);
    expect(JSON.parse(resumed.output)).toEqual({ login: 'ada' });
    // The provider stops taking the access token: the studio refreshes it once and carries on.
    remote.oauth.revokedAccess.add(remote.oauth.issued.at(-1)!);
    const again = await wf('test_run', { workflow_id, input: {}, run_mode: 0 });
    expect(again.execute_status).toBe(2);
    expect(remote.oauth.refreshes).toBe(1);
    // Tokens are per user: another member of the space is asked to authorise for themselves.
    const { agent: member, user } = await signUp(studio.url);
    await owner.post('/api/space/member/add', { space_id: space, user_ids: [user.user_id] });
    expect((await member.post('/api/plugin_api/get_oauth_status', { space_id: space, plugin_id })).status).toBe(2);
    const theirs = await member.post('/api/workflow_api/test_run', {
      space_id: space,
      workflow_id,
      input: {},
      run_mode: 0,
    });
    expect(theirs.interrupt).toMatchObject({ type: 7 });
    // Revoked: the next run asks again.
    await p('revoke_auth_token', { plugin_id });
    expect((await p('get_oauth_status', { plugin_id })).status).toBe(2);
    expect((await wf('test_run', { workflow_id, input: {}, run_mode: 0 })).interrupt).toMatchObject({ type: 7 });
  });
});

describe('outbound safety', () => {
  it('refuses a loopback server URL when private networks are not allowed', async () => {
    const strict = await startStudio();
    try {
      const a = (await signUp(strict.url)).agent;
      const s = (await a.post('/api/space/create', { name: 'Strict' })).space_id;
      const r = await a.request('POST', '/api/plugin_api/register_plugin_meta', {
        space_id: s,
        name: 'Local',
        url: 'http://127.0.0.1:9/v1',
      });
      expect([r.status, r.body.msg]).toEqual([400, expect.stringMatching(/server URL cannot be used: .*loopback/)]);
    } finally {
      await strict.close();
    }
  });
});
