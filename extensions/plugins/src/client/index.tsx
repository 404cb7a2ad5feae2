import { IconTool } from '@arco-design/web-react/icon';
import { defineExtension, lazyPage, ResourceKinds } from '@tessera/sdk/client';
import { CatalogueSections, InterruptViews, NodeTypeClients } from '@tessera/ext-workflow/client';
import { CurrentSpaceService } from '@tessera/ext-spaces/shared';
import { apiNodeClient, oauthInterrupt, pluginSection } from './catalogue.tsx';
import { pluginKind } from './kind.tsx';
import { setCurrentSpace } from './space.ts';

// The pages' code loads when a page first opens.
const LibraryPage = lazyPage(() => import('./LibraryPage.tsx').then((m) => m.LibraryPage));
const EditorPage = lazyPage(() => import('./EditorPage.tsx').then((m) => m.EditorPage));

export default defineExtension({
  id: 'plugins',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    setCurrentSpace(ctx.service(CurrentSpaceService));
    ctx.route({ path: '/plugins', component: LibraryPage, title: 'title' });
    ctx.route({ path: '/plugins/:plugin_id', component: EditorPage, title: 'title' });
    ctx.sidebar({
      key: 'plugins',
      area: 'space',
      group: 'build',
      label: 'nav',
      path: '/plugins',
      icon: <IconTool />,
      order: 40,
    });
    ctx.register(ResourceKinds, pluginKind);
    ctx.register(CatalogueSections, pluginSection);
    ctx.register(NodeTypeClients, apiNodeClient);
    ctx.register(InterruptViews, oauthInterrupt);
  },
});
