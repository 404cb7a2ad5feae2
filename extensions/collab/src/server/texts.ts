// Refusals of a shared document's connection, in the studio's languages (keys `collab.*`).
import { defineErrorTexts } from '@tessera/sdk/server';

export const texts = defineErrorTexts('collab', {
  unknownKind: [
    'Documents of kind {{kind}} cannot be edited together here.',
    '此处不支持协同编辑 {{kind}} 类型的文档。',
  ],
  noResource: ['There is no {{kind}} {{id}}.', '没有 {{kind}} {{id}}。'],
});
