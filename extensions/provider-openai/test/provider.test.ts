import { embed, generateText, streamText } from 'ai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { providerUnderTest, type ProviderUnderTest } from '../../../tests/fixtures/provider-tester.ts';
import openai from '../src/server/index.ts';

// OpenAI alone against the fake server: its chat and embedding models speak OpenAI's protocol with the key as a
// bearer token, and its model list sorts embedding models from chat models.
let p: ProviderUnderTest;
beforeAll(async () => {
  p = await providerUnderTest(openai, `${import.meta.dirname}/..`, 'openai');
});
afterAll(() => p.close());

const creds = () => ({ api_key: 'sk-test', base_url: `${p.llm.url}/v1` });

it('streams a chat answer with its usage, the key sent as a bearer token', async () => {
  p.llm.script({ text: 'Hello from OpenAI.', usage: { input: 4, output: 3 } });
  const r = streamText({ model: await p.provider.chat(creds(), 'fake-chat', fetch), prompt: 'Hi', maxRetries: 0 });
  expect(await r.text).toBe('Hello from OpenAI.');
  expect([(await r.usage).inputTokens, (await r.usage).outputTokens]).toEqual([4, 3]);
  const sent = p.llm.requests.at(-1)!;
  expect([sent.protocol, sent.path, sent.headers.authorization]).toEqual([
    'openai',
    '/v1/chat/completions',
    'Bearer sk-test',
  ]);
});

it('embeds text, and lists models by kind', async () => {
  const e = await embed({
    model: await p.provider.embedding!(creds(), 'fake-embed', fetch),
    value: 'a cat',
    maxRetries: 0,
  });
  expect(e.embedding.length).toBeGreaterThan(0);
  expect(await p.provider.listModels!(creds(), fetch)).toEqual([
    { name: 'fake-chat', kind: 'chat' },
    { name: 'fake-reasoner', kind: 'chat' },
    { name: 'fake-embed', kind: 'embedding' },
  ]);
});

it('says what the server answered when the key is refused', async () => {
  p.llm.script({ error: { status: 401, message: 'Incorrect API key provided' } });
  const model = await p.provider.chat(creds(), 'fake-chat', fetch);
  await expect(generateText({ model, prompt: 'Hi', maxRetries: 0 })).rejects.toThrow(/Incorrect API key provided/);
});
