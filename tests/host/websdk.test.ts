import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type Agent } from '../agent.ts';
import { readSse } from '../bots-kit.ts';
import { echoChatflowCanvas } from '../workflow-kit.ts';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { startStudio, type RunningStudio } from '../helpers.ts';

// The Web SDK: a bot published to the chat page and Web SDK connector (999) with allowed origins.
let studio: RunningStudio;
let llm: FakeLlm;
let owner: Agent;
let space: string;
let botId: string;

/** Versions rise with each publish (a clock modulo 100,000 wrapped and went back: 'older than the latest'). */
let published = 0;
async function publish(agent: Agent, bot: string, allowed: string[], connectors = ['999']) {
  const info = (await agent.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: space, bot_id: bot }))
    .bot_info;
  return agent.request('POST', '/api/draftbot/publish', {
    space_id: space,
    bot_id: bot,
    version: `v1.0.${++published}`,
    connectors,
    connector_settings: { '999': { allowed_origins: allowed } },
    changelog: info ? '' : '',
  });
}

beforeAll(async () => {
  llm = await startFakeLlm();
  studio = await startStudio();
  owner = (await signUp(studio.url)).agent;
  space = (await owner.post('/api/space/create', { name: 'Web' })).space_id;
  const model = await addFakeModel(owner, llm.url);
  botId = (await owner.post('/api/draftbot/create', { space_id: space, name: 'Shop helper' })).bot_id;
  const info = (await owner.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: space, bot_id: botId }))
    .bot_info;
  await owner.post('/api/playground_api/draftbot/update_draft_bot_info', {
    space_id: space,
    bot_id: botId,
    base_revision: info.revision,
    config: {
      ...info.config,
      settings: { prompt: 'You help shoppers.', model: { model_id: model } },
      onboarding: { ...info.config.onboarding, prologue: 'Hi! Ask me about orders.' },
    },
  });
});
afterAll(async () => {
  await studio?.close();
  await llm?.close();
});

const chat = (body: Record<string, unknown>, origin: string) =>
  fetch(`${studio.url}/api/websdk/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ bot_id: botId, visitor_id: 'visitor-0001', query: 'Where is my order?', ...body }),
  });

describe('the Web SDK', () => {
  it('checks the publication: connectors must exist, allowed origins must be origins', async () => {
    const bad = await owner.request('POST', '/api/draftbot/publish', {
      space_id: space,
      bot_id: botId,
      connectors: ['777'],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain(
      'Unknown connector 777: a bot of this space is published to 1024 (API), 999 (Chat page), web-app (Web app)',
    );
    const badOrigin = await publish(owner, botId, ['shop.example.com/path']);
    expect(badOrigin.status).toBe(400);
    expect(badOrigin.body.msg).toContain('An origin is a scheme and a host');
    const caps = await owner.get('/api/draftbot/capabilities');
    expect(
      caps.connectors.find((c: { id: string }) => c.id === '999').settings_schema.properties.allowed_origins.type,
    ).toBe('array');
  });

  it('serves a chat page framable by the allowed origins only, and answers visitors from allowed sites', async () => {
    const notYet = await fetch(`${studio.url}/embed/bot/${botId}`);
    expect(notYet.status).toBe(404);
    expect(notYet.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect((await publish(owner, botId, ['https://shop.example.com', 'http://127.0.0.1:9'])).status).toBe(200);
    const page = await fetch(`${studio.url}/embed/bot/${botId}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain(
      "frame-ancestors 'self' https://shop.example.com http://127.0.0.1:9",
    );
    expect(page.headers.get('x-frame-options')).toBeNull();
    const html = await page.text();
    expect(html).toContain('data-prologue="Hi! Ask me about orders."');
    expect(html).toContain('<script src="/sdk/embed.js"></script>');
    const loader = await fetch(`${studio.url}/sdk/websdk.js`);
    expect(loader.headers.get('content-type')).toContain('javascript');
    expect(await loader.text()).toContain('/embed/bot/');
    // Other studio pages still refuse every frame.
    expect((await fetch(`${studio.url}/`)).headers.get('x-frame-options')).toBe('DENY');

    llm.script({ text: 'Your order ships tomorrow.' });
    const res = await chat({}, 'https://shop.example.com');
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = await readSse(res);
    expect(
      events
        .filter((e) => e.event === 'conversation.message.delta')
        .map((e) => e.data.content)
        .join(''),
    ).toBe('Your order ships tomorrow.');
    const conversationId = events.find((e) => e.event === 'conversation.chat.created')!.data.conversation_id;
    // The same visitor continues; another visitor cannot.
    llm.script({ text: 'Yes, tomorrow.' });
    expect(
      (
        await readSse(await chat({ conversation_id: conversationId, query: 'Really?' }, 'https://shop.example.com'))
      ).some((e) => e.event === 'conversation.chat.completed'),
    ).toBe(true);
    expect(JSON.stringify(llm.requests.at(-1)!.body.messages)).toContain('Your order ships tomorrow.');
    const stranger = await chat(
      { conversation_id: conversationId, visitor_id: 'visitor-9999' },
      'https://shop.example.com',
    );
    expect(stranger.status).toBe(400);
    // Not from a site that is not allowed, nor without an origin.
    expect((await chat({}, 'https://evil.example.net')).status).toBe(403);
    // The origin is parsed and compared whole (scheme, host, port), never by its ending.
    const host = new URL(studio.url).host;
    for (const forged of [
      `https://evil.net//${host}`,
      `https://evil.net/${host}`,
      `http://evil${host}`,
      'https://shop.example.com.evil.net',
      'https://shop.example.com/',
      'null',
    ])
      expect((await chat({}, forged)).status, forged).toBe(403);
    expect(
      (
        await fetch(`${studio.url}/api/websdk/chat`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ bot_id: botId, visitor_id: 'visitor-0001', query: 'hi' }),
        })
      ).status,
    ).toBe(403);
  });

  it('stops answering when the bot is published without the Web SDK', async () => {
    expect((await publish(owner, botId, [], ['1024'])).status).toBe(200);
    expect((await fetch(`${studio.url}/embed/bot/${botId}`)).status).toBe(404);
    expect((await chat({}, 'https://shop.example.com')).status).toBe(404);
  });
});

