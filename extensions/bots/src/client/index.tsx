import { IconRobot } from '@arco-design/web-react/icon';
import { defineExtension, lazyPage, OnboardingSteps, ResourceKinds } from '@tessera/sdk/client';
import { CurrentSpaceService } from '@tessera/ext-spaces/shared';
import { botKind } from './kind.tsx';
import { botSteps } from './onboarding.ts';
import { setCurrentSpace } from './space.ts';

// The pages' code loads when a page first opens.
const LibraryPage = lazyPage(() => import('./LibraryPage.tsx').then((m) => m.LibraryPage));
const EditorPage = lazyPage(() => import('./editor/EditorPage.tsx').then((m) => m.EditorPage));
const ChatPage = lazyPage(() => import('./ChatPage.tsx').then((m) => m.ChatPage));

export default defineExtension({
  id: 'bots',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    setCurrentSpace(ctx.service(CurrentSpaceService));
    ctx.route({ path: '/bots', component: LibraryPage, title: 'title' });
    ctx.route({ path: '/bots/:bot_id', component: EditorPage, title: 'title', layout: 'bare' });
    ctx.route({ path: '/bots/:bot_id/chat', component: ChatPage, title: 'chatPage.title', layout: 'bare' });
    ctx.register(ResourceKinds, { ...botKind, editor: EditorPage });
    ctx.sidebar({
      key: 'bots',
      area: 'space',
      group: 'build',
      label: 'nav',
      path: '/bots',
      icon: <IconRobot />,
      order: 10,
    });
    for (const s of botSteps) ctx.register(OnboardingSteps, s);
  },
});
