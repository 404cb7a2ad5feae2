// The Web SDK in the studio: the embed code the publishing pages show for a chat published to the chat page and
// Web SDK connector ('999').
import { ConnectorViews, defineExtension, lazyView } from '@tessera/sdk/client';

const EmbedSnippet = lazyView(() => import('./EmbedSnippet.tsx').then((m) => m.EmbedSnippet), { fallback: null });

export default defineExtension({
  id: 'websdk',
  register(ctx) {
    ctx.register(ConnectorViews, { connector: '999', component: EmbedSnippet });
  },
});
