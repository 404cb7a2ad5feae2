import { defineExtension } from '@tessera/sdk/server';
import { ModelProviders, type ProviderCredentials, type ProviderFetch } from '@tessera/ext-models/shared';
import { createAnthropic } from '@ai-sdk/anthropic';

const BASE = 'https://api.anthropic.com/v1';
const client = (c: ProviderCredentials, fetch: ProviderFetch) => createAnthropic({ apiKey: c.api_key, baseURL: c.base_url || BASE, fetch: fetch as typeof globalThis.fetch });

export default defineExtension({
  id: 'provider-anthropic',
  register(ctx) {
    ctx.register(ModelProviders, {
      key: 'anthropic',
      label: { 'en-US': 'Anthropic', 'zh-CN': 'Anthropic' },
      kinds: ['chat'],
      defaultBaseUrl: BASE,
      fields: [
        { name: 'api_key', label: { 'en-US': 'API key', 'zh-CN': 'API 密钥' }, secret: true, required: true },
        { name: 'base_url', label: { 'en-US': 'Base URL (optional)', 'zh-CN': '接口地址（可选）' }, placeholder: BASE },
      ],
      chat: (c, model, fetch) => client(c, fetch).messages(model),
    });
  },
});
