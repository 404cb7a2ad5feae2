// The cards' refusals in the studio's languages (keys `cards.*`).
import { defineErrorTexts } from '@tessera/sdk/server';

export const texts = defineErrorTexts('cards', {
  noCard: ['There is no card {{id}}.', '没有卡片 {{id}}。'],
  badDsl: ['The card cannot be saved: {{problem}}', '卡片无法保存：{{problem}}'],
  noTemplate: ['There is no template {{id}}.', '没有模板 {{id}}。'],
  builtinTemplate: ['Built-in templates cannot be deleted.', '内置模板不能删除。'],
  noTarget: [
    'There is no plugin API or workflow {{id}} in this space to bind the card to.',
    '此空间中没有可绑定卡片的插件 API 或工作流 {{id}}。',
  ],
  otherSpace: ['The card and what it is bound to must be in the same space.', '卡片与其绑定对象必须在同一空间。'],
  noModel: [
    'Generating a card needs a chat model in the space: add one under Models.',
    '生成卡片需要该空间中的对话模型：请在“模型”中添加。',
  ],
  notGenerated: [
    'The model did not write a card the studio can use ({{problem}}): describe it again, more simply.',
    '模型没有写出可用的卡片（{{problem}}）：请换一种更简单的描述再试。',
  ],
});
