import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type Agent } from '../agent.ts';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { startStudio, type RunningStudio } from '../helpers.ts';

// Connectors with the real bots, spaces and enterprises: a bot is published to a custom connector only where it is
// installed (and its enterprise allows custom connectors); the connector's developer reviews the publication, and the
// bot's space sees the review.
let studio: RunningStudio;
let llm: FakeLlm;
let dev: Agent;
let space: string;
let model: string;

async function publishableBot(a: Agent, spaceId: string, name: string): Promise<string> {
  const { bot_id } = await a.post('/api/draftbot/create', { space_id: spaceId, name });
  const info = (await a.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: spaceId, bot_id }))
    .bot_info;
  await a.post('/api/playground_api/draftbot/update_draft_bot_info', {
    space_id: spaceId,
    bot_id,
    base_revision: info.revision,
    config: { ...info.config, settings: { prompt: 'Be brief.', model: { model_id: model } } },
  });
  return bot_id;
}

beforeAll(async () => {
  llm = await startFakeLlm();
  studio = await startStudio();
  dev = (await signUp(studio.url, 'conn-dev')).agent;
  space = (await dev.post('/api/space/create', { name: 'Channels' })).space_id;
  model = await addFakeModel(dev, llm.url);
});
afterAll(async () => {
  await studio?.close();
  await llm?.close();
});

describe('a custom connector', () => {
  it('takes a bot only where it is installed, and reviews it', async () => {
    const { connector } = await dev.post('/api/connector/create', {
      name: 'Help portal',
      description: 'Our help site',
    });
    const id = connector.connector_id as string;
    const bot = await publishableBot(dev, space, 'Helper');
    const publish = (connectors: string[]) =>
      dev.request('POST', '/api/draftbot/publish', { space_id: space, bot_id: bot, connectors });
    const refused = await publish(['1024', id]);
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toContain(`Unknown connector ${id}`);
    const caps = () => dev.ok('GET', `/api/draftbot/capabilities?space_id=${space}`);
    expect((await caps()).connectors.map((c: { id: string }) => c.id)).not.toContain(id);

    await dev.post(`/v1/connectors/${id}/install`, { workspace_id: space });
    expect((await caps()).connectors.map((c: { id: string }) => c.id)).toContain(id);
    expect((await publish(['1024', id])).status).toBe(200);
    // Recorded when the bot's publication is told (an event after the publish answered).
    await expect
      .poll(async () => (await dev.post('/api/connector/publication/space_list', { space_id: space })).publications, {
        timeout: 15_000,
      })
      .toMatchObject([{ connector_id: id, bot_id: bot, name: 'Helper', audit_status: 1 }]);

    // A rejection says why; an approval gives the bot's link on the channel.
    const noReason = await dev.request('POST', '/open_api/v1/connector/update_connector_bot', {
      connector_id: id,
      bot_id: bot,
      audit_status: 3,
    });
    expect(noReason.status).toBe(400);
    await dev.post('/open_api/v1/connector/update_connector_bot', {
      connector_id: id,
      bot_id: bot,
      audit_status: 2,
      share_link: 'https://help.example.com/bots/helper',
    });
    const approved = await dev.post('/api/connector/publication/space_list', { space_id: space });
    expect(approved.publications[0]).toMatchObject({
      audit_status: 2,
      share_link: 'https://help.example.com/bots/helper',
    });

    // Someone else cannot review it, nor install it in their space.
    const other = (await signUp(studio.url, 'conn-other')).agent;
    const theirs = (await other.post('/api/space/create', { name: 'Theirs' })).space_id;
    expect(
      (
        await other.request('POST', '/open_api/v1/connector/update_connector_bot', {
          connector_id: id,
          bot_id: bot,
          audit_status: 2,
        })
      ).status,
    ).toBe(404);
    expect((await other.request('POST', `/v1/connectors/${id}/install`, { workspace_id: theirs })).status).toBe(404);
  });

  it("is refused in the spaces of an enterprise that does not allow it, and bound from the enterprise's install", async () => {
    const ent = (await dev.post('/api/enterprise/create', { name: 'Conn Corp' })).enterprise.enterprise_id;
    const org = (await dev.post('/api/enterprise/organization/create', { enterprise_id: ent, name: 'Sales' }))
      .organization.organization_id;
    const sales = (await dev.post('/api/space/create', { name: 'Sales space' })).space_id;
    await dev.post('/api/enterprise/organization/bind_space', { organization_id: org, space_id: sales });
    const { connector } = await dev.post('/api/connector/create', { name: 'CRM', enterprise_id: ent });
    const id = connector.connector_id as string;
    const refused = await dev.request('POST', '/api/connector/install', { connector_id: id, workspace_id: sales });
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toMatch(/does not allow custom connectors/);
    // In the caller's language.
    const zh = await dev.request(
      'POST',
      '/api/connector/install',
      { connector_id: id, workspace_id: sales },
      { 'accept-language': 'zh-CN' },
    );
    expect(zh.body.msg).toBe('该企业不允许自定义渠道：企业管理员可以在设置中开启。');

    await dev.post('/api/connector/enterprise/update_config', {
      enterprise_id: ent,
      can_install_custom_connector: true,
    });
    // The enterprise's settings page says the same.
    const settings = await dev.post('/api/enterprise/settings/get', { enterprise_id: ent });
    expect(settings.enterprise_settings.can_install_custom_connector).toBe(true);
    await dev.post('/api/connector/enterprise_connector/manage', {
      enterprise_id: ent,
      connector_id_list: [id],
      action: 'install',
    });
    await dev.post('/api/connector/bind_space', {
      enterprise_id: ent,
      connector_id_list: [id],
      operate_all_space: true,
    });
    const listed = await dev.post('/api/connector/space_connector/list', { space_id: sales });
    expect(listed.connectors.find((c: { connector_id: string }) => c.connector_id === id)).toMatchObject({
      source: 'enterprise',
      is_installed: true,
    });
    const bot = await publishableBot(dev, sales, 'Seller');
    expect(
      (await dev.request('POST', '/api/draftbot/publish', { space_id: sales, bot_id: bot, connectors: [id] })).status,
    ).toBe(200);

    await dev.post('/api/enterprise/settings/update', {
      enterprise_id: ent,
      enterprise_settings: { can_install_custom_connector: false },
    });
    const again = await dev.request('POST', '/api/draftbot/publish', {
      space_id: sales,
      bot_id: bot,
      connectors: [id],
    });
    expect(again.status).toBe(400);
  });
});

