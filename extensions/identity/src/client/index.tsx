import { IconSafe } from '@arco-design/web-react/icon';
import { defineExtension, lazyPage, Routes } from '@tessera/sdk/client';
import { matchPath, useLocation } from 'react-router';
import { useEffect } from 'react';
import { Unauthorized } from '@tessera/sdk';
import { CSRF_COOKIE, CSRF_HEADER, CurrentUserService, PUBLIC_PATHS } from '../shared/index.ts';
import { setCurrentUserStore } from './hooks.ts';
import { createCurrentUser, readCookie } from './session.ts';
import { UserMenu } from './UserMenu.tsx';

const isPublicPath = (path: string) => PUBLIC_PATHS.some((p) => path === p || path.startsWith(`${p}/`));

// Pages load their code when first opened.
const SignInPage = lazyPage(() => import('./AuthPages.tsx').then((m) => m.SignInPage));
const SignUpPage = lazyPage(() => import('./AuthPages.tsx').then((m) => m.SignUpPage));
const ProfilePage = lazyPage(() => import('./ProfilePage.tsx').then((m) => m.ProfilePage));
const TokensPage = lazyPage(() => import('./TokensPage.tsx').then((m) => m.TokensPage));

export default defineExtension({
  id: 'identity',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    // Cookie-authenticated writes carry the CSRF token the server set at sign-in.
    ctx.interceptRequests('csrf', (req) => {
      if (req.method === 'GET') return req;
      const token = readCookie(CSRF_COOKIE);
      return token ? { ...req, headers: { ...req.headers, [CSRF_HEADER]: token } } : req;
    });
    // A call that needs a session sends the user to sign in, and back afterwards.
    // A page open to signed-out visitors declares `public` (an invite link); the others need a session.
    const isPublic = (path: string) =>
      isPublicPath(path) ||
      ctx
        .registry(Routes)
        .list()
        .some((r) => r.public && matchPath(r.path, path));
    const toSignIn = () => location.assign(`/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`);
    ctx.on(Unauthorized, () => {
      if (typeof location === 'undefined' || isPublic(location.pathname)) return;
      toSignIn();
    });
    const current = createCurrentUser(ctx.api);
    // Signed out on a page that is not public: sign in first. Checked once the studio has started (every
    // extension's pages are known) and on each navigation, from the session answer (never a 401).
    ctx.panel({
      key: 'session-guard',
      component: function SessionGuard() {
        const { pathname } = useLocation();
        useEffect(() => {
          void current.ready.then(() => !current.get() && !isPublic(pathname) && toSignIn());
        }, [pathname]);
        return null;
      },
    });
    setCurrentUserStore(current);
    ctx.provide(CurrentUserService, current);
    ctx.route({ path: '/sign-in', component: SignInPage, layout: 'bare', title: 'signIn.title', public: true });
    ctx.route({ path: '/sign-up', component: SignUpPage, layout: 'bare', title: 'signUp.title', public: true });
    ctx.route({ path: '/profile', component: ProfilePage, title: 'profile.title' });
    ctx.route({ path: '/tokens', component: TokensPage, title: 'tokens.title' });
    ctx.sidebar({
      key: 'tokens',
      area: 'token',
      group: 'space',
      label: 'tokens.nav',
      path: '/tokens',
      icon: <IconSafe />,
      order: 20,
    });
    ctx.headerItem({ key: 'user-menu', component: UserMenu, order: 100 });
  },
});
