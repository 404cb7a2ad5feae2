import { defineExtension, lazyView, whenIdle } from '@tessera/sdk/client';
import { useEffect, useSyncExternalStore } from 'react';
import { useLocation } from 'react-router';
import { toPanelMessage } from './messages.ts';
import { ErrorPanelStore, browserEnv } from './store.ts';
import './panel.css';

// The panel's code is not part of the first page: it loads once the page is idle (or with the first message).
const ErrorPanelRoot = lazyView(() => import('./ErrorPanel.tsx').then((m) => m.ErrorPanelRoot), { fallback: null });

/** Follows the page (each page path has its own messages) and draws the panel once it has messages. */
function PanelWhenNeeded({ store }: { store: ErrorPanelStore }) {
  const snap = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  const location = useLocation();
  useEffect(() => store.setPath(location.pathname), [store, location.pathname]);
  return snap.state === 'hidden' ? null : <ErrorPanelRoot store={store} />;
}

export default defineExtension({
  id: 'error-panel',
  register(ctx) {
    const store = new ErrorPanelStore(typeof location !== 'undefined' ? location.pathname : '/', browserEnv());
    ctx.onDispose(() => store.dispose());
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    ctx.errorSink('panel', (e) => {
      const m = toPanelMessage(e);
      if (m) store.add({ ...m, timestamp: e.timestamp });
    });
    ctx.panel({ key: 'error-panel', component: () => <PanelWhenNeeded store={store} />, order: 100 });
    if (typeof window !== 'undefined') whenIdle(() => void ErrorPanelRoot.preload().catch(() => undefined));
  },
});
