import { defineExtension } from '@tessera/sdk/client';
import enUS from '../locales/en-US.json';
import zhCN from '../locales/zh-CN.json';
import { HelloPage } from './HelloPage.tsx';

export default defineExtension({
  id: 'hello',
  register(ctx) {
    ctx.i18n({ 'en-US': enUS, 'zh-CN': zhCN });
    ctx.route({ path: '/hello', component: HelloPage, title: 'title' });
    ctx.sidebar({ key: 'hello', area: 'explore', label: 'nav.hello', path: '/hello' });
  },
});
