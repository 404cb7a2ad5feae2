import { defineExtension } from '@tessera/sdk/server';
import { ModelProviders, type ProviderCredentials, type ProviderFetch } from '@tessera/ext-models/shared';

// The SDK loads on the first model call, not at start.
const client = async (c: ProviderCredentials, fetch: ProviderFetch) =>
  (await import('@ai-sdk/openai-compatible')).createOpenAICompatible({
    name: 'openai-compatible',
    baseURL: String(c.base_url ?? ''),
    apiKey: c.api_key || undefined,
    fetch: fetch as typeof globalThis.fetch,
    includeUsage: true,
    supportsStructuredOutputs: true,
  });

const audioClient = async (c: ProviderCredentials, fetch: ProviderFetch) =>
  (await import('@ai-sdk/openai')).createOpenAI({
    name: 'openai-compatible',
    baseURL: String(c.base_url ?? ''),
    apiKey: c.api_key || 'none',
    fetch: fetch as typeof globalThis.fetch,
  });

export default defineExtension({
  id: 'provider-openai-compatible',
  register(ctx) {
    ctx.register(ModelProviders, {
      key: 'openai-compatible',
      label: {
        'en-US': 'OpenAI-compatible (Ollama, vLLM, LM Studio, DeepSeek, Ark ...)',
        'zh-CN': 'OpenAI 兼容接口（Ollama、vLLM、LM Studio、DeepSeek、火山方舟等）',
      },
      kinds: ['chat', 'embedding', 'rerank', 'speech', 'transcription'],
      fields: [
        {
          name: 'base_url',
          label: { 'en-US': 'Base URL', 'zh-CN': '接口地址' },
          required: true,
          placeholder: 'http://localhost:11434/v1',
        },
        {
          name: 'api_key',
          label: { 'en-US': 'API key (if the endpoint needs one)', 'zh-CN': 'API 密钥（接口需要时填写）' },
          secret: true,
        },
      ],
      chat: async (c, model, fetch) => (await client(c, fetch)).chatModel(model),
      embedding: async (c, model, fetch) => (await client(c, fetch)).embeddingModel(model),
      // /audio/speech and /audio/transcriptions as OpenAI's: its SDK speaks them to any base URL.
      speech: async (c, model, fetch) => (await audioClient(c, fetch)).speech(model),
      transcription: async (c, model, fetch) => (await audioClient(c, fetch)).transcription(model),
      // The /rerank call that Jina, Cohere (v2), vLLM and text-embeddings-inference share.
      rerank: (c, model, fetch) => ({
        async rerank(query, documents, opts) {
          const res = await fetch(`${String(c.base_url ?? '').replace(/\/$/, '')}/rerank`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              ...(c.api_key ? { authorization: `Bearer ${c.api_key}` } : {}),
            },
            body: JSON.stringify({ model, query, documents, top_n: opts?.topN ?? documents.length }),
            signal: opts?.signal,
          });
          if (!res.ok)
            throw new Error(`The reranking model answered HTTP ${res.status}: ${(await res.text()).slice(0, 200)}`);
          const body = (await res.json()) as {
            results?: { index: number; relevance_score?: number; score?: number }[];
          };
          return (body.results ?? [])
            .map((r) => ({ index: r.index, score: Number(r.relevance_score ?? r.score ?? 0) }))
            .sort((a, b) => b.score - a.score);
        },
      }),
      listModels: async (c, fetch) => {
        const res = await fetch(`${String(c.base_url).replace(/\/$/, '')}/models`, {
          headers: c.api_key ? { authorization: `Bearer ${c.api_key}` } : {},
        });
        if (!res.ok) throw new Error(`HTTP ${res.status}: ${(await res.text()).slice(0, 200)}`);
        const body = (await res.json()) as { data?: { id: string }[] };
        return (body.data ?? []).map((m) => ({
          name: m.id,
          kind: /rerank/i.test(m.id)
            ? ('rerank' as const)
            : /embed/i.test(m.id)
              ? ('embedding' as const)
              : ('chat' as const),
        }));
      },
    });
  },
});
