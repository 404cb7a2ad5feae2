import { defineExtension, lazyPage, ResourceKinds } from '@tessera/sdk/client';
import { CurrentSpaceService } from '@tessera/ext-spaces/shared';
import { IconCommand } from '@arco-design/web-react/icon';
import { setCurrentSpace } from './space.ts';

const PromptsPage = lazyPage(() => import('./PromptsPage.tsx').then((m) => m.PromptsPage));
const EditorPage = lazyPage(() => import('./EditorPage.tsx').then((m) => m.EditorPage));

export default defineExtension({
  id: 'prompts',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    setCurrentSpace(ctx.service(CurrentSpaceService));
    ctx.route({ path: '/prompts', component: PromptsPage, title: 'title' });
    ctx.route({ path: '/prompts/:prompt_id', component: EditorPage, title: 'title' });
    ctx.sidebar({
      key: 'prompts',
      area: 'space',
      group: 'build',
      label: 'nav',
      path: '/prompts',
      icon: <IconCommand />,
      order: 60,
    });
    ctx.register(ResourceKinds, {
      kind: 'prompt',
      label: 'kind',
      createLabel: 'create',
      icon: IconCommand,
      order: 60,
      path: '/prompts',
      createPath: '/prompts?create=1',
    });
  },
});
