// The bots extension's errors a person meets most, in both languages (the host answers in the caller's).
import { ApiError, ErrorCode } from '@tessera/sdk';
import { ErrorTexts, type ServerContext } from '@tessera/sdk/server';

const TEXTS: Record<string, [en: string, zh: string]> = {
  'bots.nameTaken': [
    'A bot named "{{name}}" already exists in this space. Choose another name.',
    '此空间中已有名为“{{name}}”的智能体，请换一个名称。',
  ],
  'bots.notFound': [
    'This bot does not exist in the space (it may have been deleted).',
    '此空间中不存在该智能体（可能已被删除）。',
  ],
  'bots.conversationNotFound': ['This conversation does not exist (or is not yours).', '该会话不存在（或不属于你）。'],
  'bots.notOnChatPage': [
    'This bot is not published to the chat page yet: publish it first.',
    '该智能体尚未发布到聊天页面，请先发布。',
  ],
  'bots.notOnApi': [
    'This bot is not published to the API connector: publish it with the API channel first.',
    '该智能体尚未发布到 API 渠道，请先发布到 API。',
  ],
  'bots.cannotPublish': ['The bot cannot be published yet: {{problems}}', '智能体暂时无法发布：{{problems}}'],
  'bots.emptyMessage': ['Write a message first.', '请先输入消息。'],
  'bots.badVersion': ['A version looks like v1.2.3.', '版本号的格式为 v1.2.3。'],
  'bots.olderVersion': ['The version must be newer than {{latest}}.', '版本号必须高于 {{latest}}。'],
  'bots.modeMissing': [
    'The mode "{{mode}}" is not available: its extension is disabled.',
    '模式“{{mode}}”不可用：其扩展已停用。',
  ],
  'bots.notMemberOfTarget': [
    'You are not a member of the space you are moving the bot to.',
    '你不是目标空间的成员，无法把智能体移到那里。',
  ],
  'bots.versionNotFound': ['This version of the bot does not exist.', '该智能体版本不存在。'],
  'bots.versionInactive': [
    'Version {{version}} was taken out of service: it cannot answer again. Publish a new version instead.',
    '版本 {{version}} 已停用，不能再提供服务。请发布一个新版本。',
  ],
  'bots.grayIsMain': [
    'Version {{version}} already answers everyone on this channel: gray-release a newer one.',
    '版本 {{version}} 已在此渠道为所有人提供服务：请灰度发布更新的版本。',
  ],
  'bots.noGray': ['No version is in gray release on this channel.', '此渠道没有处于灰度发布中的版本。'],
  'bots.mergeBase': [
    'Say what your edits started from: base (the bot as you opened it) or base_version.',
    '请说明你的修改基于什么：base（你打开时的智能体）或 base_version。',
  ],
  'bots.otherBot': ['This conversation does not belong to this bot.', '该会话不属于这个智能体。'],
  'bots.noQuestion': ['There is no question in that chat to answer again.', '该对话中没有可以重新回答的问题。'],
  'bots.feedbackOnAnswers': ['Only answers take feedback.', '只能对回答进行反馈。'],
  'bots.messageNotFound': ['This message does not exist in the conversation.', '该会话中不存在这条消息。'],
  'bots.chatNotFound': ['This chat does not exist in the conversation.', '该会话中不存在这次对话。'],
  'bots.changed': [
    'The bot changed since you opened it (yours is revision {{mine}}, the saved one is {{saved}}). Load the latest draft and choose what to keep.',
    '你打开后智能体已被修改（你的是第 {{mine}} 版，已保存的是第 {{saved}} 版）。请加载最新草稿后再决定保留哪些修改。',
  ],
};

export function registerErrorTexts(ctx: ServerContext<unknown>) {
  for (const [key, [en, zh]] of Object.entries(TEXTS))
    ctx.register(ErrorTexts, { key, texts: { 'en-US': en, 'zh-CN': zh } });
}

const fill = (template: string, params: Record<string, string | number>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_m, k: string) => String(params[k] ?? ''));

/** An error with its text in both languages (English in `msg`). */
export function botError(
  status: number,
  key: keyof typeof TEXTS,
  params: Record<string, string | number> = {},
  opts: { openCode?: number; detail?: Record<string, unknown> } = {},
): ApiError {
  const code =
    status === 404
      ? ErrorCode.NOT_FOUND
      : status === 409
        ? ErrorCode.CONFLICT
        : status === 403
          ? ErrorCode.FORBIDDEN
          : ErrorCode.INVALID_PARAMS;
  return new ApiError(status, code, fill(TEXTS[key][0], params), '', { text: { key, params }, ...opts });
}
