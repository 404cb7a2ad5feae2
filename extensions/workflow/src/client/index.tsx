import { IconBranch } from '@arco-design/web-react/icon';
import { defineExtension, lazyPage, ResourceKinds } from '@tessera/sdk/client';
import { CurrentSpaceService } from '@tessera/ext-spaces/shared';
import { workflowKind } from './kind.tsx';
import { setCurrentSpace } from './space.ts';

// The pages' code (the canvas library, the layout engine, the editor) loads when a page first opens.
const LibraryPage = lazyPage(() => import('./LibraryPage.tsx').then((m) => m.LibraryPage));
const EditorPage = lazyPage(() => import('./editor/EditorPage.tsx').then((m) => m.EditorPage));

export default defineExtension({
  id: 'workflow',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    setCurrentSpace(ctx.service(CurrentSpaceService));
    ctx.route({ path: '/workflows', component: LibraryPage, title: 'title' });
    ctx.route({ path: '/workflows/:workflow_id', component: EditorPage, title: 'title', layout: 'bare' });
    ctx.register(ResourceKinds, { ...workflowKind, editor: EditorPage });
    ctx.sidebar({
      key: 'workflows',
      area: 'work_flow',
      group: 'build',
      label: 'nav',
      path: '/workflows',
      icon: <IconBranch />,
      order: 30,
    });
  },
});
