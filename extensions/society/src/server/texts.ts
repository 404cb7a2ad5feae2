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
  // What the host says in a process (shown in the reader's language).
  speaksRoundRobin: ['{{role}} speaks (round robin).', '{{role}} 发言（轮流）。'],
  speaksRule: ['{{role}} speaks (a rule).', '{{role}} 发言（按规则）。'],
  speaksNoRule: [
    '{{role}} speaks (round robin: no rule for the last speaker).',
    '{{role}} 发言（轮流：上一位发言者没有规则）。',
  ],
  speaksHost: ['{{role}} speaks ({{reason}}).', '{{role}} 发言（{{reason}}）。'],
  speaksHostChose: ['{{role}} speaks (the host chose).', '{{role}} 发言（主持人选择）。'],
  speaksFallback: [
    '{{role}} speaks (round robin: the host’s answer could not be used).',
    '{{role}} 发言（轮流：无法使用主持人的回答）。',
  ],
  endLimit: ['The round limit ({{max}}) was reached.', '已达到轮数上限（{{max}}）。'],
  endKeyword: ['"{{keyword}}" was said.', '有人说了“{{keyword}}”。'],
  endHost: ['{{reason}}', '{{reason}}'],
  endHostPlain: ['The host ended the conversation.', '主持人结束了对话。'],
  endFailed: ['The turn failed: {{detail}}', '本轮发言失败：{{detail}}'],
  endStopped: ['Stopped by a person.', '已被人停止。'],
});
export type SocietyTextKey = Parameters<typeof texts.text>[0];
/** A sentence of the host kept by key, shown in each reader's language. */
export interface HostText {
  key: SocietyTextKey;
  params: Record<string, string>;
}
