import { defineExtension, lazyPage, ResourceKinds } from '@tessera/sdk/client';
import { CurrentSpaceService } from '@tessera/ext-spaces/shared';
import { IconBook } from '@arco-design/web-react/icon';
import { setCurrentSpace } from './api.ts';

const LibraryPage = lazyPage(() => import('./LibraryPage.tsx').then((m) => m.LibraryPage));
const DatasetPage = lazyPage(() => import('./DatasetPage.tsx').then((m) => m.DatasetPage));

export default defineExtension({
  id: 'knowledge',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    setCurrentSpace(ctx.service(CurrentSpaceService));
    ctx.route({ path: '/knowledge', component: LibraryPage, title: 'title' });
    ctx.route({ path: '/knowledge/:dataset_id', component: DatasetPage, title: 'title' });
    ctx.sidebar({
      key: 'knowledge',
      area: 'space',
      group: 'data',
      label: 'nav',
      path: '/knowledge',
      icon: <IconBook />,
      order: 10,
    });
    ctx.register(ResourceKinds, {
      kind: 'knowledge',
      label: 'kind.label',
      createLabel: 'create',
      icon: IconBook,
      order: 35,
      path: '/knowledge',
      createPath: '/knowledge?create=1',
    });
  },
});
