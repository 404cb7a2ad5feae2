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
});
