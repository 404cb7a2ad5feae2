// The arena's refusals in the studio's languages (keys `arena.*`).
import { defineErrorTexts } from '@tessera/sdk/server';

export const texts = defineErrorTexts('arena', {
  twoModels: [
    'The arena needs two chat models in this space: add another under Models.',
    '竞技场需要此空间中至少两个对话模型：请在“模型”中再添加一个。',
  ],
  noBattle: ['There is no battle {{id}} of yours.', '没有你的对战 {{id}}。'],
  answered: ['This battle was answered already: start a new one.', '这场对战已经回答过了，请开始新的对战。'],
  notAnswered: ['Vote once both models have answered.', '请在两个模型都回答后再投票。'],
  voted: ['You voted on this battle already.', '你已经为这场对战投过票了。'],
  notVoted: ['Vote first, then add your words.', '请先投票，再补充评价。'],
  unknownTag: [
    'There is no feedback tag {{tags}} (there are {{known}}).',
    '没有反馈标签 {{tags}}（可用的有 {{known}}）。',
  ],
  noQuestion: ['There is no question {{id}} in this space’s bank.', '此空间的题库中没有问题 {{id}}。'],
  emptyBank: ['The bank has no question of this category yet.', '题库中还没有这个类别的问题。'],
  modelFailed: ['Model {{side}} could not answer: {{detail}}', '模型 {{side}} 无法回答：{{detail}}'],
  twoBots: [
    'The bot arena needs two bots of this space published to the API: publish another.',
    '智能体竞技场需要此空间中至少两个已发布到 API 的智能体：请再发布一个。',
  ],
  twoPublic: [
    'The public arena needs two chat models of the platform: a platform administrator adds them under Models.',
    '公共竞技场需要平台的至少两个对话模型：请平台管理员在“模型”中添加。',
  ],
  publicBots: [
    'The public arena has the platform’s models only: bots fight in their space’s arena.',
    '公共竞技场只有平台的模型：智能体请在其所在空间的竞技场中对战。',
  ],
  botsOff: ['Bots are off in this studio.', '此工作室未启用智能体。'],
  turns: [
    'A battle has {{max}} questions at most: vote, then start a new one.',
    '一场对战最多 {{max}} 个问题：请投票后开始新的对战。',
  ],
  notYet: ['Ask the next question once both have answered.', '请在双方都回答后再问下一个问题。'],
});
