// Collaborators (client half): the Collaborators panel of the workflow editor (its EditorPanels point).
import { defineExtension, lazyView } from '@tessera/sdk/client';
import { EditorPanels, type EditorPanelProps } from '@tessera/ext-workflow/client';

const CollaboratorsPanel = lazyView<EditorPanelProps>(() =>
  import('./CollaboratorsPanel.tsx').then((m) => m.CollaboratorsPanel),
);

export default defineExtension({
  id: 'collaborators',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    ctx.register(EditorPanels, {
      key: 'collaborators',
      label: 'collaborators:button',
      order: 30,
      Component: CollaboratorsPanel,
    });
  },
});
