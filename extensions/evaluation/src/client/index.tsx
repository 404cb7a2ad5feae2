import { defineExtension } from '@tessera/sdk/client';
import enUS from '../locales/en-US.json';
import zhCN from '../locales/zh-CN.json';

export default defineExtension({
  id: 'evaluation',
  register(ctx) {
    ctx.i18n({ 'en-US': enUS, 'zh-CN': zhCN });
  },
});
