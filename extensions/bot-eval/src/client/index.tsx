// Bot evaluation (client half): batch tasks of test questions for a published bot, under Operate.
import { IconSelectAll } from '@arco-design/web-react/icon';
import { defineExtension, lazyPage } from '@tessera/sdk/client';
import { CurrentSpaceService } from '@tessera/ext-spaces/shared';
import { setCurrentSpace } from './space.ts';

const BotEvalPage = lazyPage(() => import('./BotEvalPage.tsx').then((m) => m.BotEvalPage));

export default defineExtension({
  id: 'bot-eval',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    setCurrentSpace(ctx.service(CurrentSpaceService));
    ctx.route({ path: '/bot-eval', component: BotEvalPage, title: 'title' });
    ctx.sidebar({
      key: 'bot-eval',
      area: 'space',
      group: 'operate',
      label: 'nav',
      path: '/bot-eval',
      icon: <IconSelectAll />,
      order: 21,
    });
  },
});
