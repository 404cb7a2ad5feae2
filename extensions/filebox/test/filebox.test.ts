import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { BotsService, type Bots } from '@tessera/ext-bots/shared';
import { FilesService, type FileInfo, type Files } from '@tessera/ext-files/shared';
import filebox from '../src/server/index.ts';

// The file box alone, with stand-ins for bots and files: a box per user, files of the bot's space only, words found
// where they are (the name first), photos only in albums, in the caller's language.
const file = (id: string, name: string, kind: number, space = 's1'): FileInfo => ({
  id,
  space_id: space,
  file_name: name,
  mime: '',
  ext: name.split('.').pop()!,
  kind,
  bytes: 10,
  sha256: '',
  creator_id: 'ann',
  created_at: 0,
});
const stored: Record<string, FileInfo> = {
  '1000001': file('1000001', 'invoice.txt', 4),
  '1000002': file('1000002', 'cat.png', 1),
  '1000003': file('1000003', 'notes.txt', 4),
  '2000001': file('2000001', 'other.txt', 4, 's2'),
};
const files = {
  info: async (id: string) => stored[id],
  read: async () => Buffer.from('text'),
  url: async (id: string) => `http://files/${id}`,
  remove: async () => undefined,
} as unknown as Files;
const bots = {
  get: async (id: string) =>
    id === 'b1'
      ? { bot_id: 'b1', space_id: 's1', name: 'Keeper', description: '', icon_uri: '', mode: 'single-agent' }
      : undefined,
  skillSettings: async () => ({}),
} as unknown as Bots;

let t: ExtensionTester;
beforeAll(async () => {
  t = await createExtensionTester(filebox, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [
      { id: 'bots', services: [[BotsService, bots]] },
      { id: 'files', services: [[FilesService, files]] },
    ],
    users: { ann: { userId: 'ann' }, bob: { userId: 'bob' } },
    spaces: { s1: { ann: 'member', bob: 'member' } },
  });
});
afterAll(() => t.close());

describe('the file box alone', () => {
  it('keeps a box per user, of the bot’s space’s files, and finds words by where they are', async () => {
    const { files: added } = await t.call(
      'POST',
      '/api/filebox/files/batch_create',
      { bot_id: 'b1', file_ids: ['1000001', '1000002', '1000003'] },
      'ann',
    );
    expect(added.map((f: { kind: number }) => f.kind)).toEqual([4, 1, 4]);
    await t.call(
      'POST',
      '/api/filebox/batch_update_file_meta',
      { bot_id: 'b1', files: [{ id: added[2].id, description: 'about the invoice' }] },
      'ann',
    );
    const recalled = await t.call('POST', '/api/filebox/recall_files', { bot_id: 'b1', query: 'invoice' }, 'ann');
    // The name counts more than the description.
    expect(recalled.files.map((f: { name: string }) => f.name)).toEqual(['invoice.txt', 'notes.txt']);
    expect((await t.call('POST', '/api/filebox/search_file', { bot_id: 'b1' }, 'bob')).total).toBe(0);
    const foreign = await t.request({
      method: 'POST',
      url: '/api/filebox/files/batch_create',
      body: { bot_id: 'b1', file_ids: ['2000001'] },
      headers: { 'accept-language': 'zh-CN' },
      as: 'ann',
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.msg).toMatch(/不属于该智能体所在的空间/);
  });

  it('puts only photos in albums, and keeps an album to its owner', async () => {
    const { files: all } = await t.call('POST', '/api/filebox/search_file', { bot_id: 'b1' }, 'ann');
    const photo = all.find((f: { name: string }) => f.name === 'cat.png');
    const doc = all.find((f: { name: string }) => f.name === 'invoice.txt');
    const { album } = await t.call('POST', '/api/filebox/create_album', { bot_id: 'b1', name: 'Pets' }, 'ann');
    await t.call(
      'POST',
      '/api/filebox/add_photos_to_album',
      { bot_id: 'b1', album_id: album.album_id, ids: [photo.id] },
      'ann',
    );
    const refused = await t.request({
      method: 'POST',
      url: '/api/filebox/add_photos_to_album',
      body: { bot_id: 'b1', album_id: album.album_id, ids: [doc.id] },
      as: 'ann',
    });
    expect(refused.body.msg).toMatch(/Only images/);
    const bobs = await t.request({
      method: 'POST',
      url: '/api/filebox/show_album',
      body: { bot_id: 'b1', album_id: album.album_id },
      as: 'bob',
    });
    expect(bobs.status).toBe(404);
  });
});
