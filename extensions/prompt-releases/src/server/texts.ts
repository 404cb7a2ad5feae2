// Prompt releases' refusals in the studio's languages (keys `prompt-releases.*`).
import { defineErrorTexts } from '@tessera/sdk/server';

export const texts = defineErrorTexts('prompt-releases', {
  noEnv: [
    'This space has no environment {{env}}: choose one of {{envs}}.',
    '此空间没有环境 {{env}}：请从 {{envs}} 中选择。',
  ],
  adminsOnly: [
    "Only the space's owner and administrators change its environments.",
    '只有空间所有者和管理员可以修改环境。',
  ],
  approverNotMember: [
    'User {{id}} is not a member of this space: an approver must be one.',
    '用户 {{id}} 不是此空间的成员：审批人必须是成员。',
  ],
  noPrompt: ['There is no prompt {{id}} in this space.', '此空间没有提示词 {{id}}。'],
  twice: ['A prompt is named twice: release each once.', '同一个提示词出现了两次：每个只发布一次。'],
  offlineGray: ['Taking a prompt offline has no gray release.', '下线提示词不能灰度。'],
  chooseVersion: ['Choose the version of {{key}} to release.', '请选择要发布的 {{key}} 版本。'],
  noVersion: ['{{key}} has no version {{version}}: commit it first.', '{{key}} 没有版本 {{version}}：请先提交。'],
  noTask: ['There is no release task {{id}} in this space.', '此空间没有发布任务 {{id}}。'],
  notApprover: ['You are not an approver of releases in this space.', '你不是此空间发布的审批人。'],
  fourEyes: [
    'Someone else approves your own release (four eyes): ask another approver.',
    '自己提交的发布需由他人审批：请找另一位审批人。',
  ],
  rejectWhy: ['Say why the release is rejected: the person who asked reads it.', '请说明拒绝的理由：提交人会看到。'],
  notWaiting: ['This release waits for no decision any more.', '此发布已不在等待审批。'],
  notInGray: ['This release is not in gray release.', '此发布不在灰度中。'],
  grayWhat: ['Give the gray release its new share or users.', '请给出灰度的新比例或用户。'],
  notCancellable: [
    'Only a release waiting for approval or in gray is cancelled.',
    '只有待审批或灰度中的发布可以取消。',
  ],
  nothingToRollBack: [
    'This release did not change what is served: there is nothing of it to roll back.',
    '此发布没有改变当前提供的版本：没有可回滚的内容。',
  ],
  mayNotCancel: [
    'Only who asked for the release, an approver or an administrator cancels it.',
    '只有提交人、审批人或管理员可以取消此发布。',
  ],
  mayNotRollBack: [
    'Only who asked for the release, an approver or an administrator rolls it back.',
    '只有提交人、审批人或管理员可以回滚此发布。',
  ],
  mayNotChange: [
    'Only who asked for the release, an approver or an administrator changes it.',
    '只有提交人、审批人或管理员可以修改此发布。',
  ],
  noPrevious: [
    'No earlier version was live in {{env}}: release the version you want instead.',
    '{{env}} 之前没有提供过其他版本：请直接发布你需要的版本。',
  ],
  grayOnTop: [
    'Another release is in gray in {{env}}: release it to all or cancel it, then roll this one back.',
    '{{env}} 中有另一个发布正在灰度：请先全量发布或取消它，再回滚此发布。',
  ],
  laterRelease: [
    'A later release changed what {{env}} serves of {{key}}: roll that one back first.',
    '之后的发布改变了 {{env}} 中 {{key}} 的版本：请先回滚那个发布。',
  ],
});
