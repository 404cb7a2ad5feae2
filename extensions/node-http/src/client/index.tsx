import { defineExtension, lazyView } from '@tessera/sdk/client';
import { NodeTypeClients, oneLine } from '@tessera/ext-workflow/client';
import { IconCloud } from '@arco-design/web-react/icon';

// Drawn only in its editor: the code loads then.
const HttpForm = lazyView(() => import('./form.tsx').then((m) => m.HttpForm));

export default defineExtension({
  id: 'node-http',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    ctx.register(NodeTypeClients, {
      key: 'http',
      icon: IconCloud,
      color: '#3491FA',
      defaults: () => ({
        settings: {
          method: 'GET',
          url: '',
          headers: [],
          query: [],
          auth: { type: 'none' },
          body: { type: 'none' },
          timeout_ms: 30_000,
          retries: 0,
        },
      }),
      Form: HttpForm,
      summary: (n) => {
        const s = n.node_param.settings as { method?: string; url?: string };
        return s.url ? oneLine(`${s.method ?? 'GET'} ${s.url}`) : undefined;
      },
    });
  },
});
