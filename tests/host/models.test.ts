import { createServer as createNetServer } from 'node:net';
import { embedMany, isStepCount, streamText, tool } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ModelsService, type Models } from '@tessera/ext-models/shared';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { signUp, type Agent } from '../agent.ts';
import { startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';

let studio: RunningStudio;
let llm: FakeLlm;
let admin: Agent; // the first user: platform administrator
let member: Agent;
let space: string;
let models: Models;

beforeAll(async () => {
  llm = await startFakeLlm();
  studio = await startStudio();
  admin = (await signUp(studio.url, 'platform-admin')).agent;
  member = (await signUp(studio.url, 'space-admin')).agent;
  space = (await member.post('/api/space/create', { name: 'Models' })).space_id;
  models = studio.server.host.container.get<Models>(ModelsService.symbol);
});
afterAll(async () => {
  await studio.close();
  await llm.close();
});

const platform = (path: string, body: unknown = {}) => admin.post(`/api/model_manage/v1/platform/${path}`, body);

async function platformModel(
  provider: string,
  baseUrl: string,
  modelName: string,
  kind: 'chat' | 'embedding' = 'chat',
) {
  const cred = await platform('credential/create', {
    provider,
    name: `${provider} fake`,
    base_url: baseUrl,
    api_key: `sk-test-${provider}-1234`,
  });
  return (
    await platform('model/create', {
      credential_id: cred.credential_id,
      model_name: modelName,
      kind,
      capabilities: { function_call: true },
    })
  ).model_id as string;
}

describe('model management', () => {
  it('stores keys encrypted, shows them masked, and tests a connection', async () => {
    const cred = await platform('credential/create', {
      provider: 'openai-compatible',
      name: 'Local',
      base_url: `${llm.url}/v1`,
      api_key: 'sk-very-secret-9876',
    });
    expect(cred.api_key_masked).toBe('****9876');
    const listed = await admin.get('/api/model_manage/v1/platform/credential/list');
    expect(JSON.stringify(listed)).not.toContain('sk-very-secret');
    const row = await studio.server.database.db
      .selectFrom('models_credential')
      .select('secret')
      .where('id', '=', cred.credential_id)
      .executeTakeFirstOrThrow();
    expect(row.secret).not.toContain('sk-very-secret');
    const test = await platform('credential/test', { credential_id: cred.credential_id });
    expect(test.ok).toBe(true);
    expect(test.models.map((m: { name: string }) => m.name)).toContain('fake-chat');
    llm.script({ text: 'OK' });
    expect(
      await platform('credential/test', { credential_id: cred.credential_id, model_name: 'fake-chat' }),
    ).toMatchObject({ ok: true, reply: 'OK' });
    // What the test found is added in one call, with the kinds the provider's list suggests; twice adds nothing.
    const all = await platform('model/batch_create', {
      credential_id: cred.credential_id,
      models: test.models.map((m: { name: string; kind: string }) => ({ model_name: m.name, kind: m.kind })),
    });
    expect(all.added.map((m: { model_name: string; kind: string }) => `${m.model_name}:${m.kind}`).sort()).toEqual([
      'fake-chat:chat',
      'fake-embed:embedding',
      'fake-reasoner:chat',
    ]);
    expect(
      (
        await platform('model/batch_create', {
          credential_id: cred.credential_id,
          models: [{ model_name: 'fake-chat', kind: 'chat' }],
        })
      ).added,
    ).toEqual([]);
  });

  it('says what failed when a connection test fails: refused, unknown name, 401, 404', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createNetServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as { port: number }).port;
        probe.close(() => resolve(p));
      });
    });
    const closed = await platform('credential/create', {
      provider: 'openai-compatible',
      name: 'closed port',
      base_url: `http://127.0.0.1:${port}/v1`,
      api_key: 'x',
    });
    expect((await platform('credential/test', { credential_id: closed.credential_id, model_name: 'm' })).error).toBe(
      `Nothing accepts connections at 127.0.0.1:${port} (connection refused): is the server running, and is the port right?`,
    );
    const nowhere = await platform('credential/create', {
      provider: 'openai-compatible',
      name: 'no such host',
      base_url: 'http://no-such-host.invalid/v1',
      api_key: 'x',
    });
    expect((await platform('credential/test', { credential_id: nowhere.credential_id, model_name: 'm' })).error).toBe(
      'The name no-such-host.invalid could not be resolved (DNS): check the base URL.',
    );
    const fake = await platform('credential/create', {
      provider: 'openai-compatible',
      name: 'fake 401',
      base_url: `${llm.url}/v1`,
      api_key: 'x',
    });
    const host = new URL(llm.url).host;
    llm.script({ error: { status: 401, message: 'bad key' } });
    expect(
      (await platform('credential/test', { credential_id: fake.credential_id, model_name: 'fake-chat' })).error,
    ).toBe(`The server at ${host} refused the credentials (HTTP 401): check the API key.`);
    llm.script({ error: { status: 404, message: 'no such model' } });
    expect((await platform('credential/test', { credential_id: fake.credential_id, model_name: 'nope' })).error).toBe(
      `Not found at ${host} (HTTP 404): check the base URL and the model name.`,
    );
  });

  it("refuses a space credential pointing at a private address; the platform administrator's may", async () => {
    // Refused when saved, naming the address: loopback, cloud metadata, and IPv6 forms that carry them.
    for (const base_url of [
      `${llm.url}/v1`,
      'http://169.254.169.254/latest',
      'http://[::7f00:1]:8080/v1',
      'http://[64:ff9b::a9fe:a9fe]/',
      'http://[2002:7f00:1::]/v1',
      'http://[::ffff:10.0.0.1]/',
    ]) {
      const refused = await member.request('POST', `/api/model_manage/v1/spaces/${space}/credential/create`, {
        provider: 'openai-compatible',
        name: 'Sneaky',
        base_url,
        api_key: 'x',
      });
      expect(refused.status, base_url).toBe(400);
      expect(refused.body.msg).toMatch(/^Base URL refused: .* resolves to the private or loopback address/);
    }
    const { credentials } = await member.get(`/api/model_manage/v1/spaces/${space}/credential/list`);
    expect(credentials.filter((c: { name: string }) => c.name === 'Sneaky')).toEqual([]);
    expect(
      (
        await member.request('POST', '/api/model_manage/v1/platform/credential/create', {
          provider: 'openai',
          name: 'x',
          api_key: 'y',
        })
      ).status,
    ).toBe(403);
  });

  it('lists what a space may use, enables and disables, and records usage', async () => {
    const modelId = await platformModel('openai', `${llm.url}/v1`, 'fake-chat');
    const { models: list } = await member.get(`/api/model_manage/v1/spaces/${space}/v1/list?kind=chat`);
    expect(list.find((m: { model_id: string }) => m.model_id === modelId)).toMatchObject({
      scope: 'platform',
      provider: 'openai',
      enabled: true,
      capabilities: { function_call: true },
    });
    expect((await models.get(space, modelId)).model_id).toBe(modelId);
    // Resolved once (and kept): disabling it still takes effect at the next call.
    await platform('model/update', { model_id: modelId, enabled: false });
    await expect(models.get(space, modelId)).rejects.toThrow(/is disabled/);
    await platform('model/update', { model_id: modelId, enabled: true, default_params: { temperature: 0.2 } });
    expect((await models.get(space, modelId)).default_params).toEqual({ temperature: 0.2 });
    await models.recordUsage({
      space_id: space,
      model_id: modelId,
      input_tokens: 12,
      output_tokens: 30,
      source: 'workflow',
      run_id: '1',
    });
    const usage = await member.get(`/api/model_manage/v1/spaces/${space}/get_model_usage?model_id=${modelId}`);
    expect(usage.usage).toEqual([
      { model_id: modelId, source: 'workflow', input_tokens: 12, output_tokens: 30, calls: 1 },
    ]);
    const filters = await member.get(`/api/model_manage/v1/spaces/${space}/get_model_filter_params`);
    expect(filters.providers.map((p: { key: string }) => p.key).sort()).toEqual([
      'anthropic',
      'gemini',
      'openai',
      'openai-compatible',
    ]);
  });
});

