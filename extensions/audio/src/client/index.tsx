// Voice (client half): the Voices page in the Operate group, beside Models.
import { IconSound } from '@arco-design/web-react/icon';
import { defineExtension, lazyPage } from '@tessera/sdk/client';
import { CurrentSpaceService } from '@tessera/ext-spaces/shared';
import { setCurrentSpace } from './space.ts';

const VoicesPage = lazyPage(() => import('./VoicesPage.tsx').then((m) => m.VoicesPage));

export { useRecorder } from './recorder.ts';

export default defineExtension({
  id: 'audio',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    setCurrentSpace(ctx.service(CurrentSpaceService));
    ctx.route({ path: '/voices', component: VoicesPage, title: 'title' });
    ctx.sidebar({
      key: 'voices',
      area: 'space',
      group: 'operate',
      label: 'nav',
      path: '/voices',
      icon: <IconSound />,
      order: 11,
    });
  },
});
