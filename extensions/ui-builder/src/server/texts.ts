// The UI builder's refusals in the studio's languages (keys `ui-builder.*`).
import { defineErrorTexts } from '@tessera/sdk/server';

export const texts = defineErrorTexts('ui-builder', {
  noApp: ['There is no app {{id}}.', '不存在应用 {{id}}。'],
  noSnapshot: ['The app has no snapshot {{id}}.', '该应用没有快照 {{id}}。'],
  stale: [
    'The app was saved by someone else meanwhile (version {{now}}); load it again and redo the change.',
    '其间已有他人保存了该应用（版本 {{now}}），请重新加载后再修改。',
  ],
  badDsl: ['The app cannot be saved: {{detail}}', '应用无法保存：{{detail}}'],
  tooBig: ['The app is {{kb}} KB; at most {{max}} KB.', '应用大小为 {{kb}} KB，最多 {{max}} KB。'],
  notPublished: ['The app {{id}} is not published.', '应用 {{id}} 尚未发布。'],
  signIn: ['Sign in to open this app.', '请登录后打开此应用。'],
  membersOnly: ['This app is for the members of its space.', '此应用仅对其空间成员开放。'],
  noEvent: ['The app has no event {{id}}.', '该应用没有事件 {{id}}。'],
  workflowsOff: [
    'Workflows are off in this studio: the app’s events cannot run.',
    '本工作室未启用工作流，应用的事件无法运行。',
  ],
  runFailed: ['The workflow did not finish: {{detail}}', '工作流未完成：{{detail}}'],
  notRunnable: [
    'The workflow {{id}} of the event {{event}} is not published: publish it before the app.',
    '事件 {{event}} 的工作流 {{id}} 尚未发布：请先发布该工作流再发布应用。',
  ],
  noComponent: ['There is no component {{type}} {{version}} here.', '这里没有组件 {{type}} {{version}}。'],
  componentInUse: [
    'The component {{type}} is used by the apps {{apps}}: take it out of them first.',
    '组件 {{type}} 正被应用 {{apps}} 使用：请先从中移除。',
  ],
  noChat: ['The app has no chat {{id}}.', '该应用没有聊天组件 {{id}}。'],
  botsOff: [
    'Bots are off in this studio: the app’s chats cannot answer.',
    '本工作室未启用智能体，应用的聊天无法回答。',
  ],
  botNotPublished: [
    'The chat {{id}} talks to the bot {{bot}}, which is not a published bot of this space on the Web app channel: publish it there first.',
    '聊天组件 {{id}} 对应的智能体 {{bot}} 不是本空间已发布到“网页应用”渠道的智能体：请先发布。',
  ],
  noBot: ['There is no bot {{id}} in this space.', '本空间没有智能体 {{id}}。'],
  chooseBot: ['Choose the bot the app is built around.', '请选择应用围绕的智能体。'],
  modelsOff: ['Models are off in this studio: nothing can be written.', '本工作室未启用模型，无法生成内容。'],
  noModel: ['The space has no chat model: add one under Models first.', '本空间没有对话模型：请先在“模型”中添加。'],
  genUnreadable: [
    'The model did not answer with the app’s content; try again or with another model.',
    '模型没有给出应用内容，请重试或换一个模型。',
  ],
  noPublication: ['The app {{id}} has no publication {{version}}.', '应用 {{id}} 没有发布版本 {{version}}。'],
  noPackage: ['There is no package {{id}}.', '不存在包 {{id}}。'],
  noPackageVersion: ['The package {{id}} has no version {{version}}.', '包 {{id}} 没有版本 {{version}}。'],
  noBuild: [
    'The published app page is not built: run ./tessera build.',
    '已发布应用的页面尚未构建：请运行 ./tessera build。',
  ],
});
