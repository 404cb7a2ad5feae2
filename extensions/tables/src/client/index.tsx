import { defineExtension, lazyPage, ResourceKinds } from '@tessera/sdk/client';
import { CurrentSpaceService } from '@tessera/ext-spaces/shared';
import { IconStorage } from '@arco-design/web-react/icon';
import { setCurrentSpace } from './space.ts';

const LibraryPage = lazyPage(() => import('./LibraryPage.tsx').then((m) => m.LibraryPage));
const EditorPage = lazyPage(() => import('./EditorPage.tsx').then((m) => m.EditorPage));

export default defineExtension({
  id: 'tables',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    setCurrentSpace(ctx.service(CurrentSpaceService));
    ctx.route({ path: '/tables', component: LibraryPage, title: 'title' });
    ctx.route({ path: '/tables/:database_id', component: EditorPage, title: 'title' });
    ctx.sidebar({
      key: 'tables',
      area: 'space',
      group: 'data',
      label: 'nav',
      path: '/tables',
      icon: <IconStorage />,
      order: 20,
    });
    ctx.register(ResourceKinds, {
      kind: 'table',
      label: 'kind.label',
      createLabel: 'create',
      icon: IconStorage,
      order: 40,
      path: '/tables',
      createPath: '/tables?create=1',
    });
  },
});