describe('an access token for the account', () => {
  it("manages the person's connectors on the open API only when given connector.manage for the account", async () => {
    const { connector } = await dev.post('/api/connector/create', { name: 'Token channel' });
    const id = connector.connector_id as string;
    const token = async (body: Record<string, unknown>) =>
      (await dev.post('/api/permission_api/pat/create', { name: 't', duration_day: '1', ...body })).token as string;
    // The permission is the account's: asked in a workspace, it is refused with where it belongs.
    const misplaced = await dev.request('POST', '/api/permission_api/pat/create', {
      name: 't',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['connector.manage'] }],
    });
    expect(misplaced.status).toBe(400);
    expect(misplaced.body.msg).toMatch(/connector.manage is not held per workspace/);
    const install = (t: string) =>
      fetch(`${studio.url}/v1/connectors/${id}/install`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t}`, 'content-type': 'application/json' },
        body: JSON.stringify({ workspace_id: space }),
      });
    const without = await token({ workspace_permission_list: [{ workspace_id: space, permissions: ['bot.chat'] }] });
    expect((await install(without)).status).toBe(403);
    const withAccount = await token({ account_permission: { permission_list: ['connector.manage'] } });
    const r = await install(withAccount);
    expect(r.status).toBe(200);
    const listed = await dev.ok('GET', '/api/permission_api/pat/list_personal_access_tokens');
    expect(listed.personal_access_tokens[0].account_permission).toEqual({ permission_list: ['connector.manage'] });
  });
});
