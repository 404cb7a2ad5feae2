import { defineExtension } from '@tessera/sdk/client';
import { BotSkillPanels } from '@tessera/ext-bots/client';
import enUS from '../locales/en-US.json';
import zhCN from '../locales/zh-CN.json';
import { VariablesPanel } from './VariablesPanel.tsx';

export default defineExtension({
  id: 'bot-skill-variables',
  register(ctx) {
    ctx.i18n({ 'en-US': enUS, 'zh-CN': zhCN });
    ctx.register(BotSkillPanels, { key: 'variables', label: 'label', description: 'help', order: 40, empty: () => ({ variables: [] }), count: (v: { variables?: unknown[] }) => v?.variables?.length ?? 0, Panel: VariablesPanel });
  },
});
