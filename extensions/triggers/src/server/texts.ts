// The triggers' refusals in the studio's languages (ApiError text keys `triggers.*`).
export const TEXTS: { key: string; texts: { 'en-US': string; 'zh-CN': string } }[] = [
  {
    key: 'missing',
    texts: { 'en-US': 'There is no trigger {{id}} in this space.', 'zh-CN': '此空间中没有触发器 {{id}}。' },
  },
  {
    key: 'moved',
    texts: {
      'en-US': 'A trigger stays with its workflow: make a new one for another workflow.',
      'zh-CN': '触发器属于它的工作流：请为其他工作流新建触发器。',
    },
  },
  {
    key: 'unpublished',
    texts: {
      'en-US':
        'Publish "{{name}}" first: an open trigger runs the workflow\'s published version (a test runs the draft).',
      'zh-CN': '请先发布“{{name}}”：开启的触发器运行工作流的已发布版本（测试运行草稿）。',
    },
  },
  {
    key: 'noInput',
    texts: {
      'en-US': 'The workflow\'s Start has no input "{{name}}": map values to its inputs ({{inputs}}).',
      'zh-CN': '工作流的开始节点没有输入“{{name}}”：请映射到它的输入（{{inputs}}）。',
    },
  },
  {
    key: 'noCron',
    texts: {
      'en-US': 'Give a cron trigger its schedule (a cron expression such as "0 9 * * 1-5").',
      'zh-CN': '请为定时触发器填写计划（cron 表达式，例如“0 9 * * 1-5”）。',
    },
  },
  {
    key: 'noEvent',
    texts: {
      'en-US': 'There is no studio event "{{event}}" a trigger can start on.',
      'zh-CN': '没有可触发工作流的工作室事件“{{event}}”。',
    },
  },
  {
    key: 'noFilter',
    texts: {
      'en-US': 'The event "{{event}}" cannot be filtered by "{{filter}}".',
      'zh-CN': '事件“{{event}}”不能按“{{filter}}”筛选。',
    },
  },
  {
    key: 'noFiring',
    texts: { 'en-US': 'There is no firing {{id}} in this space.', 'zh-CN': '此空间中没有触发记录 {{id}}。' },
  },
  {
    key: 'noWebhook',
    texts: { 'en-US': 'There is no webhook trigger {{id}}.', 'zh-CN': '没有 Webhook 触发器 {{id}}。' },
  },
  {
    key: 'closed',
    texts: { 'en-US': 'The trigger {{id}} is closed: it is not published.', 'zh-CN': '触发器 {{id}} 已关闭，未发布。' },
  },
  {
    key: 'closedWebhook',
    texts: {
      'en-US': 'The trigger "{{name}}" is closed: open it in the workflow\'s Triggers panel.',
      'zh-CN': '触发器“{{name}}”已关闭：请在工作流的“触发器”面板中开启。',
    },
  },
  {
    key: 'badSecret',
    texts: {
      'en-US': 'The secret in the address is wrong: copy the address again from the trigger.',
      'zh-CN': '地址中的密钥不正确：请从触发器重新复制地址。',
    },
  },
  {
    key: 'unsigned',
    texts: {
      'en-US': 'Sign the call: send X-Tessera-Timestamp and X-Tessera-Signature headers.',
      'zh-CN': '请为调用签名：发送 X-Tessera-Timestamp 和 X-Tessera-Signature 请求头。',
    },
  },
  {
    key: 'stale',
    texts: {
      'en-US': 'The signed call is too old (or its clock is off by more than 5 minutes).',
      'zh-CN': '签名的调用已过期（或其时钟偏差超过 5 分钟）。',
    },
  },
  {
    key: 'badSignature',
    texts: { 'en-US': 'The signature does not match the body and the secret.', 'zh-CN': '签名与请求体和密钥不匹配。' },
  },
  { key: 'tooLarge', texts: { 'en-US': 'The body is larger than 1 MiB.', 'zh-CN': '请求体超过 1 MiB。' } },
];
