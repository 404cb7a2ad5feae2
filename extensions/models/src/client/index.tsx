import { IconThunderbolt } from '@arco-design/web-react/icon';
import { defineExtension, lazyPage, lazyView, OnboardingSteps, provideView } from '@tessera/sdk/client';
import { CurrentUserService } from '@tessera/ext-identity/shared';
import { CurrentSpaceService } from '@tessera/ext-spaces/shared';
import { ModelSelectView } from '../shared/index.ts';
import { connectModelStep } from './onboarding.ts';
import { setServices } from './services.ts';

// The page loads its code when first opened.
const ModelsPage = lazyPage(() => import('./ModelsPage.tsx').then((m) => m.ModelsPage));
const ModelSelect = lazyView(() => import('./components.tsx').then((m) => m.ModelSelect));

export default defineExtension({
  id: 'models',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    setServices({ space: ctx.service(CurrentSpaceService), user: ctx.service(CurrentUserService) });
    ctx.route({ path: '/models', component: ModelsPage, title: 'title' });
    ctx.sidebar({
      key: 'models',
      area: 'model',
      group: 'operate',
      label: 'nav',
      path: '/models',
      icon: <IconThunderbolt />,
      order: 10,
    });
    ctx.register(OnboardingSteps, connectModelStep);
    provideView(ctx, ModelSelectView, ModelSelect);
  },
});
