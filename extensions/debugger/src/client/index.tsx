// The debugger (client half): mock sets in the plugin editor's debug panel (the plugins' ApiDebugSections), which
// of them answer in a workflow's test runs (the workflow editor's Mock data panel) and in a bot's debug chat (a button
// beside its message box), and test cases above a workflow's test run.
import { ApiDebugSections } from '@tessera/ext-plugins/shared';
import { ChatComposerActions } from '@tessera/ext-bots/shared';
import { defineExtension, lazyView } from '@tessera/sdk/client';
import { EditorPanels, TestRunInputSources } from '@tessera/workflow-sdk/client';

const MockSetsSection = lazyView(() => import('./MockSets.tsx').then((m) => m.MockSetsSection));
const WorkflowMockPanel = lazyView(() => import('./WorkflowMock.tsx').then((m) => m.WorkflowMockPanel));
const TestCasePicker = lazyView(() => import('./TestCases.tsx').then((m) => m.TestCasePicker));
const BotMockAction = lazyView(() => import('./BotMock.tsx').then((m) => m.BotMockAction));

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
