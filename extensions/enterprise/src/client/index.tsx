// Enterprises and organizations (client half): the Enterprise page and where its invite links lead.
import { IconHome } from '@arco-design/web-react/icon';
import { defineExtension, lazyPage } from '@tessera/sdk/client';
import { TokenEnterpriseSources } from '@tessera/ext-identity/shared';

const EnterprisePage = lazyPage(() => import('./EnterprisePage.tsx').then((m) => m.EnterprisePage));
const JoinPage = lazyPage(() => import('./JoinPage.tsx').then((m) => m.JoinPage));

export default defineExtension({
  id: 'enterprise',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    ctx.route({ path: '/enterprise', component: EnterprisePage, title: 'title' });
    // The access-token form offers the person's enterprises for enterprise permissions.
    ctx.register(TokenEnterpriseSources, {
      key: 'enterprise',
      list: async () => {
        const { ListEnterprises } = await import('../shared/api.ts');
        return (await ctx.api.call(ListEnterprises, {})).enterprises.map((e) => ({
          id: e.enterprise_id,
          name: e.name,
        }));
      },
    });
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
