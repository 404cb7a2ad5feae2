// Batch jobs (client half): the Batch jobs page (a job per file of inputs) and a job's page (progress, tasks, output).
import { IconSchedule } from '@arco-design/web-react/icon';
import { defineExtension, lazyPage } from '@tessera/sdk/client';
import { CurrentSpaceService } from '@tessera/ext-spaces/shared';
import { setCurrentSpace } from './space.ts';

const JobsPage = lazyPage(() => import('./JobsPage.tsx').then((m) => m.JobsPage));
const JobPage = lazyPage(() => import('./JobPage.tsx').then((m) => m.JobPage));

export default defineExtension({
  id: 'jobs',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    setCurrentSpace(ctx.service(CurrentSpaceService));
    ctx.route({ path: '/jobs', component: JobsPage, title: 'title' });
    ctx.route({ path: '/jobs/:jobId', component: JobPage, title: 'title' });
    ctx.sidebar({
      key: 'jobs',
      area: 'space',
      group: 'operate',
      label: 'nav',
      path: '/jobs',
      icon: <IconSchedule />,
      order: 25,
    });
  },
});
