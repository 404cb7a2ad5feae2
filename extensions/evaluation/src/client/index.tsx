import { IconExperiment } from '@arco-design/web-react/icon';
import { defineExtension, lazyPage } from '@tessera/sdk/client';
import { CurrentSpaceService } from '@tessera/ext-spaces/shared';
import { setCurrentSpace } from './space.ts';

const EvaluationPage = lazyPage(() => import('./EvaluationPage.tsx').then((m) => m.EvaluationPage));

export default defineExtension({
  id: 'evaluation',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    setCurrentSpace(ctx.service(CurrentSpaceService));
    ctx.route({ path: '/evaluation', component: EvaluationPage, title: 'title' });
    ctx.sidebar({
      key: 'evaluation',
      area: 'space',
      group: 'operate',
      label: 'nav',
      path: '/evaluation',
      icon: <IconExperiment />,
      order: 20,
    });
  },
});
