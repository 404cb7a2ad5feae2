// The file box's refusals in the studio's languages (keys `filebox.*`).
import { defineErrorTexts } from '@tessera/sdk/server';

export const texts = defineErrorTexts('filebox', {
  noFile: ['There is no file {{id}} in your file box with this bot.', '你与此智能体的文件盒中没有文件 {{id}}。'],
  noAlbum: ['There is no album {{id}} in your file box with this bot.', '你与此智能体的文件盒中没有相册 {{id}}。'],
  notHere: [
    'The file {{id}} is not a file of the bot’s space: upload it there first.',
    '文件 {{id}} 不属于该智能体所在的空间：请先上传到该空间。',
  ],
  notPhoto: ['Only images go in albums; “{{name}}” is not one.', '相册中只能放图片；“{{name}}”不是图片。'],
  noModel: [
    'Summaries need a chat model in the bot’s space: add one under Models.',
    '生成摘要需要该空间中的对话模型：请在“模型”中添加。',
  ],
  unreadable: [
    '“{{name}}” has no text to summarize (an image, audio or video, or a kind the studio does not read).',
    '“{{name}}”没有可摘要的文本（图片、音频或视频，或工作室无法读取的类型）。',
  ],
  full: ['A file box holds {{max}} files at most: delete some first.', '文件盒最多存放 {{max}} 个文件：请先删除一些。'],
});
