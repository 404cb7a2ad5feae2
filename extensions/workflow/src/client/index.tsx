import { ResourceKinds, defineExtension } from '@tessera/sdk/client';
import { CurrentSpaceService } from '@tessera/ext-spaces/shared';
import enUS from '../locales/en-US.json';
import zhCN from '../locales/zh-CN.json';
import { EditorPage } from './editor/EditorPage.tsx';
import { LibraryPage } from './LibraryPage.tsx';
import { workflowKind } from './kind.tsx';
import { setCurrentSpace } from './space.ts';

export default defineExtension({
  id: 'workflow',
  register(ctx) {
    ctx.i18n({ 'en-US': enUS, 'zh-CN': zhCN });
    setCurrentSpace(ctx.service(CurrentSpaceService));
    ctx.route({ path: '/workflows', component: LibraryPage, title: 'title' });
    ctx.route({ path: '/workflows/:workflow_id', component: EditorPage, title: 'title', layout: 'bare' });
    ctx.register(ResourceKinds, workflowKind);
    ctx.sidebar({ key: 'workflows', area: 'work_flow', label: 'nav', path: '/workflows', order: 10 });
  },
});
