import { lazy } from 'react';
import { defineExtension } from '@tessera/sdk/client';
import enUS from '../locales/en-US.json';
import zhCN from '../locales/zh-CN.json';

// The settings tab loads its code when first opened.
const ExtensionsPage = lazy(() => import('./ExtensionsPage.tsx').then((m) => ({ default: m.ExtensionsPage })));

export default defineExtension({
  id: 'extensions-admin',
  register(ctx) {
    ctx.i18n({ 'en-US': enUS, 'zh-CN': zhCN });
    ctx.settingsPage({ key: 'extensions', label: 'tab', component: ExtensionsPage, order: 90 });
  },
});
