// Cards (client half): the Cards page in the Build group, the card builder, and the card view chats draw card
// answers with.
import { IconIdcard } from '@arco-design/web-react/icon';
import { defineExtension, lazyPage, lazyView } from '@tessera/sdk/client';
import { ChatMessageViews, type ChatMessageViewProps } from '@tessera/ext-bots/client';
import { CurrentSpaceService } from '@tessera/ext-spaces/shared';
import { setCurrentSpace } from './space.ts';

const CardsPage = lazyPage(() => import('./CardsPage.tsx').then((m) => m.CardsPage));
const BuilderPage = lazyPage(() => import('./BuilderPage.tsx').then((m) => m.BuilderPage));
const CardMessageView = lazyView<ChatMessageViewProps>(() => import('./CardView.tsx').then((m) => m.CardMessageView));

export default defineExtension({
  id: 'cards',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    setCurrentSpace(ctx.service(CurrentSpaceService));
    ctx.route({ path: '/cards', component: CardsPage, title: 'title' });
    ctx.route({ path: '/cards/:card_id', component: BuilderPage, title: 'title' });
    ctx.sidebar({
      key: 'cards',
      area: 'space',
      group: 'build',
      label: 'nav',
      path: '/cards',
      icon: <IconIdcard />,
      order: 45,
    });
    ctx.register(ChatMessageViews, { contentType: 'card', View: CardMessageView });
  },
});
