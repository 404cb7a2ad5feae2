// The API apps' refusals in the studio's languages (ApiError text keys `api_apps.*`).
export const TEXTS: { key: string; texts: { 'en-US': string; 'zh-CN': string } }[] = [
  {
    key: 'connector',
    texts: {
      'en-US': 'A connector API app names its connector (connector_id).',
      'zh-CN': '渠道回调应用需要填写渠道（connector_id）。',
    },
  },
  {
    key: 'badUrl',
    texts: {
      'en-US': '"{{url}}" is not an address: give an http(s) URL.',
      'zh-CN': '“{{url}}”不是有效地址：请填写 http(s) URL。',
    },
  },
  {
    key: 'verify',
    texts: {
      'en-US':
        'The address did not answer the check ({{answer}}): it must answer a POST of {"type": "url_verification", "challenge": "..."} with {"challenge": "..."}.',
      'zh-CN':
        '该地址未通过校验（{{answer}}）：它需要对 {"type": "url_verification", "challenge": "..."} 的 POST 请求返回 {"challenge": "..."}。',
    },
  },
  {
    key: 'eventType',
    texts: {
      'en-US': 'There is no event type {{types}} (there are {{known}}).',
      'zh-CN': '没有事件类型 {{types}}（可用的有 {{known}}）。',
    },
  },
  {
    key: 'noAddress',
    texts: { 'en-US': 'Set the app’s callback address first.', 'zh-CN': '请先设置回调应用的回调地址。' },
  },
];
