// Service identities (client half): the Service identities page of a space, beside access tokens.
import { IconRobot } from '@arco-design/web-react/icon';
import { defineExtension, lazyPage } from '@tessera/sdk/client';
import { CurrentSpaceService } from '@tessera/ext-spaces/shared';
import { setCurrentSpace } from './store.ts';

const ServicesPage = lazyPage(() => import('./ServicesPage.tsx').then((m) => m.ServicesPage));

export default defineExtension({
  id: 'service-identities',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    setCurrentSpace(ctx.service(CurrentSpaceService));
    ctx.route({ path: '/service-identities', component: ServicesPage, title: 'title' });
    ctx.sidebar({
      key: 'service-identities',
      area: 'token',
      group: 'space',
      label: 'nav',
      path: '/service-identities',
      icon: <IconRobot />,
      order: 27,
    });
  },
});
