// Prompt releases (client half): a Releases button in the prompt editor's header (ResourceActions, kind 'prompt'),
// and the Prompt releases page under Operate (approvals waiting, every release, environments and approvers).
import { IconSend } from '@arco-design/web-react/icon';
import { defineExtension, lazyPage, lazyView, ResourceActions, type ResourceActionProps } from '@tessera/sdk/client';
import { CurrentSpaceService } from '@tessera/ext-spaces/shared';
import { setCurrentSpace } from './space.ts';

const ReleasesPage = lazyPage(() => import('./ReleasesPage.tsx').then((m) => m.ReleasesPage));
const ReleasesButton = lazyView<ResourceActionProps>(
  () => import('./ReleasesPanel.tsx').then((m) => m.ReleasesButton),
  { fallback: null },
);

export default defineExtension({
  id: 'prompt-releases',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    setCurrentSpace(ctx.service(CurrentSpaceService));
    ctx.route({ path: '/prompt-releases', component: ReleasesPage, title: 'title' });
    ctx.sidebar({
      key: 'prompt-releases',
      area: 'space',
      group: 'operate',
      label: 'nav',
      path: '/prompt-releases',
      icon: <IconSend />,
      order: 36,
    });
    ctx.register(ResourceActions, { key: 'prompt-releases', kinds: ['prompt'], order: 10, component: ReleasesButton });
  },
});
