import { IconHome } from '@arco-design/web-react/icon';
import { defineExtension } from '@tessera/sdk/client';
import { HomePage } from './HomePage.tsx';

export default defineExtension({
  id: 'home',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    ctx.route({ path: '/', component: HomePage, title: 'title' });
    ctx.sidebar({ key: 'home', area: 'home', label: 'nav.home', path: '/', icon: <IconHome />, order: 0 });
  },
});
