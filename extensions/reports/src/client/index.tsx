// Content reports (client half): "Report" on marketplace products (their ProductActions point, when the marketplace
// runs) and Settings > Reports for platform administrators.
import { defineExtension, lazyPage, lazyView } from '@tessera/sdk/client';
import { ProductActions } from '@tessera/ext-marketplace/shared';

const ReportsAdmin = lazyPage(() => import('./ReportsAdmin.tsx').then((m) => m.ReportsAdmin));
const ReportButton = lazyView(() => import('./ReportButton.tsx').then((m) => m.ReportButton));

export default defineExtension({
  id: 'reports',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    ctx.settingsPage({ key: 'reports', label: 'tab', component: ReportsAdmin, order: 60 });
    ctx.register(ProductActions, { key: 'report', component: ReportButton, order: 90 });
  },
});
