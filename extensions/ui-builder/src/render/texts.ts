// The words the app's own pages show (the published app carries no translation library): by the viewer's language.
export type Lang = 'en-US' | 'zh-CN';

export const RENDER_TEXTS = {
  'en-US': {
    submit: 'Submit',
    button: 'Run',
    working: 'Working…',
    empty: 'Nothing yet.',
    upload: 'Choose a file',
    frameMissing: 'This component is not available.',
    failed: 'It did not work',
    ask: 'Type a message',
    send: 'Send',
    newChat: 'New chat',
  },
  'zh-CN': {
    submit: '提交',
    button: '运行',
    working: '处理中…',
    empty: '暂无内容。',
    upload: '选择文件',
    frameMissing: '该组件不可用。',
    failed: '没有成功',
    ask: '输入消息',
    send: '发送',
    newChat: '新对话',
  },
} satisfies Record<Lang, Record<string, string>>;
export type RenderTexts = (typeof RENDER_TEXTS)['en-US'];

export const langOf = (value: string | undefined): Lang => (/^zh/i.test(value ?? '') ? 'zh-CN' : 'en-US');
