// Single sign-on (client half): the Settings tab where platform administrators keep OpenID Connect connections, and
// an enterprise's tab where its admins keep its own. The
// sign-in page's "Sign in with SSO" is identity's (it lists what the AuthMethods point offers an email).
import { defineExtension, lazyPage, lazyView } from '@tessera/sdk/client';
import { EnterpriseTabs } from '@tessera/ext-enterprise/shared';

const SsoSettings = lazyPage(() => import('./SsoSettings.tsx').then((m) => m.SsoSettings));
const EnterpriseSso = lazyView<{ enterpriseId: string; admin: boolean }>(() =>
  import('./SsoSettings.tsx').then((m) => m.SsoSettings),
);

export default defineExtension({
  id: 'sso-oidc',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    ctx.settingsPage({ key: 'sso', label: 'tab', component: SsoSettings, order: 40 });
    // An enterprise's own connections, kept by its admins on the Enterprise page.
    ctx.register(EnterpriseTabs, { key: 'sso', label: 'tab', adminOnly: true, component: EnterpriseSso, order: 60 });
  },
});
