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
  botsOff: ['Bots are off in this studio: a role cannot be a bot.', '此工作室未启用智能体：角色不能是智能体。'],
  noBotChosen: ['Choose the bot that speaks for the role {{role}}.', '请为角色 {{role}} 选择发言的智能体。'],
  noBot: [
    'The bot of the role {{role}} is not in this space (it may have been deleted).',
    '角色 {{role}} 的智能体不在此空间中（可能已被删除）。',
  ],
  botNotOnApi: [
    'The bot "{{bot}}" of the role {{role}} is not published to the API: publish it there first.',
    '角色 {{role}} 的智能体“{{bot}}”尚未发布到 API：请先发布。',
  ],
  botFailed: ['The bot of the role {{role}} failed: {{detail}}', '角色 {{role}} 的智能体回答失败：{{detail}}'],
  varSet: ['{{role}} set {{name}} to "{{value}}".', '{{role}} 将 {{name}} 设为“{{value}}”。'],
});
export type SocietyTextKey = Parameters<typeof texts.text>[0];
/** A sentence of the host kept by key, shown in each reader's language. */
export interface HostText {
  key: SocietyTextKey;
  params: Record<string, string>;
}
