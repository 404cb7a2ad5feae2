import { defineExtension } from '@tessera/sdk/client';
import enUS from '../locales/en-US.json';
import zhCN from '../locales/zh-CN.json';
import { HomePage } from './HomePage.tsx';

export default defineExtension({
  id: 'home',
  register(ctx) {
    ctx.i18n({ 'en-US': enUS, 'zh-CN': zhCN });
    ctx.route({ path: '/', component: HomePage, title: 'title' });
    ctx.sidebar({ key: 'home', area: 'home', label: 'nav.home', path: '/', order: 0 });
  },
});
