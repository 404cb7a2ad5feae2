// Triggers (client half): a "Triggers" panel in the workflow editor's toolbar (the workflow's EditorPanels point).
import { defineExtension, lazyView } from '@tessera/sdk/client';
import { EditorPanels, type EditorPanelProps } from '@tessera/ext-workflow/client';

const TriggersPanel = lazyView<EditorPanelProps>(() => import('./TriggersPanel.tsx').then((m) => m.TriggersPanel));

export default defineExtension({
  id: 'triggers',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    ctx.register(EditorPanels, {
      key: 'triggers',
      label: 'triggers:panel.button',
      order: 10,
      Component: TriggersPanel,
    });
  },
});
