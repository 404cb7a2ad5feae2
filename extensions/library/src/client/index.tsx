import { IconFolder } from '@arco-design/web-react/icon';
import { defineExtension, lazyPage, ResourceKinds, SearchProviders } from '@tessera/sdk/client';
import { CurrentSpaceService } from '@tessera/ext-spaces/shared';
import { resourceSearch } from './search.ts';
import { setCurrentSpace } from './space.ts';

const LibraryPage = lazyPage(() => import('./LibraryPage.tsx').then((m) => m.LibraryPage));

export default defineExtension({
  id: 'library',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    const space = ctx.service(CurrentSpaceService);
    setCurrentSpace(space);
    ctx.route({ path: '/library', component: LibraryPage, title: 'title' });
    ctx.sidebar({
      key: 'library',
      area: 'space',
      group: 'build',
      label: 'nav',
      path: '/library',
      icon: <IconFolder />,
      order: 90,
    });
    // The command palette finds the space's resources of every kind by name.
    ctx.register(
      SearchProviders,
      resourceSearch(ctx.api, ctx.registry(ResourceKinds), () => space.get()),
    );
  },
});
