// The studio's own questions for the arena (a space adds its own): a few per category, in both languages.
export const BUILTIN_QUESTIONS: { id: string; category: string; en: string; zh: string }[] = [
  { id: 'g1', category: 'general', en: 'Give three tips for a good night’s sleep.', zh: '给出三条改善睡眠的建议。' },
  {
    id: 'g2',
    category: 'general',
    en: 'Plan a one-day trip to a city you like, hour by hour.',
    zh: '为你喜欢的城市规划一日游，按小时安排。',
  },
  {
    id: 'g3',
    category: 'general',
    en: 'How do I politely decline a meeting invitation?',
    zh: '如何礼貌地拒绝一个会议邀请？',
  },
  {
    id: 'c1',
    category: 'coding',
    en: 'Write a function that checks whether a string is a palindrome, ignoring case and spaces.',
    zh: '写一个函数，判断字符串是否为回文（忽略大小写和空格）。',
  },
  {
    id: 'c2',
    category: 'coding',
    en: 'Explain the difference between a process and a thread, with an example.',
    zh: '举例说明进程与线程的区别。',
  },
  {
    id: 'c3',
    category: 'coding',
    en: 'Write a SQL query for the top 3 customers by total order amount.',
    zh: '写一条 SQL，查询订单总金额最高的 3 位客户。',
  },
  { id: 'w1', category: 'writing', en: 'Write a four-line poem about autumn rain.', zh: '写一首关于秋雨的四行诗。' },
  {
    id: 'w2',
    category: 'writing',
    en: 'Write a short product description for a reusable water bottle.',
    zh: '为一款可重复使用的水杯写一段简短的产品介绍。',
  },
  {
    id: 'w3',
    category: 'writing',
    en: 'Rewrite this more formally: "hey, can u send me the report asap?"',
    zh: '把这句话改写得更正式：“嘿，报告能尽快发我吗？”',
  },
  {
    id: 'r1',
    category: 'reasoning',
    en: 'A bat and a ball cost 1.10 in total; the bat costs 1.00 more than the ball. How much is the ball?',
    zh: '球拍和球一共 1.10 元，球拍比球贵 1.00 元，球多少钱？',
  },
  {
    id: 'r2',
    category: 'reasoning',
    en: 'If all bloops are razzies and all razzies are lazzies, are all bloops lazzies? Explain.',
    zh: '如果所有的 A 都是 B，所有的 B 都是 C，那么所有的 A 都是 C 吗？请解释。',
  },
  {
    id: 'r3',
    category: 'reasoning',
    en: 'You have 8 balls, one heavier. Find it with two weighings on a balance.',
    zh: '有 8 个球，其中一个更重。用天平称两次找出它。',
  },
  { id: 'k1', category: 'knowledge', en: 'Why is the sky blue?', zh: '天空为什么是蓝色的？' },
  { id: 'k2', category: 'knowledge', en: 'What causes the seasons on Earth?', zh: '地球上为什么会有四季？' },
  {
    id: 'k3',
    category: 'knowledge',
    en: 'Summarise how vaccines train the immune system.',
    zh: '简述疫苗如何训练免疫系统。',
  },
];

export const FEEDBACK_TAGS: { key: string; en: string; zh: string }[] = [
  { key: 'accurate', en: 'Accurate', zh: '准确' },
  { key: 'helpful', en: 'Helpful', zh: '有帮助' },
  { key: 'clear', en: 'Clear', zh: '清晰' },
  { key: 'concise', en: 'Concise', zh: '简洁' },
  { key: 'wrong', en: 'Wrong facts', zh: '事实错误' },
  { key: 'unsafe', en: 'Unsafe', zh: '不安全' },
  { key: 'off_topic', en: 'Off topic', zh: '答非所问' },
];

export const CATEGORY_LABELS: Record<string, { en: string; zh: string }> = {
  general: { en: 'General', zh: '通用' },
  coding: { en: 'Coding', zh: '编程' },
  writing: { en: 'Writing', zh: '写作' },
  reasoning: { en: 'Reasoning', zh: '推理' },
  knowledge: { en: 'Knowledge', zh: '知识' },
};
