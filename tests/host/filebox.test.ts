import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type Agent } from '../agent.ts';
import { completed, debugChat } from '../bots-kit.ts';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { startStudio, type RunningStudio } from '../helpers.ts';

// The file box with the real parts: each end user's box kept to them (through Coze's open calls with a token), files
// searched, described, summarized by the space's chat model (the fake server) and put in albums; the bot's tools
// finding a file in a chat; files of another space refused.
let studio: RunningStudio;
let llm: FakeLlm;
let owner: Agent;
let space: string;
let bot: string;
let token: string;

/** A PNG of one pixel. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

async function upload(agent: Agent, files: { name: string; type: string; data: Buffer }[]) {
  const form = new FormData();
  for (const f of files) form.append('file', new Blob([new Uint8Array(f.data)], { type: f.type }), f.name);
  const r = await agent.request('POST', `/api/files/upload?space_id=${space}`, form);
  return (r.body.data.files as { id: string }[]).map((f) => f.id);
}
const box = (path: string, body: Record<string, unknown> = {}) =>
  owner.post(`/api/filebox/${path}`, { bot_id: bot, ...body });

beforeAll(async () => {
  llm = await startFakeLlm();
  studio = await startStudio();
  owner = (await signUp(studio.url, 'filebox-owner')).agent;
  space = (await owner.post('/api/space/create', { name: 'Box' })).space_id;
  const model = await addFakeModel(owner, llm.url, { capabilities: { function_call: true } });
  bot = (await owner.post('/api/draftbot/create', { space_id: space, name: 'Keeper' })).bot_id;
  const info = (await owner.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: space, bot_id: bot }))
    .bot_info;
  await owner.post('/api/playground_api/draftbot/update_draft_bot_info', {
    space_id: space,
    bot_id: bot,
    base_revision: info.revision,
    config: {
      ...info.config,
      settings: { prompt: 'You keep files.', model: { model_id: model } },
      skills: { filebox: {} },
    },
  });
  token = (
    await owner.post('/api/permission_api/pat/create', {
      name: 'box',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['bot.chat'] }],
    })
  ).token;
});
afterAll(async () => {
  await studio?.close();
  await llm?.close();
});

describe('the file box', () => {
  it('keeps each end user’s files to them (the open calls)', async () => {
    const put = async (user: string, name: string) => {
      const form = new FormData();
      form.append('file', new Blob([`notes of ${user}`], { type: 'text/plain' }), name);
      const r = await fetch(`${studio.url}/v1/upload_files?bot_id=${bot}&user_id=${user}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      return (await r.json()) as { code: number; data: { files: { name: string }[] } };
    };
    expect((await put('alice', 'alice.txt')).data.files[0].name).toBe('alice.txt');
    await put('bob', 'bob.txt');
    const list = async (user: string) =>
      (
        (await (
          await fetch(`${studio.url}/v1/file_list?bot_id=${bot}&user_id=${user}`, {
            headers: { authorization: `Bearer ${token}` },
          })
        ).json()) as { data: { files: { name: string }[] } }
      ).data.files.map((f) => f.name);
    expect(await list('alice')).toEqual(['alice.txt']);
    expect(await list('bob')).toEqual(['bob.txt']);
    // The studio user's own box (the editor's) is a third.
    expect((await box('search_file')).files).toEqual([]);
  });

  it('searches, describes, summarizes and sorts into albums; refuses what is not its own', async () => {
    const [doc, photo] = await upload(owner, [
      { name: 'invoice-march.txt', type: 'text/plain', data: Buffer.from('Invoice 42: 1,200 EUR due on 31 March.') },
      { name: 'beach.png', type: 'image/png', data: PNG },
    ]);
    const { files } = await box('files/batch_create', { file_ids: [doc, photo] });
    const [d, p] = files as { id: string; kind: number }[];
    expect(files.map((f: { kind: number }) => f.kind)).toEqual([4, 1]);
    await box('batch_update_file_meta', { files: [{ id: p.id, description: 'Summer holiday', tags: ['family'] }] });
    expect((await box('search_file', { query: 'holiday' })).files.map((f: { name: string }) => f.name)).toEqual([
      'beach.png',
    ]);
    expect((await box('search_file', { kinds: [4] })).files.map((f: { name: string }) => f.name)).toEqual([
      'invoice-march.txt',
    ]);
    expect((await box('recall_files', { query: 'march invoice' })).files[0].name).toBe('invoice-march.txt');

    // A summary by the space's default chat model (the fake echoes what it was given), kept with the file.
    const { summary } = await box('summary_file', { id: d.id });
    expect(summary).toContain('Invoice 42');
    expect((await box('get_file_meta_info', { id: d.id })).file.summary).toBe(summary);
    const image = await owner.request('POST', '/api/filebox/summary_file', { bot_id: bot, id: p.id });
    expect(image.body.msg).toMatch(/no text to summarize/);

    const { album } = await box('create_album', { name: 'Holidays' });
    await box('add_photos_to_album', { album_id: album.album_id, ids: [p.id] });
    const notPhoto = await owner.request('POST', '/api/filebox/add_photos_to_album', {
      bot_id: bot,
      album_id: album.album_id,
      ids: [d.id],
    });
    expect(notPhoto.body.msg).toMatch(/Only images go in albums/);
    const shown = await box('show_album', { album_id: album.album_id });
    expect(shown).toMatchObject({ album: { photo_count: 1 }, photos: [{ name: 'beach.png' }] });
    expect(shown.album.cover_url).toMatch(/^http/);

    // A file of another space is not put in the box; a stranger has no box with this bot.
    const other = (await owner.post('/api/space/create', { name: 'Elsewhere' })).space_id;
    const form = new FormData();
    form.append('file', new Blob(['x'], { type: 'text/plain' }), 'x.txt');
    const foreign = (await owner.request('POST', `/api/files/upload?space_id=${other}`, form)).body.data.files[0].id;
    expect(
      (await owner.request('POST', '/api/filebox/files/batch_create', { bot_id: bot, file_ids: [foreign] })).body.msg,
    ).toMatch(/not a file of the bot’s space/);
    const stranger = await signUp(studio.url, 'filebox-stranger');
    expect((await stranger.agent.request('POST', '/api/filebox/search_file', { bot_id: bot })).status).toBe(403);

    await box('batch_delete_file', { ids: [p.id] });
    expect((await box('show_album', { album_id: album.album_id })).album.photo_count).toBe(0);
  });

  it('lets the bot find and read the user’s files with its tools', async () => {
    llm.script(
      { toolCalls: [{ name: 'filebox_search', arguments: { query: 'invoice' } }] },
      { text: 'You have an invoice.' },
    );
    const events = await debugChat(owner, space, bot, 'Which invoices do I have?');
    const result = completed(events, 'tool_response').map((m) => JSON.parse(m.content));
    expect(result[0].files.map((f: { name: string }) => f.name)).toEqual(['invoice-march.txt']);
    // The instructions told the model what the box holds.
    expect(JSON.stringify(llm.requests.at(-2)!.body.messages[0])).toMatch(/file box with you: 1 file\(s\) and 1 album/);
  });
});
