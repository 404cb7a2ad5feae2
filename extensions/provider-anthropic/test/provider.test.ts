import { streamText } from 'ai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { providerUnderTest, type ProviderUnderTest } from '../../../tests/fixtures/provider-tester.ts';
import anthropic from '../src/server/index.ts';

// Anthropic alone against the fake server: the Messages API, the key in x-api-key, chat models only.
let p: ProviderUnderTest;
beforeAll(async () => {
  p = await providerUnderTest(anthropic, `${import.meta.dirname}/..`, 'anthropic');
});
afterAll(() => p.close());

it('streams a chat answer through the Messages API with the key in x-api-key', async () => {
  p.llm.script({ text: 'Hello from Claude.', usage: { input: 6, output: 4 } });
  const model = await p.provider.chat({ api_key: 'ak-test', base_url: `${p.llm.url}/v1` }, 'fake-chat', fetch);
  const r = streamText({ model, prompt: 'Hi', maxRetries: 0 });
  expect(await r.text).toBe('Hello from Claude.');
  expect([(await r.usage).inputTokens, (await r.usage).outputTokens]).toEqual([6, 4]);
  const sent = p.llm.requests.at(-1)!;
  expect([sent.protocol, sent.path, sent.headers['x-api-key']]).toEqual(['anthropic', '/v1/messages', 'ak-test']);
  expect(sent.body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]);
});

it('offers chat models only', () => {
  expect(p.provider.kinds).toEqual(['chat']);
  expect(p.provider.embedding).toBeUndefined();
});
