// The reports' refusals in the studio's languages (keys `reports.*`).
import { defineErrorTexts } from '@tessera/sdk/server';

export const texts = defineErrorTexts('reports', {
  already: ['You reported this already; an administrator will look at it.', '你已经举报过了，管理员会处理。'],
  notFound: ['There is no report with this id.', '不存在该举报。'],
  answered: ['This report was answered already.', '该举报已处理。'],
});
