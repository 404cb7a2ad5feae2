import { defineExtension, lazyView } from '@tessera/sdk/client';
import { NodeTypeClients } from '@tessera/ext-workflow/client';
import { IconStorage } from '@arco-design/web-react/icon';

// Drawn only in its editor: the code loads then.
const DatabaseForm = (parts: { conditions?: boolean; values?: boolean; order?: boolean }) =>
  lazyView(() => import('./forms.tsx').then((m) => m.DatabaseForm(parts)));
const SqlForm = lazyView(() => import('./forms.tsx').then((m) => m.SqlForm));

const summary = (node: { node_param: { settings: Record<string, unknown> } }) =>
  (node.node_param.settings.database_name as string | undefined) || undefined;

export default defineExtension({
  id: 'node-database',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    const color = '#0fc6c2';
    ctx.register(NodeTypeClients, {
      key: 'database_select',
      icon: IconStorage,
      color,
      summary,
      Form: DatabaseForm({ conditions: true, order: true }),
      defaults: () => ({ settings: { database_id: '', conditions: [], order_by: [], limit: 100 } }),
    });
    ctx.register(NodeTypeClients, {
      key: 'database_insert',
      icon: IconStorage,
      color,
      summary,
      Form: DatabaseForm({ values: true }),
      defaults: () => ({ settings: { database_id: '', values: [] } }),
    });
    ctx.register(NodeTypeClients, {
      key: 'database_update',
      icon: IconStorage,
      color,
      summary,
      Form: DatabaseForm({ conditions: true, values: true }),
      defaults: () => ({ settings: { database_id: '', conditions: [], values: [] } }),
    });
    ctx.register(NodeTypeClients, {
      key: 'database_delete',
      icon: IconStorage,
      color,
      summary,
      Form: DatabaseForm({ conditions: true }),
      defaults: () => ({ settings: { database_id: '', conditions: [] } }),
    });
    ctx.register(NodeTypeClients, {
      key: 'database_sql',
      icon: IconStorage,
      color,
      summary: (n) =>
        typeof n.node_param.settings.sql === 'string' ? n.node_param.settings.sql.slice(0, 60) : undefined,
      Form: SqlForm,
      defaults: () => ({ settings: { sql: '' } }),
    });
  },
});
