import { defineExtension, HomeSections, lazyView } from '@tessera/sdk/client';
import { CurrentSpaceService } from '@tessera/ext-spaces/shared';
import { setCurrentSpace } from './space.ts';

// Drawn on the home page; its code loads with it.
const TemplatesSection = lazyView(() => import('./TemplatesSection.tsx').then((m) => m.TemplatesSection), {
  fallback: null,
});

export default defineExtension({
  id: 'templates',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    setCurrentSpace(ctx.service(CurrentSpaceService));
    ctx.register(HomeSections, { key: 'starter-templates', component: TemplatesSection, order: 5 });
  },
});
