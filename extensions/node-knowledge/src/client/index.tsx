// The knowledge nodes in the workflow editor: which knowledge bases, how many results, how they are found.
import { defineExtension, lazyView } from '@tessera/sdk/client';
import { NodeTypeClients } from '@tessera/ext-workflow/client';
import { Typography } from '@arco-design/web-react';
import { IconBook } from '@arco-design/web-react/icon';
import { useTranslation } from 'react-i18next';

// The forms with choices load when a node is first opened.
const RetrieveForm = lazyView(() => import('./forms.tsx').then((m) => m.RetrieveForm));
const WriteForm = lazyView(() => import('./forms.tsx').then((m) => m.WriteForm));

const color = '#FF811A';

function DeleteForm() {
  const { t } = useTranslation('node-knowledge');
  return (
    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
      {t('deleteInput')}
    </Typography.Text>
  );
}

export default defineExtension({
  id: 'node-knowledge',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    const names = (n: { node_param: { settings: Record<string, unknown> } }) =>
      ((n.node_param.settings.dataset_names as string[] | undefined) ?? []).join(', ') ||
      (n.node_param.settings.dataset_name as string | undefined) ||
      undefined;
    ctx.register(NodeTypeClients, {
      key: 'knowledge_retrieve',
      icon: IconBook,
      color,
      summary: names,
      Form: RetrieveForm,
      defaults: () => ({
        inputs: [{ name: 'Query', type: 'string', value: { kind: 'literal', value: '' } }],
        settings: { dataset_list: [], top_k: 5, min_score: 0, strategy: 1 },
      }),
    });
    ctx.register(NodeTypeClients, {
      key: 'knowledge_write',
      icon: IconBook,
      color,
      summary: names,
      Form: WriteForm,
      defaults: () => ({
        inputs: [{ name: 'knowledge', type: 'file', value: { kind: 'literal', value: '' } }],
        settings: { dataset_id: '' },
      }),
    });
    ctx.register(NodeTypeClients, {
      key: 'knowledge_delete',
      icon: IconBook,
      color,
      Form: DeleteForm,
      defaults: () => ({
        inputs: [{ name: 'documentID', type: 'string', value: { kind: 'literal', value: '' } }],
        settings: {},
      }),
    });
  },
});
