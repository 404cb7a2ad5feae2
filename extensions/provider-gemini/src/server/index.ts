import { defineExtension } from '@tessera/sdk/server';
import { ModelProviders, type ProviderCredentials, type ProviderFetch } from '@tessera/ext-models/shared';

const BASE = 'https://generativelanguage.googleapis.com/v1beta';
// The SDK loads on the first model call, not at start.
const client = async (c: ProviderCredentials, fetch: ProviderFetch) =>
  (await import('@ai-sdk/google')).createGoogle({
    apiKey: c.api_key,
    baseURL: c.base_url || BASE,
    fetch: fetch as typeof globalThis.fetch,
  });

export default defineExtension({
  id: 'provider-gemini',
  register(ctx) {
    ctx.register(ModelProviders, {
      key: 'gemini',
      label: { 'en-US': 'Google Gemini', 'zh-CN': 'Google Gemini' },
      kinds: ['chat', 'embedding'],
      defaultBaseUrl: BASE,
      fields: [
        { name: 'api_key', label: { 'en-US': 'API key', 'zh-CN': 'API 密钥' }, secret: true, required: true },
        { name: 'base_url', label: { 'en-US': 'Base URL (optional)', 'zh-CN': '接口地址（可选）' }, placeholder: BASE },
      ],
      chat: async (c, model, fetch) => (await client(c, fetch)).chat(model),
      embedding: async (c, model, fetch) => (await client(c, fetch)).embedding(model),
    });
  },
});
