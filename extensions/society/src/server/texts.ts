// The societies' refusals in the studio's languages (keys `society.*`).
import { defineErrorTexts } from '@tessera/sdk/server';

export const texts = defineErrorTexts('society', {
  noSociety: ['There is no society {{id}}.', '不存在社会 {{id}}。'],
  noRole: ['The society has no role {{id}}.', '该社会没有角色 {{id}}。'],
  noProcess: ['There is no process {{id}}.', '不存在进程 {{id}}。'],
  noMessage: ['The process has no message {{id}}.', '该进程没有消息 {{id}}。'],
  noRoles: ['Give the society two roles or more before starting a process.', '开始进程前，请为社会添加至少两个角色。'],
  noModel: [
    'The role {{role}} has no model, nor does the host: choose one.',
    '角色 {{role}} 没有模型，主持人也没有：请选择一个。',
  ],
  hostModel: ['A model host needs its model: choose one.', '由模型主持时需要选择模型。'],
  cannot: ['A {{status}} process cannot be {{operation}}ed.', '处于 {{status}} 状态的进程不能执行 {{operation}}。'],
  notWaiting: ['It is not a person’s turn in this process.', '该进程当前不是由人发言。'],
});
