import { defineExtension } from '@tessera/sdk/client';
import { BotModeEditors } from '@tessera/ext-bots/client';
import enUS from '../locales/en-US.json';
import zhCN from '../locales/zh-CN.json';
import { SingleAgentSettingsForm } from './SettingsForm.tsx';

export default defineExtension({
  id: 'bot-single-agent',
  register(ctx) {
    ctx.i18n({ 'en-US': enUS, 'zh-CN': zhCN });
    ctx.register(BotModeEditors, { key: 'single-agent', label: 'mode', description: 'modeHelp', Settings: SingleAgentSettingsForm });
  },
});
