// The mode's errors, in both languages (a failed turn keeps its message in the reader's).
import { defineErrorTexts } from '@tessera/sdk/server';

export const texts = defineErrorTexts('bot_multi_agent', {
  noAgents: ['The bot has no agents: add one in its settings.', '智能体没有 Agent：请在设置中添加一个。'],
  modeOff: [
    'The agent {{agent}} needs the {{mode}} mode, which is off in this studio.',
    'Agent {{agent}} 需要“{{mode}}”模式，但它在此工作室中已停用。',
  ],
  noBot: [
    'The bot that answers for the agent {{agent}} is not in this space (it may have been deleted).',
    '为 Agent {{agent}} 回答的智能体不在此空间中（可能已被删除）。',
  ],
  unpublishedBot: [
    'The bot "{{name}}" of the agent {{agent}} is not published: publish it first.',
    'Agent {{agent}} 的智能体“{{name}}”尚未发布：请先发布。',
  ],
  nestedBot: [
    'The bot "{{name}}" of the agent {{agent}} has several agents itself: choose a bot of one agent or a chat-flow.',
    'Agent {{agent}} 的智能体“{{name}}”本身是多 Agent 智能体：请选择单 Agent 智能体或对话流。',
  ],
  unpublishedFlow: [
    'The workflow "{{name}}" of the agent {{agent}} is not published.',
    'Agent {{agent}} 的工作流“{{name}}”尚未发布。',
  ],
  asks: [
    'The workflow "{{name}}" of the agent {{agent}} asks a question; questions are not answered in chats yet.',
    'Agent {{agent}} 的工作流“{{name}}”在提问；对话中暂不支持回答工作流的问题。',
  ],
  flowFailed: [
    'The workflow "{{name}}" of the agent {{agent}} failed: {{detail}}',
    'Agent {{agent}} 的工作流“{{name}}”运行失败：{{detail}}',
  ],
});
