import { createReadStream, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatEventType, ChatStatus, CozeAPI, RoleType } from '@coze/api';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { signUp, type Agent } from '../agent.ts';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';

// What the official @coze/api SDK does the way Coze's own examples do it: a bot created without a model takes
// the space's default and publishes at once; bots without a model are described, not a 500; meta_data comes
// back on the chat; a file upload with a token granted in a team space only; templates.duplicate.
let studio: RunningStudio;
let llm: FakeLlm;
let owner: Agent;
let team: string;
let model: string;
let coze: CozeAPI;

beforeAll(async () => {
  llm = await startFakeLlm();
  studio = await startStudio({ env: { TESSERA_ALLOW_PRIVATE_NETWORK: 'true' } });
  owner = (await signUp(studio.url, 'compat')).agent;
  team = (await owner.post('/api/space/create', { name: 'Team only' })).space_id;
  model = await addFakeModel(owner, llm.url);
  const pat = await owner.post('/api/permission_api/pat/create', {
    name: 'team',
    duration_day: '1',
    workspace_permission_list: [
      { workspace_id: team, permissions: ['bot.read', 'bot.write', 'bot.chat', 'file.upload', 'template.duplicate'] },
    ],
  });
  coze = new CozeAPI({ token: pat.token, baseURL: studio.url });
});
afterAll(async () => {
  await studio?.close();
  await llm?.close();
});

describe('@coze/api as Coze examples use it', () => {
  it('reads a bot that has no model (made in the studio before any model existed) without a 500', async () => {
    const bare = await startStudio();
    try {
      const a = (await signUp(bare.url, 'bare')).agent;
      const space = (await a.post('/api/space/list', {})).spaces[0].space_id;
      const { bot_id } = await a.post('/api/draftbot/create', { space_id: space, name: 'No model yet' });
      const pat = await a.post('/api/permission_api/pat/create', {
        name: 'r',
        duration_day: '1',
        workspace_permission_list: [{ workspace_id: space, permissions: ['bot.read', 'bot.write'] }],
      });
      const sdk = new CozeAPI({ token: pat.token, baseURL: bare.url });
      const info = await sdk.bots.retrieveNew(bot_id);
      expect(info).toMatchObject({ bot_id, name: 'No model yet', model_info: { model_id: '' } });
      const made = await sdk.bots.create({ space_id: space, name: 'Made by the SDK' });
      expect((await sdk.bots.retrieveNew(made.bot_id)).model_info.model_id).toBe('');
      // With no model anywhere, publishing says what is missing.
      await expect(sdk.bots.publish({ bot_id: made.bot_id, connector_ids: ['1024'] })).rejects.toThrow(/model/i);
    } finally {
      await bare.close();
    }
  });

  it('gives a new bot the default chat model, so create then publish works as in Coze examples', async () => {
    const { bot_id } = await coze.bots.create({
      space_id: team,
      name: 'Example bot',
      prompt_info: { prompt: 'Be brief.' },
    });
    expect((await coze.bots.retrieveNew(bot_id)).model_info.model_id).toBe(model);
    await coze.bots.publish({ bot_id, connector_ids: ['1024'] });
    expect((await coze.bots.retrieveNew(bot_id, { is_published: true })).version).toBeTruthy();
    // A bot made in the studio takes it as well; the space's own default wins over the platform's.
    const own = await owner.post(`/api/model_manage/v1/spaces/${team}/credential/create`, {
      provider: 'openai-compatible',
      name: 'team',
      base_url: `${llm.url}/v1`,
      api_key: 'sk-team',
    });
    const teamModel = (
      await owner.post(`/api/model_manage/v1/spaces/${team}/model/create`, {
        credential_id: own.credential_id,
        model_name: 'team-chat',
      })
    ).model_id;
    await owner.post(`/api/model_manage/v1/spaces/${team}/model/set_default`, { model_id: teamModel });
    const listed = (await owner.get(`/api/model_manage/v1/spaces/${team}/v1/list?kind=chat`)).models;
    expect(listed.find((m: { model_id: string }) => m.model_id === teamModel).is_default).toBe(true);
    const { bot_id: studioBot } = await owner.post('/api/draftbot/create', { space_id: team, name: 'Studio bot' });
    expect((await coze.bots.retrieveNew(studioBot)).model_info).toMatchObject({
      model_id: teamModel,
      model_name: 'team-chat',
    });
  });

  it('gives meta_data back on the chat object: created, retrieved and in the stream', async () => {
    const { bot_id } = await coze.bots.create({ space_id: team, name: 'Meta bot' });
    await coze.bots.publish({ bot_id, connector_ids: ['1024'] });
    const meta = { order: 'A-17', channel: 'web' };
    const created = await coze.chat.create({
      bot_id,
      user_id: 'u1',
      additional_messages: [{ role: RoleType.User, content: 'hi', content_type: 'text' }],
      meta_data: meta,
    });
    expect(created.meta_data).toEqual(meta);
    let done = await coze.chat.retrieve(created.conversation_id, created.id);
    for (let i = 0; i < 200 && done.status === ChatStatus.IN_PROGRESS; i++)
      done = await coze.chat.retrieve(created.conversation_id, created.id);
    expect(done.meta_data).toEqual(meta);
    const seen: unknown[] = [];
    for await (const e of coze.chat.stream({
      bot_id,
      user_id: 'u1',
      additional_messages: [{ role: RoleType.User, content: 'again', content_type: 'text' }],
      meta_data: meta,
    }))
      if (e.event === ChatEventType.CONVERSATION_CHAT_CREATED || e.event === ChatEventType.CONVERSATION_CHAT_COMPLETED)
        seen.push((e.data as { meta_data?: unknown }).meta_data);
    expect(seen).toEqual([meta, meta]);
  });

  it('uploads a file with a token granted file.upload in a team space only (the SDK sends no space)', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'sdk-upload-')), 'note.txt');
    writeFileSync(file, 'hello from the SDK');
    const f = await coze.files.upload({ file: createReadStream(file) });
    expect(f).toMatchObject({ file_name: 'note.txt', bytes: 18 });
    const listed = await owner.post('/api/files/list', { space_id: team });
    expect(listed.files.map((x: { id: string }) => x.id)).toContain(f.id);
    expect((await coze.files.retrieve(f.id)).id).toBe(f.id);
  });

  it('duplicates a marketplace template into a workspace with templates.duplicate', async () => {
    const { bot_id } = await owner.post('/api/draftbot/create', { space_id: team, name: 'Template source' });
    await owner.post('/api/draftbot/publish', { space_id: team, bot_id, version: 'v1.0.0', connectors: ['1024'] });
    const { product_id } = await owner.post('/api/marketplace/product/listing', {
      space_id: team,
      entity_type: 'bot',
      entity_id: bot_id,
      name: 'Support starter',
      description: 'A bot to start from.',
      is_template: true,
      version_name: '1.0.0',
    });
    await owner.post('/api/marketplace/admin/listing/approve', { product_id });
    const copy = await coze.templates.duplicate(product_id, { workspace_id: team, name: 'My support bot' });
    expect(copy.entity_type).toBe('agent');
    expect((await coze.bots.retrieveNew(copy.entity_id)).name).toBe('My support bot');
    await expect(coze.templates.duplicate('999999', { workspace_id: team })).rejects.toThrow(/no template 999999/);
  });
});
