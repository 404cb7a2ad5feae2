// The UI builder (client half): the space's apps and the builder. The published app (/apps/:id) is a page of its own,
// served by the server half with a light bundle (src/web, the webEntry "app"), not a page of the studio.
import { IconApps } from '@arco-design/web-react/icon';
import { defineExtension, lazyPage, ResourceKinds } from '@tessera/sdk/client';
import { CurrentSpaceService } from '@tessera/ext-spaces/shared';
import { setCurrentSpace } from './space.ts';

const AppsPage = lazyPage(() => import('./AppsPage.tsx').then((m) => m.AppsPage));
const BuilderPage = lazyPage(() => import('./BuilderPage.tsx').then((m) => m.BuilderPage));
export default defineExtension({
  id: 'ui-builder',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    setCurrentSpace(ctx.service(CurrentSpaceService));
    ctx.route({ path: '/ui-apps', component: AppsPage, title: 'title' });
    ctx.route({ path: '/ui-apps/:uiId', component: BuilderPage, title: 'title' });
    ctx.sidebar({
      key: 'ui-apps',
      area: 'space',
      group: 'build',
      label: 'nav',
      path: '/ui-apps',
      icon: <IconApps />,
      order: 25,
    });
    // Apps in the library and projects (made from the Apps page, where a name or an agent app's bot is chosen).
    ctx.register(ResourceKinds, {
      kind: 'ui',
      label: 'kind',
      icon: IconApps,
      order: 65,
      path: '/ui-apps',
      itemPath: (id) => `/ui-apps/${id}`,
    });
  },
});
