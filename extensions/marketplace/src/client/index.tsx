import { HomeSections, defineExtension } from '@tessera/sdk/client';
import { CurrentSpaceService } from '@tessera/ext-spaces/shared';
import { LibraryActions } from '@tessera/ext-library/client';
import { lazy } from 'react';
import { setCurrentSpace } from './api.ts';

const ExplorePage = lazy(() => import('./ExplorePage.tsx').then((m) => ({ default: m.ExplorePage })));
const TopicPage = lazy(() => import('./Curated.tsx').then((m) => ({ default: m.TopicPage })));
const ProductPage = lazy(() => import('./ProductPage.tsx').then((m) => ({ default: m.ProductPage })));
const AdminPage = lazy(() => import('./AdminPage.tsx').then((m) => ({ default: m.AdminPage })));
const ListingDialog = lazy(() => import('./ListingDialog.tsx').then((m) => ({ default: m.ListingDialog })));
const TemplatesSection = lazy(() => import('./HomeSection.tsx').then((m) => ({ default: m.TemplatesSection })));

export default defineExtension({
  id: 'marketplace',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    setCurrentSpace(ctx.service(CurrentSpaceService));
    ctx.route({ path: '/explore', component: ExplorePage, title: 'title' });
    ctx.route({ path: '/explore/topics/:topic_id', component: TopicPage, title: 'title' });
    ctx.route({ path: '/explore/:product_id', component: ProductPage, title: 'title' });
    ctx.sidebar({ key: 'explore', area: 'explore', label: 'nav', path: '/explore', order: 10 });
    ctx.settingsPage({ key: 'marketplace', label: 'admin.tab', component: AdminPage, order: 80 });
    ctx.register(LibraryActions, { key: 'list-in-marketplace', label: 'listAction', order: 10, applies: (_item, caps) => caps.can_export, Dialog: ListingDialog });
    ctx.register(HomeSections, { key: 'marketplace', component: TemplatesSection, order: 20 });
  },
});
