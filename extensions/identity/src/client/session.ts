import type { RequestClient } from '@tessera/sdk/client';
import type { CurrentUser, UserInfo } from '../shared/index.ts';

export function readCookie(name: string): string | undefined {
  if (typeof document === 'undefined') return undefined;
  const m = document.cookie.split('; ').find((c) => c.startsWith(`${name}=`));
  return m ? decodeURIComponent(m.slice(name.length + 1)) : undefined;
}

export function createCurrentUser(api: RequestClient): CurrentUser & { ready: Promise<void> } {
  let user: UserInfo | null = null;
  const listeners = new Set<() => void>();
  const set = (u: UserInfo | null) => {
    user = u;
    listeners.forEach((fn) => fn());
  };
  const refresh = async () => {
    try {
      // Asking who is signed in is not an error when nobody is (no 401 in the browser's console).
      set(
        (await api.get<{ user: UserInfo | null }>('/api/passport/session', undefined, { suppressNotice: true })).user,
      );
    } catch {
      set(null);
    }
    return user;
  };
  return {
    ready: refresh().then(() => undefined),
    get: () => user,
    refresh,
    subscribe: (fn) => {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    signOut: async () => {
      await api.post('/api/passport/web/logout');
      set(null);
    },
  };
}
