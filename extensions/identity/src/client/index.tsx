import { defineExtension } from '@tessera/sdk/client';
import { Unauthorized } from '@tessera/sdk';
import enUS from '../locales/en-US.json';
import zhCN from '../locales/zh-CN.json';
import { CSRF_COOKIE, CSRF_HEADER, CurrentUserService, PUBLIC_PATHS } from '../shared/index.ts';
import { SignInPage, SignUpPage } from './AuthPages.tsx';
import { setCurrentUserStore } from './hooks.ts';
import { ProfilePage } from './ProfilePage.tsx';
import { createCurrentUser, readCookie } from './session.ts';
import { TokensPage } from './TokensPage.tsx';
import { UserMenu } from './UserMenu.tsx';

const isPublic = (path: string) => PUBLIC_PATHS.some((p) => path === p || path.startsWith(`${p}/`));

export default defineExtension({
  id: 'identity',
  register(ctx) {
    ctx.i18n({ 'en-US': enUS, 'zh-CN': zhCN });
    // Cookie-authenticated writes carry the CSRF token the server set at sign-in.
    ctx.interceptRequests('csrf', (req) => {
      if (req.method === 'GET') return req;
      const token = readCookie(CSRF_COOKIE);
      return token ? { ...req, headers: { ...req.headers, [CSRF_HEADER]: token } } : req;
    });
    // A call that needs a session sends the user to sign in, and back afterwards.
    ctx.on(Unauthorized, () => {
      if (typeof location === 'undefined' || isPublic(location.pathname)) return;
      location.assign(`/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`);
    });
    const current = createCurrentUser(ctx.api);
    setCurrentUserStore(current);
    ctx.provide(CurrentUserService, current);
    ctx.route({ path: '/sign-in', component: SignInPage, layout: 'bare', title: 'signIn.title' });
    ctx.route({ path: '/sign-up', component: SignUpPage, layout: 'bare', title: 'signUp.title' });
    ctx.route({ path: '/profile', component: ProfilePage, title: 'profile.title' });
    ctx.route({ path: '/tokens', component: TokensPage, title: 'tokens.title' });
    ctx.sidebar({ key: 'tokens', area: 'token', label: 'tokens.nav', path: '/tokens', order: 10 });
    ctx.headerItem({ key: 'user-menu', component: UserMenu, order: 100 });
  },
});
