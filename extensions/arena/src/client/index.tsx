// The model arena (client half): its page in the Operate group, beside evaluation.
import { IconTrophy } from '@arco-design/web-react/icon';
import { defineExtension, lazyPage } from '@tessera/sdk/client';
import { CurrentSpaceService } from '@tessera/ext-spaces/shared';
import { setCurrentSpace } from './space.ts';

const ArenaPage = lazyPage(() => import('./ArenaPage.tsx').then((m) => m.ArenaPage));

export default defineExtension({
  id: 'arena',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    setCurrentSpace(ctx.service(CurrentSpaceService));
    ctx.route({ path: '/arena', component: ArenaPage, title: 'title' });
    ctx.sidebar({
      key: 'arena',
      area: 'space',
      group: 'operate',
      label: 'nav',
      path: '/arena',
      icon: <IconTrophy />,
      order: 22,
    });
  },
});
