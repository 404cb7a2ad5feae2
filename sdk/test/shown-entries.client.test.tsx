// Sidebar entries for some people only: shown as soon as what they read says so (the signed-in user arrives after
// the sidebar first draws when the page's code is already in the browser's cache), not only at the next navigation.
import { afterEach, expect, it } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import { defineExtension } from '../src/client/index.ts';
import { renderExtension } from '../src/testing/client.tsx';

afterEach(cleanup);

const Page = () => <p>page</p>;

/** A user store as identity's: read at once, told to listeners when it is known. */
function userStore() {
  let admin = false;
  const listeners = new Set<() => void>();
  return {
    isAdmin: () => admin,
    subscribe: (fn: () => void) => {
      listeners.add(fn);
      return () => void listeners.delete(fn);
    },
    signIn: () => {
      admin = true;
      listeners.forEach((fn) => fn());
    },
    listeners,
  };
}

it("shows the studio sidebar's entry as soon as it says what it reads changed, and stops listening when gone", async () => {
  const user = userStore();
  const view = await renderExtension(
    defineExtension({
      id: 'shown',
      register(ctx) {
        ctx.route({ path: '/', component: Page });
        ctx.sidebar({ key: 'home', area: 'home', label: 'home', path: '/' });
        ctx.sidebar({
          key: 'settings',
          area: 'user',
          label: 'settings',
          path: '/settings',
          visible: user.isAdmin,
          changes: user.subscribe,
        });
      },
    }),
  );
  await screen.findByTestId('sidebar-home');
  expect(screen.queryByTestId('sidebar-settings')).toBeNull();
  expect(user.listeners.size).toBeGreaterThan(0);
  await act(async () => user.signIn());
  expect(screen.getByTestId('sidebar-settings')).toBeTruthy();
  view.unmount();
  expect(user.listeners.size).toBe(0);
});

it('shows the entry when what it reads changed before the sidebar started listening', async () => {
  const user = userStore();
  await renderExtension(
    defineExtension({
      id: 'shown-early',
      register(ctx) {
        ctx.route({ path: '/', component: Page });
        ctx.sidebar({ key: 'home', area: 'home', label: 'home', path: '/' });
        ctx.sidebar({
          key: 'settings',
          area: 'user',
          label: 'settings',
          path: '/settings',
          // The user arrives while the sidebar draws, before it listens (told to nobody).
          visible: () => {
            const shown = user.isAdmin();
            if (!user.listeners.size) user.signIn();
            return shown;
          },
          changes: user.subscribe,
        });
      },
    }),
  );
  expect(await screen.findByTestId('sidebar-settings')).toBeTruthy();
});

it('draws the sidebar when an entry cannot say what it reads (its changes throws)', async () => {
  await renderExtension(
    defineExtension({
      id: 'shown-broken',
      register(ctx) {
        ctx.route({ path: '/', component: Page });
        ctx.sidebar({
          key: 'broken',
          area: 'user',
          label: 'broken',
          path: '/broken',
          changes: () => {
            throw new Error('not ready');
          },
        });
      },
    }),
  );
  expect(await screen.findByTestId('sidebar-broken')).toBeTruthy();
});
