// Datasets (client half): the space's datasets and one dataset's page (items, import, versions, fields).
import { IconStorage } from '@arco-design/web-react/icon';
import { defineExtension, lazyPage, ResourceKinds } from '@tessera/sdk/client';
import { CurrentSpaceService } from '@tessera/ext-spaces/shared';
import { CurrentUserService } from '@tessera/ext-identity/shared';
import { setCurrentSpace, setCurrentUser } from './space.ts';

const DatasetsPage = lazyPage(() => import('./DatasetsPage.tsx').then((m) => m.DatasetsPage));
const DatasetPage = lazyPage(() => import('./DatasetPage.tsx').then((m) => m.DatasetPage));
const LabelPage = lazyPage(() => import('./LabelPage.tsx').then((m) => m.LabelPage));
const TraceAnnotationPage = lazyPage(() => import('./TraceAnnotationPage.tsx').then((m) => m.TraceAnnotationPage));

export default defineExtension({
  id: 'datasets',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    setCurrentSpace(ctx.service(CurrentSpaceService));
    setCurrentUser(ctx.service(CurrentUserService));
    ctx.route({ path: '/datasets', component: DatasetsPage, title: 'title' });
    ctx.route({ path: '/datasets/trace-annotation', component: TraceAnnotationPage, title: 'ann.traces.title' });
    ctx.route({ path: '/datasets/:datasetId', component: DatasetPage, title: 'title' });
    ctx.route({ path: '/datasets/:datasetId/label/:jobId', component: LabelPage, title: 'label.title' });
    ctx.sidebar({
      key: 'datasets',
      area: 'space',
      group: 'operate',
      label: 'nav',
      path: '/datasets',
      icon: <IconStorage />,
      order: 19,
    });
    ctx.register(ResourceKinds, {
      kind: 'dataset',
      label: 'kind',
      icon: IconStorage,
      order: 70,
      path: '/datasets',
      itemPath: (id) => `/datasets/${id}`,
    });
  },
});