describe('deprecating a model', () => {
  it('answers every call made with a deprecated model by its successor, and refuses successors its users cannot use', async () => {
    const old = await platformModel('openai-compatible', `${llm.url}/v1`, 'old-chat');
    const next = await platformModel('openai-compatible', `${llm.url}/v1`, 'new-chat');
    const embed = await platformModel('openai-compatible', `${llm.url}/v1`, 'fake-embed', 'embedding');
    const refusal = async (body: Record<string, unknown>) =>
      (await admin.request('POST', '/api/model_manage/v1/platform/model/update', body)).body.msg as string;
    expect(await refusal({ model_id: old, deprecated: true, successor_id: old })).toMatch(/its own place/);
    expect(await refusal({ model_id: old, deprecated: true, successor_id: embed })).toMatch(
      /old-chat is of kind chat: choose a successor of that kind \(fake-embed is embedding\)/,
    );
    // A space's own model cannot answer for a platform model: other spaces would not reach it.
    const cred = await member.post(`/api/model_manage/v1/spaces/${space}/credential/create`, {
      provider: 'openai-compatible',
      name: 'own',
      base_url: 'https://93.184.215.14/v1',
      api_key: 'sk-own-1234',
    });
    const own = (
      await member.post(`/api/model_manage/v1/spaces/${space}/model/create`, {
        credential_id: cred.credential_id,
        model_name: 'own-chat',
      })
    ).model_id;
    expect(await refusal({ model_id: old, deprecated: true, successor_id: own })).toMatch(
      /succeeded by a platform model/,
    );

    const before = await models.get(space, old);
    expect(before.model_name).toBe('old-chat');
    await platform('model/update', { model_id: old, deprecated: true, successor_id: next });
    // Every call made with the old model goes to the new one, its usage with it.
    const answered = await models.get(space, old);
    expect([answered.model_id, answered.model_name]).toEqual([next, 'new-chat']);
    llm.reset();
    const r = await models.complete({
      spaceId: space,
      modelId: old,
      messages: [{ role: 'user', content: 'hi' }],
      source: 'test',
    });
    expect(r.text).toBe('echo: hi');
    expect(llm.requests.at(-1)?.body.model).toBe('new-chat');
    const { models: list } = await member.get(`/api/model_manage/v1/spaces/${space}/v1/list?kind=chat`);
    expect(list.find((m: { model_id: string }) => m.model_id === old)).toMatchObject({
      deprecated: true,
      successor_id: next,
    });
    // No round trip, and the successor stays while it answers for another.
    expect(await refusal({ model_id: next, deprecated: true, successor_id: old })).toMatch(/would go round/);
    expect(await refusal({ model_id: next, enabled: false })).toMatch(/answers in place of old-chat/);
    expect((await admin.request('POST', '/api/model_manage/v1/platform/model/delete', { model_id: next })).status).toBe(
      409,
    );
    // Undone: the old model answers itself again.
    await platform('model/update', { model_id: old, deprecated: false, successor_id: '' });
    expect((await models.get(space, old)).model_name).toBe('old-chat');
  });
});

