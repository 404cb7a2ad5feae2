// The connectors' refusals in the studio's languages (keys `connectors.*`), answered in the caller's.
import { defineErrorTexts } from '@tessera/sdk/server';

export const texts = defineErrorTexts('connectors', {
  noEnterprises: ['This studio has no enterprises.', '此工作室未启用企业。'],
  noEnterprise: ['There is no enterprise with this id.', '不存在该企业。'],
  enterpriseAdmin: ["This needs the enterprise's super admin or admin role.", '需要企业的超级管理员或管理员角色。'],
  enterpriseMember: ['You are not a member of this enterprise.', '你不是该企业的成员。'],
  spaceMember: ['You are not a member of this space.', '你不是该空间的成员。'],
  spaceAdmin: [
    "Installing connectors needs the space's admin or owner role.",
    '安装渠道需要空间的管理员或所有者角色。',
  ],
  notYours: ['There is no custom connector {{id}} of yours.', '你没有自定义渠道 {{id}}。'],
  customForbidden: [
    'This enterprise does not allow custom connectors: its admins can allow them in its settings.',
    '该企业不允许自定义渠道：企业管理员可以在设置中开启。',
  ],
  builtinName: [
    '{{name}} is the name of a built-in connector: choose another.',
    '“{{name}}”是内置渠道的名称，请换一个。',
  ],
  noConnector: ['There is no connector {{id}}.', '不存在渠道 {{id}}。'],
  builtin: ['Connector {{id}} is built in: every space has it.', '渠道 {{id}} 是内置渠道，每个空间都有。'],
  notInSpace: ['Connector {{id}} is not installed in this space.', '渠道 {{id}} 未安装在此空间。'],
  notInEnterprise: ['Connector {{id}} is not installed in this enterprise.', '渠道 {{id}} 未安装在此企业。'],
  installFirst: [
    'Connector {{id}} is not installed in this enterprise: install it first.',
    '渠道 {{id}} 未安装在此企业，请先安装。',
  ],
  nameSpace: [
    'Name the space (space_id), or operate on every space (operate_all_space).',
    '请指定空间（space_id），或对所有空间操作（operate_all_space）。',
  ],
  spaceOutside: [
    "This space is not one of the enterprise's: bind it to one of its organizations first.",
    '该空间不属于此企业：请先把它绑定到企业的某个组织。',
  ],
  where: [
    'Name where: a space (workspace_id) or an enterprise (enterprise_id), one of them.',
    '请指定安装位置：空间（workspace_id）或企业（enterprise_id），二选一。',
  ],
  ownSettings: [
    'A person sets only their own settings (user_id is yours).',
    '只能设置你自己的配置（user_id 须为你本人）。',
  ],
  notPublished: ['Bot {{bot}} was not published to connector {{id}}.', '智能体 {{bot}} 未发布到渠道 {{id}}。'],
  reason: ['Say why the bot is rejected (reason): its developer reads it.', '请填写拒绝原因（reason），开发者会看到。'],
});
