// Single sign-on's messages in the studio's languages (keys `sso_oidc.*`): the refusals a browser is sent back to the
// sign-in page with (in its Accept-Language), the test sign-in's result, and the routes' errors.
import { defineErrorTexts } from '@tessera/sdk/server';

export const texts = defineErrorTexts('sso_oidc', {
  usedLink: [
    'This sign-in link was already used or has expired: start again.',
    '该登录链接已使用或已过期，请重新开始。',
  ],
  slow: ['This sign-in took longer than ten minutes: start again.', '本次登录超过了十分钟，请重新开始。'],
  otherBrowser: [
    'This sign-in was started in another browser: start it again here.',
    '本次登录是在另一个浏览器中开始的，请在这里重新开始。',
  ],
  providerRefused: ['The identity provider refused the sign-in: {{reason}}.', '身份提供方拒绝了登录：{{reason}}。'],
  off: ['Single sign-on with {{name}} is turned off.', '{{name}} 的单点登录已关闭。'],
  cannot: ['This account cannot sign in here.', '该账号不能在这里登录。'],
  noIdToken: ['The identity provider sent no ID token.', '身份提供方没有返回 ID 令牌。'],
  answerRefused: ["The identity provider's answer was refused: {{reason}}", '身份提供方的响应未通过校验：{{reason}}'],
  domain: [
    '{{email}} is not of {{domains}}, the domains this connection signs in.',
    '{{email}} 不属于该连接可登录的域名 {{domains}}。',
  ],
  noEmail: [
    'The identity provider sent no email address (ask for the email scope).',
    '身份提供方没有返回邮箱地址（请申请 email 范围）。',
  ],
  unverified: ['The identity provider has not verified {{email}}.', '身份提供方尚未验证 {{email}}。'],
  notEnterprisePerson: [
    "An account with {{email}} exists and is not one of this enterprise's people: sign in with its password, or ask an administrator to add it to the enterprise first.",
    '已有使用 {{email}} 的账号，但它不是该企业的成员：请用密码登录，或请管理员先把它加入企业。',
  ],
  noJit: [
    'There is no account for {{email}}, and {{name}} does not make accounts: ask an administrator.',
    '没有 {{email}} 的账号，且 {{name}} 不会自动创建账号：请联系管理员。',
  ],
  unavailable: ['This single sign-on connection is not available.', '该单点登录连接不可用。'],
  unreachable: [
    'The identity provider of {{name}} cannot be reached right now.',
    '暂时无法连接 {{name}} 的身份提供方。',
  ],
  notFound: ['There is no single sign-on connection {{id}}.', '不存在单点登录连接 {{id}}。'],
  studioOnly: [
    "Only a platform administrator keeps the studio's single sign-on connections.",
    '只有平台管理员可以管理工作室的单点登录连接。',
  ],
  enterpriseAdmin: ["This needs the enterprise's super admin or admin role.", '需要企业的超级管理员或管理员角色。'],
  noOrganizations: [
    'This studio has no organizations: map groups to spaces.',
    '此工作室未启用组织：请把组映射到空间。',
  ],
  noEnterprises: ['This studio has no enterprises.', '此工作室未启用企业。'],
  spaceOutside: [
    "Space {{id}} is not one of the enterprise's: map groups to its spaces only.",
    '空间 {{id}} 不属于该企业：只能映射到企业的空间。',
  ],
  organizationOutside: [
    "Organization {{id}} is not one of the enterprise's: map groups to its organizations only.",
    '组织 {{id}} 不属于该企业：只能映射到企业的组织。',
  ],
  unreadable: [
    'The identity provider of {{name}} could not be read: {{reason}}',
    '无法读取 {{name}} 的身份提供方：{{reason}}',
  ],
  noTest: ['There is no test sign-in of yours with this id.', '没有你发起的这次测试登录。'],
});
export type SsoTextKey = Parameters<typeof texts.text>[0];
