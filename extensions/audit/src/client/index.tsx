// The audit log (client half): the Audit log page of a space (its administrators), with the whole studio's log for
// platform administrators.
import { IconFile } from '@arco-design/web-react/icon';
import { defineExtension, lazyPage } from '@tessera/sdk/client';
import { CurrentUserService } from '@tessera/ext-identity/shared';
import { CurrentSpaceService } from '@tessera/ext-spaces/shared';
import { setServices } from './services.ts';

const AuditPage = lazyPage(() => import('./AuditPage.tsx').then((m) => m.AuditPage));

export default defineExtension({
  id: 'audit',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    setServices(ctx.service(CurrentSpaceService), ctx.optionalService(CurrentUserService));
    ctx.route({ path: '/audit', component: AuditPage, title: 'title' });
    ctx.sidebar({
      key: 'audit',
      area: 'space',
      group: 'space',
      label: 'nav',
      path: '/audit',
      icon: <IconFile />,
      order: 40,
    });
  },
});
