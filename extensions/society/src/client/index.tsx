// Agent societies (client half): the Societies page in the Build group.
import { IconUserGroup } from '@arco-design/web-react/icon';
import { defineExtension, lazyPage } from '@tessera/sdk/client';
import { CurrentSpaceService } from '@tessera/ext-spaces/shared';
import { setCurrentSpace } from './space.ts';

const SocietyPage = lazyPage(() => import('./SocietyPage.tsx').then((m) => m.SocietyPage));

export default defineExtension({
  id: 'society',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    setCurrentSpace(ctx.service(CurrentSpaceService));
    ctx.route({ path: '/societies', component: SocietyPage, title: 'title' });
    ctx.sidebar({
      key: 'societies',
      area: 'space',
      group: 'build',
      label: 'nav',
      path: '/societies',
      icon: <IconUserGroup />,
      order: 15,
    });
  },
});
