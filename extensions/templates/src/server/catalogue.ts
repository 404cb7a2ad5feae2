// The starter templates: resources of the kinds other extensions own, as the packages their own import reads
// (ResourceKinds.importInto), in the person's language. A template whose kind is not running is not offered.
import type { Language } from '@tessera/sdk';
import type { ResourcePackage } from '@tessera/sdk/server';

export interface Template {
  id: string;
  kind: string;
  name: Record<Language, string>;
  description: Record<Language, string>;
  /** The package for the kind's import, in a language. */
  package(language: Language): ResourcePackage;
}

const bot = (
  id: string,
  name: Record<Language, string>,
  description: Record<Language, string>,
  persona: Record<Language, string>,
  prologue: Record<Language, string>,
  questions: Record<Language, string[]>,
): Template => ({
  id,
  kind: 'bot',
  name,
  description,
  // No model: the new bot takes the space's default chat model.
  package: (l) => ({
    kind: 'bot',
    id,
    name: name[l],
    description: description[l],
    data: {
      config: {
        mode: 'single-agent',
        settings: { prompt: persona[l] },
        skills: {},
        onboarding: { prologue: prologue[l], suggested_questions: questions[l] },
        suggest_reply: { mode: 'off', prompt: '' },
        shortcuts: [],
      },
    },
  }),
});

// A prompt with a system message and one variable the user message is; no model (it takes one when used).
const prompt = (
  id: string,
  name: Record<Language, string>,
  description: Record<Language, string>,
  key: string,
  system: Record<Language, string>,
  variable: { key: string; desc: Record<Language, string> },
): Template => ({
  id,
  kind: 'prompt',
  name,
  description,
  package: (l) => ({
    kind: 'prompt',
    id,
    name: name[l],
    description: description[l],
    data: {
      prompt_key: key,
      detail: {
        prompt_template: {
          template_type: 'normal',
          messages: [
            { role: 'system', content: system[l] },
            { role: 'user', content: `{{${variable.key}}}` },
          ],
          variable_defs: [{ key: variable.key, desc: variable.desc[l], type: 'string' }],
        },
        model_config: {},
        tools: [],
      },
    },
  }),
});

export const TEMPLATES: Template[] = [
  bot(
    'support-assistant',
    { 'en-US': 'Customer support assistant', 'zh-CN': '客服助手' },
    {
      'en-US': 'Answers customers politely, asks for what it needs, and hands over to a person when it cannot help.',
      'zh-CN': '礼貌地回答客户问题，缺信息时追问，解决不了时转交人工。',
    },
    {
      'en-US':
        'You are the customer support assistant of our company. Answer politely and briefly. When you need an order number or an email address to help, ask for it. Never invent policies, prices or dates: when you do not know, say so and offer to pass the question to a person.',
      'zh-CN':
        '你是我们公司的客服助手。回答要礼貌、简洁。需要订单号或邮箱才能帮忙时，请主动询问。不要编造政策、价格或日期：不知道时直接说明，并提出转交人工处理。',
    },
    { 'en-US': 'Hello! How can I help you today?', 'zh-CN': '你好！今天有什么可以帮你？' },
    { 'en-US': ['Where is my order?', 'How do I return an item?'], 'zh-CN': ['我的订单到哪了？', '怎么退货？'] },
  ),
  bot(
    'writing-coach',
    { 'en-US': 'Writing coach', 'zh-CN': '写作教练' },
    {
      'en-US': 'Improves a text you paste: clearer, shorter, in your voice, and says what it changed.',
      'zh-CN': '改进你粘贴的文字：更清晰、更简练、保留你的风格，并说明改了什么。',
    },
    {
      'en-US':
        'You are a writing coach. When the user gives you a text, rewrite it to be clearer and shorter while keeping their voice and meaning, then list the three most important changes you made and why. Ask about the audience if it matters and is not clear.',
      'zh-CN':
        '你是一名写作教练。用户给你一段文字时，在保留其风格和原意的前提下改写得更清晰、更简练，然后列出你做的三处最重要的修改及原因。如果读者对象很重要但不明确，请先询问。',
    },
    { 'en-US': 'Paste a text and I will make it clearer.', 'zh-CN': '粘贴一段文字，我来帮你改得更清楚。' },
    {
      'en-US': ['Make this email friendlier', 'Shorten this paragraph'],
      'zh-CN': ['把这封邮件写得更友好', '把这段话缩短'],
    },
  ),
  bot(
    'translator',
    { 'en-US': 'Translator', 'zh-CN': '翻译助手' },
    {
      'en-US': 'Translates between Chinese and English, keeping the tone, and explains idioms when asked.',
      'zh-CN': '在中英文之间互译，保留语气，需要时解释习语。',
    },
    {
      'en-US':
        'You translate between Chinese and English. Chinese text becomes natural English, anything else becomes natural Simplified Chinese. Keep the tone and formatting. Answer with the translation only, unless the user asks for an explanation.',
      'zh-CN':
        '你负责中英文互译。中文译成地道的英文，其他语言译成地道的简体中文。保留原文的语气和格式。除非用户要求解释，否则只回答译文。',
    },
    { 'en-US': 'Send me a text in Chinese or English.', 'zh-CN': '发给我一段中文或英文。' },
    { 'en-US': ['你好，很高兴认识你', 'See you tomorrow!'], 'zh-CN': ['See you tomorrow!', '你好，很高兴认识你'] },
  ),
  prompt(
    'meeting-notes',
    { 'en-US': 'Meeting notes', 'zh-CN': '会议纪要' },
    {
      'en-US': 'A prompt that turns a meeting transcript into decisions, action items and open questions.',
      'zh-CN': '把会议记录整理为决定、待办事项和未决问题的提示词。',
    },
    'meeting_notes',
    {
      'en-US':
        'You turn a meeting transcript into three parts: decisions, action items (with owner and due date) and open questions. Write only what the transcript says.',
      'zh-CN': '你把会议记录整理成三部分：决定、待办事项（负责人和截止日期）、未决问题。只写记录里有的内容。',
    },
    { key: 'transcript', desc: { 'en-US': 'The meeting transcript', 'zh-CN': '会议记录' } },
  ),
];
