import { defineExtension, lazyPage, lazyView, ResourceKinds } from '@tessera/sdk/client';
import { BotSkillPanels } from '@tessera/ext-bots/client';
import { CurrentSpaceService } from '@tessera/ext-spaces/shared';
import { IconBulb } from '@arco-design/web-react/icon';
import { setCurrentSpace } from './space.ts';

// Drawn only in its editor: the code loads then.
const MemoryPanel = lazyView(() => import('./MemoryPanel.tsx').then((m) => m.MemoryPanel));

const BasesPage = lazyPage(() => import('./BasesPage.tsx').then((m) => m.BasesPage));
const BasePage = lazyPage(() => import('./BasePage.tsx').then((m) => m.BasePage));

export default defineExtension({
  id: 'memory',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    setCurrentSpace(ctx.service(CurrentSpaceService));
    ctx.register(BotSkillPanels, {
      key: 'memory',
      label: 'label',
      description: 'help',
      order: 40,
      empty: () => ({ profile: true, events: true }),
      Panel: MemoryPanel,
    });
    ctx.route({ path: '/memory', component: BasesPage, title: 'bases.title' });
    ctx.route({ path: '/memory/:memorybase_id', component: BasePage, title: 'bases.title' });
    ctx.sidebar({
      key: 'memory',
      area: 'space',
      group: 'data',
      label: 'bases.nav',
      path: '/memory',
      icon: <IconBulb />,
      order: 30,
    });
    ctx.register(ResourceKinds, {
      kind: 'memory',
      label: 'bases.kind',
      createLabel: 'bases.create',
      icon: IconBulb,
      order: 45,
      path: '/memory',
      createPath: '/memory?create=1',
    });
  },
});
