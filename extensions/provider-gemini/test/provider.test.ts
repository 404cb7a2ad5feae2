import { streamText } from 'ai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { providerUnderTest, type ProviderUnderTest } from '../../../tests/fixtures/provider-tester.ts';
import gemini from '../src/server/index.ts';

// Gemini alone against the fake server: generateContent streamed, the key in x-goog-api-key.
let p: ProviderUnderTest;
beforeAll(async () => {
  p = await providerUnderTest(gemini, `${import.meta.dirname}/..`, 'gemini');
});
afterAll(() => p.close());

it('streams a chat answer through streamGenerateContent with the key in x-goog-api-key', async () => {
  p.llm.script({ text: 'Hello from Gemini.', usage: { input: 5, output: 4 } });
  const model = await p.provider.chat({ api_key: 'gk-test', base_url: `${p.llm.url}/v1beta` }, 'fake-chat', fetch);
  const r = streamText({ model, prompt: 'Hi', maxRetries: 0 });
  expect(await r.text).toBe('Hello from Gemini.');
  expect([(await r.usage).inputTokens, (await r.usage).outputTokens]).toEqual([5, 4]);
  const sent = p.llm.requests.at(-1)!;
  expect(sent.protocol).toBe('gemini');
  expect(sent.path).toBe('/v1beta/models/fake-chat:streamGenerateContent');
  expect(sent.headers['x-goog-api-key']).toBe('gk-test');
});
