import { defineExtension } from '@tessera/sdk/client';
import { HelloPage } from './HelloPage.tsx';

export default defineExtension({
  id: 'hello',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    ctx.route({ path: '/hello', component: HelloPage, title: 'title' });
    ctx.sidebar({ key: 'hello', area: 'explore', label: 'nav.hello', path: '/hello' });
  },
});
