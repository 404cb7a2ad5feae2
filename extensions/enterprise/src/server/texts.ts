// The enterprises' refusals in the studio's languages (keys `enterprise.*`), answered in the caller's.
import { defineErrorTexts } from '@tessera/sdk/server';

export const texts = defineErrorTexts('enterprise', {
  notMember: ['You are not a member of this enterprise.', '你不是该企业的成员。'],
  needsAdmin: ["This needs the enterprise's super admin or admin role.", '需要企业的超级管理员或管理员角色。'],
  needsOrgAdmin: [
    "This needs the enterprise's admin role or the organization's admin role.",
    '需要企业管理员或该组织的管理员角色。',
  ],
  superAdmins: [
    'Only a super admin may change or remove a super admin, or make one.',
    '只有超级管理员可以修改、移除或设置超级管理员。',
  ],
  spaceAdmin: [
    "Only the space's owner or an admin may put it in an organization.",
    '只有空间的所有者或管理员可以把它放入组织。',
  ],
  personalSpace: [
    'A personal space stays with its person: put a team space in the organization.',
    '个人空间只属于个人：请把团队空间放入组织。',
  ],
  noOrganization: ['There is no organization with this id.', '不存在该组织。'],
  noEnterprise: ['There is no enterprise with this id.', '不存在该企业。'],
  lastSuperAdmin: [
    'An enterprise keeps at least one super admin: make another one first.',
    '企业至少要保留一位超级管理员：请先设置另一位。',
  ],
  notPerson: ['This person is not in the enterprise.', '此人不在该企业中。'],
  badInvite: ['This invite link is not valid.', '该邀请链接无效。'],
  expiredInvite: ['This invite link has expired: ask for a new one.', '该邀请链接已过期，请索取新的链接。'],
  otherOrganization: ['There is no such organization in this enterprise.', '该企业中没有这个组织。'],
  joinFirst: ['Join the enterprise first, then its organizations.', '请先加入企业，再加入其组织。'],
  alreadyIn: ['You are already in this enterprise.', '你已经在该企业中。'],
  domains: [
    'Only people with an email of {{domains}} may ask to join; ask an administrator for an invite link.',
    '只有邮箱属于 {{domains}} 的人可以申请加入；请向管理员索取邀请链接。',
  ],
  noApplications: [
    'This enterprise takes no applications: ask an administrator for an invite link.',
    '该企业不接受加入申请：请向管理员索取邀请链接。',
  ],
  asked: ['You have asked already; an administrator will answer.', '你已经申请过了，请等待管理员处理。'],
  noApplication: ['There is no such application.', '不存在该申请。'],
  answered: ['This application was answered already.', '该申请已处理。'],
  blocked: [
    'The organization still has {{spaces}} space(s) and {{members}} other member(s): move them out first (check_delete lists them).',
    '该组织还有 {{spaces}} 个空间和 {{members}} 位其他成员：请先移出（check_delete 会列出）。',
  ],
  notOrgPerson: ['This person is not in the organization.', '此人不在该组织中。'],
  spaceTaken: ['This space belongs to another organization.', '该空间已属于另一个组织。'],
  tokenEnterprise: [
    "This access token lacks the permission '{{permission}}' for enterprise {{enterprise}}.",
    '该访问令牌没有企业 {{enterprise}} 的“{{permission}}”权限。',
  ],
});
