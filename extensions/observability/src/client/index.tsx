import { IconHistory } from '@arco-design/web-react/icon';
import { defineExtension, HomeSections, lazyPage, lazyView, provideRoute } from '@tessera/sdk/client';
import { CurrentSpaceService } from '@tessera/ext-spaces/shared';
import { TraceRoute } from '../shared/index.ts';
import { setCurrentSpace } from './space.ts';

// The pages' code (and the chart library) loads when the page first opens.
const TracesPage = lazyPage(() => import('./TracesPage.tsx').then((m) => m.TracesPage));
const WeekSection = lazyView(() => import('./WeekSection.tsx').then((m) => m.WeekSection), { fallback: null });

export default defineExtension({
  id: 'observability',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    setCurrentSpace(ctx.service(CurrentSpaceService));
    ctx.route({ path: '/traces', component: TracesPage, title: 'title' });
    provideRoute(ctx, TraceRoute, ({ trace_id }) => `/traces?trace_id=${encodeURIComponent(trace_id)}`);
    ctx.sidebar({
      key: 'traces',
      area: 'space',
      group: 'operate',
      label: 'nav',
      path: '/traces',
      icon: <IconHistory />,
      order: 30,
    });
    // The home page says what the space ran this week.
    ctx.register(HomeSections, { key: 'this-week', component: WeekSection, order: 10 });
  },
});
