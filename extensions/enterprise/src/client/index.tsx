// Enterprises and organizations (client half): the Enterprise page and where its invite links lead.
import { IconHome } from '@arco-design/web-react/icon';
import { defineExtension, lazyPage } from '@tessera/sdk/client';

const EnterprisePage = lazyPage(() => import('./EnterprisePage.tsx').then((m) => m.EnterprisePage));
const JoinPage = lazyPage(() => import('./JoinPage.tsx').then((m) => m.JoinPage));

export default defineExtension({
  id: 'enterprise',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    ctx.route({ path: '/enterprise', component: EnterprisePage, title: 'title' });
    ctx.route({ path: '/enterprise/join/:key', component: JoinPage, title: 'joinPageTitle' });
    ctx.sidebar({
      key: 'enterprise',
      area: 'space',
      group: 'space',
      label: 'nav',
      path: '/enterprise',
      icon: <IconHome />,
      order: 50,
    });
  },
});
