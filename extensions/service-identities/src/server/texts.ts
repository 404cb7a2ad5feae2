// The service identities' refusals in the studio's languages (keys `service_identities.*`).
import { defineErrorTexts } from '@tessera/sdk/server';

export const texts = defineErrorTexts('service_identities', {
  notFound: ['There is no service identity with this id in the space.', '此空间中没有该服务身份。'],
  tooManyKeys: [
    'A service identity has at most 10 keys: delete one first.',
    '一个服务身份最多有 10 个密钥：请先删除一个。',
  ],
  noKey: ['The service identity has no key with this id.', '该服务身份没有这个密钥。'],
});
