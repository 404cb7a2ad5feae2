import { defineExtension } from '@tessera/sdk/client';
import { BotSkillPanels } from '@tessera/ext-bots/client';
import enUS from '../locales/en-US.json';
import zhCN from '../locales/zh-CN.json';
import { MemoryPanel } from './MemoryPanel.tsx';

export default defineExtension({
  id: 'memory',
  register(ctx) {
    ctx.i18n({ 'en-US': enUS, 'zh-CN': zhCN });
    ctx.register(BotSkillPanels, { key: 'memory', label: 'label', description: 'help', order: 40, empty: () => ({ profile: true, events: true }), Panel: MemoryPanel });
  },
});
