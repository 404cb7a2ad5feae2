// Usage analytics (client half): the Usage page of a space, the usage panel of each workflow's editor and a Usage
// button in each bot editor's header.
import { IconDashboard } from '@arco-design/web-react/icon';
import { defineExtension, lazyPage, lazyView, ResourceActions, type ResourceActionProps } from '@tessera/sdk/client';
import { CurrentSpaceService } from '@tessera/ext-spaces/shared';
import { EditorPanels, type EditorPanelProps } from '@tessera/workflow-sdk/client';
import { setCurrentSpace } from './space.ts';

const UsagePage = lazyPage(() => import('./UsagePage.tsx').then((m) => m.UsagePage));
const WorkflowUsage = lazyView<EditorPanelProps>(() => import('./WorkflowUsage.tsx').then((m) => m.WorkflowUsage));
const BotUsageButton = lazyView<ResourceActionProps>(
  () => import('./ResourceUsage.tsx').then((m) => m.BotUsageButton),
  { fallback: null },
);

export default defineExtension({
  id: 'analytics',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    setCurrentSpace(ctx.service(CurrentSpaceService));
    ctx.route({ path: '/analytics', component: UsagePage, title: 'title' });
    ctx.sidebar({
      key: 'analytics',
      area: 'space',
      group: 'operate',
      label: 'nav',
      path: '/analytics',
      icon: <IconDashboard />,
      order: 35,
    });
    ctx.register(EditorPanels, { key: 'usage', label: 'analytics:panel', order: 20, Component: WorkflowUsage });
    ctx.register(ResourceActions, { key: 'usage', kinds: ['bot'], order: 30, component: BotUsageButton });
  },
});
