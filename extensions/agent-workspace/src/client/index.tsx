// The agent workspace (client half): the workspace (query box, examples, tasks), a task's page, scheduled tasks, the
// replay page anyone with the link opens without signing in, and Settings > Agent examples.
import { IconMindMapping } from '@arco-design/web-react/icon';
import { defineExtension, lazyPage } from '@tessera/sdk/client';
import { CurrentSpaceService } from '@tessera/ext-spaces/shared';
import { setCurrentSpace } from './space.ts';

const WorkspacePage = lazyPage(() => import('./WorkspacePage.tsx').then((m) => m.WorkspacePage));
const TaskPage = lazyPage(() => import('./TaskPage.tsx').then((m) => m.TaskPage));
const ScheduledPage = lazyPage(() => import('./ScheduledPage.tsx').then((m) => m.ScheduledPage));
const ReplayPage = lazyPage(() => import('./ReplayPage.tsx').then((m) => m.ReplayPage));
const ExamplesAdmin = lazyPage(() => import('./ExamplesAdmin.tsx').then((m) => m.ExamplesAdmin));

export default defineExtension({
  id: 'agent-workspace',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    setCurrentSpace(ctx.service(CurrentSpaceService));
    ctx.route({ path: '/agent', component: WorkspacePage, title: 'title' });
    ctx.route({ path: '/agent/tasks/:taskId', component: TaskPage, title: 'title' });
    ctx.route({ path: '/agent/scheduled', component: ScheduledPage, title: 'scheduled.title' });
    ctx.route({ path: '/replay/:shareId', component: ReplayPage, title: 'replay.title', public: true, layout: 'bare' });
    ctx.settingsPage({ key: 'agent-examples', label: 'examples.settingsTab', component: ExamplesAdmin, order: 65 });
    ctx.sidebar({
      key: 'agent-workspace',
      area: 'space',
      group: 'start',
      label: 'nav',
      path: '/agent',
      icon: <IconMindMapping />,
      order: 5,
    });
  },
});
