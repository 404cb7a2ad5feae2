import { defineExtension, lazyView } from '@tessera/sdk/client';
import { NodeTypeClients } from '@tessera/ext-workflow/client';
import { IconMindMapping } from '@arco-design/web-react/icon';

// Drawn only in its editor: the code loads then.
const SubWorkflowForm = lazyView(() => import('./form.tsx').then((m) => m.SubWorkflowForm));

export default defineExtension({
  id: 'node-subworkflow',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    ctx.register(NodeTypeClients, {
      key: 'sub_workflow',
      icon: IconMindMapping,
      color: '#722ED1',
      defaults: () => ({ settings: { workflow_id: '' } }),
      Form: SubWorkflowForm,
    });
  },
});
