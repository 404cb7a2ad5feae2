import { defineExtension } from '@tessera/sdk/client';
import enUS from '../locales/en-US.json';
import zhCN from '../locales/zh-CN.json';
import { ErrorPanelRoot } from './ErrorPanel.tsx';
import { toPanelMessage } from './messages.ts';
import { ErrorPanelStore, browserEnv } from './store.ts';
import './panel.css';

export default defineExtension({
  id: 'error-panel',
  register(ctx) {
    const store = new ErrorPanelStore(typeof location !== 'undefined' ? location.pathname : '/', browserEnv());
    ctx.onDispose(() => store.dispose());
    ctx.i18n({ 'en-US': enUS, 'zh-CN': zhCN });
    ctx.errorSink('panel', (e) => {
      const m = toPanelMessage(e);
      if (m) store.add({ ...m, timestamp: e.timestamp });
    });
    ctx.panel({ key: 'error-panel', component: () => <ErrorPanelRoot store={store} />, order: 100 });
  },
});
