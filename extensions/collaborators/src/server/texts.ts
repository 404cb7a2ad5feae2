// The collaborators' refusals in the studio's languages (keys `collaborators.*`).
import { defineErrorTexts } from '@tessera/sdk/server';

export const texts = defineErrorTexts('collaborators', {
  refused: [
    'Only the collaborators of this {{kind}} change it: ask its creator to add you.',
    '只有协作者可以修改此资源（{{kind}}）：请联系创建者将你添加为协作者。',
  ],
  noResource: ['There is no {{kind}} {{id}} in this space.', '此空间中没有 {{kind}} {{id}}。'],
  managers: [
    "Only the {{kind}}'s creator or a space administrator names its collaborators.",
    '只有创建者或空间管理员可以添加此资源（{{kind}}）的协作者。',
  ],
  notMember: [
    'User {{user}} is not a member of this space: add them to the space first.',
    '用户 {{user}} 不是此空间的成员：请先把其加入空间。',
  ],
  notCollaborator: ['This person is not a collaborator of it.', '此人不是它的协作者。'],
  unchecked: [
    'The collaborators of this resource could not be checked just now: try again.',
    '暂时无法核对此资源的协作者，请重试。',
  ],
});
