// The debugger (client half): mock sets in the plugin editor's debug panel (the plugins' ApiDebugSections), which
// of them answer in a workflow's test runs (the workflow editor's Mock data panel) and in a bot's debug chat (a button
// beside its message box), and test cases above a workflow's test run.
import { ApiDebugSections } from '@tessera/ext-plugins/shared';
import { ChatComposerActions } from '@tessera/ext-bots/shared';
import { Button, Tooltip } from '@arco-design/web-react';
import { IconBug } from '@arco-design/web-react/icon';
import type { ChatComposerActionProps } from '@tessera/ext-bots/shared';
import { defineExtension, lazyView } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EditorPanels, TestRunInputSources } from '@tessera/workflow-sdk/client';

const MockSetsSection = lazyView(() => import('./MockSets.tsx').then((m) => m.MockSetsSection));
const WorkflowMockPanel = lazyView(() => import('./WorkflowMock.tsx').then((m) => m.WorkflowMockPanel));
const TestCasePicker = lazyView(() => import('./TestCases.tsx').then((m) => m.TestCasePicker));
const BotMockPanel = lazyView(() => import('./BotMock.tsx').then((m) => m.BotMockPanel));

/**
 * The debug chat's mock button: drawn at once (a button that appeared later would move the others under a click),
 * its panel loaded when first opened.
 */
function BotMockAction({ spaceId, botId, draft }: ChatComposerActionProps) {
  const { t } = useTranslation('debugger');
  const [open, setOpen] = useState(false);
  if (!draft) return null;
  return (
    <>
      <Tooltip content={t('bind.botTitle')}>
        <Button
          icon={<IconBug />}
          aria-label={t('bind.botTitle')}
          onClick={() => setOpen(true)}
          data-testid="bot-mock-data"
        />
      </Tooltip>
      {open && <BotMockPanel spaceId={spaceId} botId={botId} onClose={() => setOpen(false)} />}
    </>
  );
}

export default defineExtension({
  id: 'debugger',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    ctx.register(ApiDebugSections, { key: 'mock-sets', order: 10, Component: MockSetsSection });
    ctx.register(EditorPanels, { key: 'mock-data', label: 'debugger:panel', order: 40, Component: WorkflowMockPanel });
    ctx.register(TestRunInputSources, { key: 'test-cases', order: 10, Component: TestCasePicker });
    ctx.register(ChatComposerActions, { key: 'mock-data', Action: BotMockAction });
  },
});
