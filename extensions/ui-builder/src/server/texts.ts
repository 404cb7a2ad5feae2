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
  noBuild: [
    'The published app page is not built: run ./tessera build.',
    '已发布应用的页面尚未构建：请运行 ./tessera build。',
  ],
});
