import { IconCompass } from '@arco-design/web-react/icon';
import { defineExtension, HomeSections, lazyPage, lazyView } from '@tessera/sdk/client';
import { CurrentSpaceService } from '@tessera/ext-spaces/shared';
import { LibraryActions } from '@tessera/ext-library/client';
import { setCurrentSpace } from './api.ts';

const ExplorePage = lazyPage(() => import('./ExplorePage.tsx').then((m) => m.ExplorePage));
const TopicPage = lazyPage(() => import('./Curated.tsx').then((m) => m.TopicPage));
const ProductPage = lazyPage(() => import('./ProductPage.tsx').then((m) => m.ProductPage));
const AdminPage = lazyPage(() => import('./AdminPage.tsx').then((m) => m.AdminPage));
const ListingDialog = lazyView(() => import('./ListingDialog.tsx').then((m) => m.ListingDialog), { fallback: null });
const TemplatesSection = lazyView(() => import('./HomeSection.tsx').then((m) => m.TemplatesSection), {
  fallback: null,
});

export default defineExtension({
  id: 'marketplace',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    setCurrentSpace(ctx.service(CurrentSpaceService));
    ctx.route({ path: '/explore', component: ExplorePage, title: 'title' });
    ctx.route({ path: '/explore/topics/:topic_id', component: TopicPage, title: 'title' });
    ctx.route({ path: '/explore/:product_id', component: ProductPage, title: 'title' });
    ctx.sidebar({ key: 'explore', area: 'explore', label: 'nav', path: '/explore', icon: <IconCompass />, order: 10 });
    ctx.settingsPage({ key: 'marketplace', label: 'admin.tab', component: AdminPage, order: 80 });
    ctx.register(LibraryActions, {
      key: 'list-in-marketplace',
      label: 'listAction',
      order: 10,
      applies: (_item, caps) => caps.can_export,
      Dialog: ListingDialog,
    });
    ctx.register(HomeSections, { key: 'marketplace', component: TemplatesSection, order: 20 });
  },
});