describe('each provider against the fake server, in its own protocol', () => {
  const cases = [
    ['openai', '/v1', 'openai'],
    ['openai-compatible', '/v1', 'openai'],
    ['anthropic', '/v1', 'anthropic'],
    ['gemini', '/v1beta', 'gemini'],
  ] as const;
  for (const [provider, path, protocol] of cases) {
    it(`${provider}: streams text and reports usage`, async () => {
      const model = await models.get(space, await platformModel(provider, `${llm.url}${path}`, 'fake-chat'));
      llm.reset();
      llm.script({ text: `Hello from ${provider}, streamed.`, usage: { input: 7, output: 5 } });
      const result = streamText({ model: await model.chat(), prompt: 'Say hello', maxRetries: 0 });
      const parts: string[] = [];
      for await (const t of result.textStream) parts.push(t);
      expect(parts.join('')).toBe(`Hello from ${provider}, streamed.`);
      expect(parts.length).toBeGreaterThan(1);
      const usage = await result.usage;
      expect([usage.inputTokens, usage.outputTokens]).toEqual([7, 5]);
      expect(llm.requests.at(-1)!.protocol).toBe(protocol);
    });
  }

  it('runs a tool-call round trip', async () => {
    const model = await models.get(space, await platformModel('openai-compatible', `${llm.url}/v1`, 'fake-chat'));
    llm.reset();
    llm.script({ toolCalls: [{ name: 'weather', arguments: { city: 'Oslo' } }] }, { text: 'It is 3 degrees in Oslo.' });
    const seen: unknown[] = [];
    const result = streamText({
      model: await model.chat(),
      prompt: 'Weather in Oslo?',
      tools: {
        weather: tool({
          description: 'Weather of a city',
          inputSchema: z.object({ city: z.string() }),
          execute: async (input) => (seen.push(input), { celsius: 3 }),
        }),
      },
      stopWhen: isStepCount(3),
      maxRetries: 0,
    });
    expect(await result.text).toBe('It is 3 degrees in Oslo.');
    expect(seen).toEqual([{ city: 'Oslo' }]);
    const second = llm.requests.at(-1)!.body;
    expect(JSON.stringify(second.messages)).toContain('celsius');
  });

  it('embeds with an embedding model', async () => {
    const model = await models.get(space, await platformModel('openai', `${llm.url}/v1`, 'fake-embed', 'embedding'));
    const { embeddings } = await embedMany({
      model: await model.embedding(),
      values: ['alpha', 'beta'],
      maxRetries: 0,
    });
    expect(embeddings).toHaveLength(2);
    expect(embeddings[0]).toHaveLength(8);
    expect(embeddings[0]).not.toEqual(embeddings[1]);
  });

  it('passes a provider error on as a clear message', async () => {
    const model = await models.get(space, await platformModel('anthropic', `${llm.url}/v1`, 'fake-chat'));
    llm.script({ error: { status: 529, message: 'overloaded, try later' } });
    const result = streamText({ model: await model.chat(), prompt: 'x', maxRetries: 0, onError: () => undefined });
    let error: unknown;
    for await (const part of result.fullStream) if (part.type === 'error') error = part.error;
    expect(String((error as Error)?.message)).toMatch(/overloaded, try later/);
  });
});
