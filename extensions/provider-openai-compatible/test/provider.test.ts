import { streamText } from 'ai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { providerUnderTest, type ProviderUnderTest } from '../../../tests/fixtures/provider-tester.ts';
import compatible from '../src/server/index.ts';

// An OpenAI-compatible server alone (vLLM, Ollama, a gateway): chat, reranking through /rerank, and a model list
// that tells rerankers and embedding models from chat models.
let p: ProviderUnderTest;
beforeAll(async () => {
  p = await providerUnderTest(compatible, `${import.meta.dirname}/..`, 'openai-compatible');
});
afterAll(() => p.close());

const creds = () => ({ base_url: `${p.llm.url}/v1` });

it('streams a chat answer from the base URL given, the key as a bearer token', async () => {
  p.llm.script({ text: 'Hello from a local model.' });
  const model = await p.provider.chat({ ...creds(), api_key: 'local' }, 'fake-chat', fetch);
  const r = streamText({ model, prompt: 'Hi', maxRetries: 0 });
  expect(await r.text).toBe('Hello from a local model.');
  const sent = p.llm.requests.at(-1)!;
  expect([sent.path, sent.headers.authorization]).toEqual(['/v1/chat/completions', 'Bearer local']);
});

it('reranks documents best first', async () => {
  const reranker = await p.provider.rerank!({ ...creds(), api_key: 'rk' }, 'fake-rerank', fetch);
  const ranked = await reranker.rerank('cats sleep', ['dogs bark loudly', 'cats sleep all day', 'cats purr'], {});
  expect(ranked.map((r) => r.index)).toEqual([1, 2, 0]);
  expect(ranked[0].score).toBeGreaterThan(ranked[1].score);
  expect(p.llm.requests.at(-1)!.headers.authorization).toBe('Bearer rk');
});

it('lists the models by kind', async () => {
  expect((await p.provider.listModels!(creds(), fetch)).map((m) => `${m.name}:${m.kind}`)).toEqual([
    'fake-chat:chat',
    'fake-reasoner:chat',
    'fake-embed:embedding',
  ]);
});