describe("a project's chat-flow in the Web SDK", () => {
  it('answers visitors of allowed sites once the project is published to 999 with its origins', async () => {
    const { workflow_id } = await owner.post('/api/workflow_api/create', {
      space_id: space,
      name: 'Echo desk',
      flow_mode: 3,
    });
    await owner.post('/api/workflow_api/save', { space_id: space, workflow_id, schema: echoChatflowCanvas() });
    const { project_id } = await owner.post('/api/intelligence_api/draft_project/create', {
      space_id: space,
      name: 'Shop app',
    });
    await owner.post('/api/intelligence_api/project/resource/add', {
      project_id,
      resources: [{ res_type: 'workflow', res_id: workflow_id }],
    });
    const appChat = (body: Record<string, unknown>, origin: string) =>
      fetch(`${studio.url}/api/websdk/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: JSON.stringify({ app_id: project_id, workflow_id, visitor_id: 'visitor-0002', query: 'hello', ...body }),
      });
    expect((await fetch(`${studio.url}/embed/app/${project_id}/${workflow_id}`)).status).toBe(404);
    expect((await appChat({}, 'https://shop.example.com')).status).toBe(404);
    // The connectors list offers the Web SDK with its settings; bad origins are refused.
    const connectors = (await owner.post('/api/intelligence_api/publish/connector_list', { project_id })).connectors;
    expect(connectors.find((c: { id: string }) => c.id === '999').settings_schema.properties.allowed_origins.type).toBe(
      'array',
    );
    const bad = await owner.request('POST', '/api/intelligence_api/publish/publish_project', {
      project_id,
      version_number: '1.0.0',
      connectors: ['999'],
      connector_settings: { '999': { allowed_origins: ['shop'] } },
    });
    expect([bad.status, bad.body.msg]).toEqual([400, expect.stringContaining('An origin is a scheme and a host')]);
    await owner.post('/api/intelligence_api/publish/publish_project', {
      project_id,
      version_number: '1.0.0',
      connectors: ['999'],
      connector_settings: { '999': { allowed_origins: ['https://shop.example.com'] } },
    });
    const page = await fetch(`${studio.url}/embed/app/${project_id}/${workflow_id}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'self' https://shop.example.com");
    expect(await page.text()).toContain(`data-app-id="${project_id}" data-workflow-id="${workflow_id}"`);
    const events = await readSse(await appChat({}, 'https://shop.example.com'));
    const answer = events
      .filter((e) => e.event === 'conversation.message.completed')
      .map((e) => e.data)
      .find((m) => m.type === 'answer');
    expect(answer.content).toBe('You said: hello');
    const conversationId = events.find((e) => e.event === 'conversation.chat.created')!.data.conversation_id;
    expect(
      (await appChat({ conversation_id: conversationId, visitor_id: 'visitor-9998' }, 'https://shop.example.com'))
        .status,
    ).toBe(400);
    expect((await appChat({}, 'https://evil.example.net')).status).toBe(403);
    // A workflow of the space that is not in the project is not served.
    const { workflow_id: other } = await owner.post('/api/workflow_api/create', {
      space_id: space,
      name: 'Not in app',
      flow_mode: 3,
    });
    expect((await fetch(`${studio.url}/embed/app/${project_id}/${other}`)).status).toBe(404);
  });
});
