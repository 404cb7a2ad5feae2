import { defineExtension } from '@tessera/sdk/server';
import { ModelProviders, type ProviderCredentials, type ProviderFetch } from '@tessera/ext-models/shared';

const BASE = 'https://api.openai.com/v1';
// The SDK loads on the first model call, not at start.
const client = async (c: ProviderCredentials, fetch: ProviderFetch) =>
  (await import('@ai-sdk/openai')).createOpenAI({
    apiKey: c.api_key,
    baseURL: c.base_url || BASE,
    fetch: fetch as typeof globalThis.fetch,
  });

export default defineExtension({
  id: 'provider-openai',
  register(ctx) {
    ctx.register(ModelProviders, {
      key: 'openai',
      label: { 'en-US': 'OpenAI', 'zh-CN': 'OpenAI' },
      kinds: ['chat', 'embedding', 'speech', 'transcription'],
      defaultBaseUrl: BASE,
      fields: [
        { name: 'api_key', label: { 'en-US': 'API key', 'zh-CN': 'API 密钥' }, secret: true, required: true },
        {
          name: 'base_url',
          label: { 'en-US': 'Base URL (optional, for a proxy)', 'zh-CN': '接口地址（可选，用于代理）' },
          placeholder: BASE,
        },
      ],
      chat: async (c, model, fetch) => (await client(c, fetch)).chat(model),
      embedding: async (c, model, fetch) => (await client(c, fetch)).embedding(model),
      speech: async (c, model, fetch) => (await client(c, fetch)).speech(model),
      transcription: async (c, model, fetch) => (await client(c, fetch)).transcription(model),
      listModels: async (c, fetch) => listOpenAiModels(c.base_url || BASE, c.api_key, fetch),
    });
  },
});

/** GET /models of an OpenAI-style API. */
export async function listOpenAiModels(baseUrl: string, apiKey: string | undefined, fetch: ProviderFetch) {
  const res = await fetch(`${baseUrl.replace(/\/$/, '')}/models`, {
    headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
  });
  if (!res.ok) throw new Error(`HTTP ${res.status}: ${(await res.text()).slice(0, 200)}`);
  const body = (await res.json()) as { data?: { id: string }[] };
  return (body.data ?? []).map((m) => ({
    name: m.id,
    kind: /embed/i.test(m.id)
      ? ('embedding' as const)
      : /^(tts|gpt-4o-mini-tts)/i.test(m.id)
        ? ('speech' as const)
        : /whisper|transcribe/i.test(m.id)
          ? ('transcription' as const)
          : ('chat' as const),
  }));
}
