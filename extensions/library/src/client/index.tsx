import { defineExtension, lazyPage } from '@tessera/sdk/client';
import { CurrentSpaceService } from '@tessera/ext-spaces/shared';
import { setCurrentSpace } from './space.ts';

const LibraryPage = lazyPage(() => import('./LibraryPage.tsx').then((m) => m.LibraryPage));

export default defineExtension({
  id: 'library',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    setCurrentSpace(ctx.service(CurrentSpaceService));
    ctx.route({ path: '/library', component: LibraryPage, title: 'title' });
    ctx.sidebar({ key: 'library', area: 'space', label: 'nav', path: '/library', order: 5 });
  },
});
