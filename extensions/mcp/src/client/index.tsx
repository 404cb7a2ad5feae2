import { IconLink } from '@arco-design/web-react/icon';
import { defineExtension, lazyPage } from '@tessera/sdk/client';
import { CatalogueSections, NodeTypeClients } from '@tessera/ext-workflow/client';
import { CurrentSpaceService } from '@tessera/ext-spaces/shared';
import { mcpNodeClient, mcpSection } from './catalogue.tsx';
import { setCurrentSpace } from './space.ts';

const McpPage = lazyPage(() => import('./McpPage.tsx').then((m) => m.McpPage));

export default defineExtension({
  id: 'mcp',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    setCurrentSpace(ctx.service(CurrentSpaceService));
    ctx.route({ path: '/mcp', component: McpPage, title: 'title' });
    ctx.sidebar({
      key: 'mcp',
      area: 'space',
      group: 'build',
      label: 'nav',
      path: '/mcp',
      icon: <IconLink />,
      order: 50,
    });
    ctx.register(CatalogueSections, mcpSection);
    ctx.register(NodeTypeClients, mcpNodeClient);
  },
});
