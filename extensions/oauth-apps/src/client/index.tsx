// OAuth apps (client half): the OAuth apps page (apps a user made and apps they authorized), the consent page a
// browser is sent to, and the page where a device's user code is entered.
import { IconApps } from '@arco-design/web-react/icon';
import { defineExtension, lazyPage } from '@tessera/sdk/client';

const OAuthAppsPage = lazyPage(() => import('./OAuthAppsPage.tsx').then((m) => m.OAuthAppsPage));
const AuthorizePage = lazyPage(() => import('./AuthorizePage.tsx').then((m) => m.AuthorizePage));
const DevicePage = lazyPage(() => import('./DevicePage.tsx').then((m) => m.DevicePage));

export default defineExtension({
  id: 'oauth-apps',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    ctx.route({ path: '/oauth-apps', component: OAuthAppsPage, title: 'title' });
    // Signed-out visitors are sent to sign in first, and back here afterwards.
    ctx.route({ path: '/oauth/authorize', component: AuthorizePage, layout: 'bare', title: 'consent.pageTitle' });
    ctx.route({ path: '/oauth/device', component: DevicePage, layout: 'bare', title: 'device.title' });
    ctx.sidebar({
      key: 'oauth-apps',
      area: 'token',
      group: 'space',
      label: 'nav',
      path: '/oauth-apps',
      icon: <IconApps />,
      order: 25,
    });
  },
});
