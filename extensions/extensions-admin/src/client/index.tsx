import { defineExtension } from '@tessera/sdk/client';
import enUS from '../locales/en-US.json';
import zhCN from '../locales/zh-CN.json';
import { ExtensionsPage } from './ExtensionsPage.tsx';

export default defineExtension({
  id: 'extensions-admin',
  register(ctx) {
    ctx.i18n({ 'en-US': enUS, 'zh-CN': zhCN });
    ctx.settingsPage({ key: 'extensions', label: 'tab', component: ExtensionsPage, order: 90 });
  },
});
