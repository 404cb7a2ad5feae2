// Connectors (client half): the Connectors page of a space (what it publishes to, the catalog, your custom
// connectors and their reviews, your enterprises' installs).
import { IconShareExternal } from '@arco-design/web-react/icon';
import { defineExtension, lazyPage } from '@tessera/sdk/client';
import { CurrentSpaceService } from '@tessera/ext-spaces/shared';
import { setCurrentSpace } from './space.ts';

const ConnectorsPage = lazyPage(() => import('./ConnectorsPage.tsx').then((m) => m.ConnectorsPage));

export default defineExtension({
  id: 'connectors',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    setCurrentSpace(ctx.service(CurrentSpaceService));
    ctx.route({ path: '/connectors', component: ConnectorsPage, title: 'title' });
    ctx.sidebar({
      key: 'connectors',
      area: 'space',
      group: 'space',
      label: 'nav',
      path: '/connectors',
      icon: <IconShareExternal />,
      order: 35,
    });
  },
});
