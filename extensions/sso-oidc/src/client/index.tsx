// Single sign-on (client half): the Settings tab where platform administrators keep OpenID Connect connections. The
// sign-in page's "Sign in with SSO" is identity's (it lists what the AuthMethods point offers an email).
import { defineExtension, lazyPage } from '@tessera/sdk/client';

const SsoSettings = lazyPage(() => import('./SsoSettings.tsx').then((m) => m.SsoSettings));

export default defineExtension({
  id: 'sso-oidc',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    ctx.settingsPage({ key: 'sso', label: 'tab', component: SsoSettings, order: 40 });
  },
});
