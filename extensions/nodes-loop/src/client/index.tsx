import { defineExtension, lazyView } from '@tessera/sdk/client';
import { NodeTypeClients } from '@tessera/ext-workflow/client';
import { IconStorage, IconLoop, IconSkipNext, IconStop, IconEdit } from '@arco-design/web-react/icon';
import { hintForm } from './hint.ts';

// The forms load when a node is first opened.
const BatchForm = lazyView(() => import('./forms.tsx').then((m) => m.BatchForm));
const LoopForm = lazyView(() => import('./forms.tsx').then((m) => m.LoopForm));

const items = { name: 'items', type: 'array' as const, value: { kind: 'literal' as const, value: [] } };

export default defineExtension({
  id: 'nodes-loop',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    ctx.register(NodeTypeClients, {
      key: 'loop',
      icon: IconLoop,
      color: '#00B42A',
      defaults: () => ({
        inputs: [items],
        settings: { loop_type: 'array', max_iterations: 1000, variables: [], collect: [] },
      }),
      Form: LoopForm,
    });
    ctx.register(NodeTypeClients, {
      key: 'batch',
      icon: IconStorage,
      color: '#00B42A',
      defaults: () => ({ inputs: [items], settings: { concurrency: 4, max_items: 100, collect: [] } }),
      Form: BatchForm,
    });
    ctx.register(NodeTypeClients, { key: 'break', icon: IconStop, color: '#F53F3F', Form: hintForm('break') });
    ctx.register(NodeTypeClients, {
      key: 'continue',
      icon: IconSkipNext,
      color: '#FF7D00',
      Form: hintForm('continue'),
    });
    ctx.register(NodeTypeClients, {
      key: 'set_loop_variable',
      icon: IconEdit,
      color: '#00B42A',
      Form: hintForm('set_loop_variable'),
    });
  },
});
