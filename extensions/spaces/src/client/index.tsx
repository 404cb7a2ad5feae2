import { IconUserGroup } from '@arco-design/web-react/icon';
import { defineExtension, lazyPage } from '@tessera/sdk/client';
import { CurrentUserService, TokenWorkspaceSources } from '@tessera/ext-identity/shared';
import { CurrentSpaceService, ListSpaces } from '../shared/index.ts';
import { createCurrentSpace, setCurrentSpaceStore } from './current.ts';
import { setCurrentUser } from './api.ts';
import { SpaceSwitcher } from './SpaceSwitcher.tsx';

// Pages load their code when first opened.
const InvitePage = lazyPage(() => import('./InvitePage.tsx').then((m) => m.InvitePage));
const SpaceSettingsPage = lazyPage(() => import('./SpaceSettings.tsx').then((m) => m.SpaceSettingsPage));

export default defineExtension({
  id: 'spaces',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    const current = createCurrentSpace();
    setCurrentSpaceStore(current);
    setCurrentUser(ctx.service(CurrentUserService));
    ctx.provide(CurrentSpaceService, current);
    ctx.headerItem({ key: 'space-switcher', component: SpaceSwitcher, order: 10 });
    ctx.route({ path: '/space/settings', component: SpaceSettingsPage, title: 'settings.title' });
    ctx.route({ path: '/invite/:key', component: InvitePage, title: 'invite.title', public: true });
    ctx.sidebar({
      key: 'space-settings',
      area: 'space',
      group: 'space',
      label: 'nav.settings',
      path: '/space/settings',
      icon: <IconUserGroup />,
      order: 10,
    });
    // The access-token form offers the user's spaces.
    ctx.register(TokenWorkspaceSources, {
      key: 'spaces',
      list: async () =>
        (await ctx.api.call(ListSpaces, {})).spaces.map((s) => ({
          id: s.space_id,
          name: s.name,
        })),
    });
  },
});
