// Online evaluation (client half): the observation tasks page under Operate.
import { IconCheckCircle } from '@arco-design/web-react/icon';
import { defineExtension, lazyPage } from '@tessera/sdk/client';
import { CurrentSpaceService } from '@tessera/ext-spaces/shared';
import { setCurrentSpace } from './space.ts';

const OnlineEvalPage = lazyPage(() => import('./OnlineEvalPage.tsx').then((m) => m.OnlineEvalPage));

export default defineExtension({
  id: 'online-eval',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    setCurrentSpace(ctx.service(CurrentSpaceService));
    ctx.route({ path: '/online-eval', component: OnlineEvalPage, title: 'title' });
    ctx.sidebar({
      key: 'online-eval',
      area: 'space',
      group: 'operate',
      label: 'nav',
      path: '/online-eval',
      icon: <IconCheckCircle />,
      order: 31,
    });
  },
});
