import { defineExtension, lazyPage, ResourceKinds } from '@tessera/sdk/client';
import { CurrentSpaceService } from '@tessera/ext-spaces/shared';
import { IconApps } from '@arco-design/web-react/icon';
import { setCurrentSpace } from './space.ts';

const ProjectsPage = lazyPage(() => import('./ProjectsPage.tsx').then((m) => m.ProjectsPage));
const ProjectPage = lazyPage(() => import('./ProjectPage.tsx').then((m) => m.ProjectPage));

export default defineExtension({
  id: 'projects',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    setCurrentSpace(ctx.service(CurrentSpaceService));
    ctx.route({ path: '/projects', component: ProjectsPage, title: 'title' });
    ctx.route({ path: '/projects/:project_id', component: ProjectPage, title: 'title', layout: 'bare' });
    ctx.sidebar({
      key: 'projects',
      area: 'space',
      group: 'build',
      label: 'nav',
      path: '/projects',
      icon: <IconApps />,
      order: 20,
    });
    ctx.register(ResourceKinds, {
      kind: 'project',
      label: 'kind',
      createLabel: 'create',
      icon: IconApps,
      order: 5,
      path: '/projects',
      createPath: '/projects?create=1',
    });
  },
});
