import { defineExtension } from '@tessera/sdk/client';
import { CreateMenu, PalettePanel, SearchButton } from './header.tsx';

export default defineExtension({
  id: 'navigator',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    ctx.headerItem({ key: 'search', component: SearchButton, order: 1 });
    ctx.headerItem({ key: 'create', component: CreateMenu, order: 5 });
    ctx.panel({ key: 'palette', component: PalettePanel });
  },
});
