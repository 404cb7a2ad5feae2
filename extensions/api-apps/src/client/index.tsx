// API apps (client half): the API apps page of a space (beside access tokens): callback addresses, the events they
// take, and every delivery with the receiver's answers.
import { IconSend } from '@arco-design/web-react/icon';
import { defineExtension, lazyPage } from '@tessera/sdk/client';
import { CurrentSpaceService } from '@tessera/ext-spaces/shared';
import { setCurrentSpace } from './space.ts';

const ApiAppsPage = lazyPage(() => import('./ApiAppsPage.tsx').then((m) => m.ApiAppsPage));

export default defineExtension({
  id: 'api-apps',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    setCurrentSpace(ctx.service(CurrentSpaceService));
    ctx.route({ path: '/api-apps', component: ApiAppsPage, title: 'title' });
    ctx.sidebar({
      key: 'api-apps',
      area: 'space',
      group: 'space',
      label: 'nav',
      path: '/api-apps',
      icon: <IconSend />,
      order: 30,
    });
  },
});
