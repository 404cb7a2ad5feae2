import { IconSettings } from '@arco-design/web-react/icon';
import { defineExtension, lazyPage } from '@tessera/sdk/client';
import { CurrentUserService } from '@tessera/ext-identity/shared';

// The settings tab loads its code when first opened.
const ExtensionsPage = lazyPage(() => import('./ExtensionsPage.tsx').then((m) => m.ExtensionsPage));

export default defineExtension({
  id: 'extensions-admin',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    ctx.settingsPage({ key: 'extensions', label: 'tab', component: ExtensionsPage, order: 90 });
    // The way to Settings (its tabs are for platform administrators): shown to them only. The user is read
    // when the sidebar draws (and nobody is an administrator where identity does not run).
    ctx.sidebar({
      key: 'settings',
      area: 'user',
      group: 'settings',
      label: 'nav',
      path: '/settings',
      icon: <IconSettings />,
      order: 10,
      visible: () => !!ctx.optionalService(CurrentUserService)?.get()?.is_platform_admin,
      changes: (onChange) => ctx.optionalService(CurrentUserService)?.subscribe(onChange) ?? (() => undefined),
    });
  },
});
