import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { ResourceKinds, type ResourcePackage } from '@tessera/sdk/server';
import templates from '../src/server/index.ts';

// The templates alone, with a stand-in bot kind: only templates of running kinds are offered; using one hands
// its package (in the caller's language) to the kind's own import.
const imported: { pkg: ResourcePackage; spaceId: string; userId: string }[] = [];
let t: ExtensionTester;
beforeAll(async () => {
  t = await createExtensionTester(templates, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [
      { id: 'identity' },
      { id: 'spaces' },
      {
        id: 'bots-standin',
        register(ctx) {
          ctx.register(ResourceKinds, {
            kind: 'bot',
            list: async () => [],
            importInto: async (pkg, opts) => (
              imported.push({ pkg, spaceId: opts.spaceId, userId: opts.userId }),
              `b${imported.length}`
            ),
          });
        },
      },
    ],
    users: { ann: { userId: 'ann' }, bob: { userId: 'bob' } },
    spaces: { s1: { ann: 'member' } },
  });
});
afterAll(() => t.close());

describe('starter templates', () => {
  it('offers the templates whose kind runs, named in both languages', async () => {
    const { templates: list } = await t.call('GET', '/api/templates/list', undefined, 'ann');
    expect(list.map((x: { kind: string }) => x.kind)).toEqual(['bot', 'bot', 'bot']); // no prompts here: that kind is not running
    expect(list[0]).toMatchObject({
      template_id: 'support-assistant',
      name: { 'en-US': 'Customer support assistant', 'zh-CN': '客服助手' },
    });
  });

  it("creates one through its kind's import, in the caller's language, in a space of theirs only", async () => {
    const r = await t.request({
      method: 'POST',
      url: '/api/templates/use',
      body: { space_id: 's1', template_id: 'translator' },
      headers: { 'accept-language': 'zh-CN,zh;q=0.9' },
      as: 'ann',
    });
    expect(r.body.data).toEqual({ kind: 'bot', id: 'b1' });
    expect(imported[0]).toMatchObject({ spaceId: 's1', userId: 'ann', pkg: { kind: 'bot', name: '翻译助手' } });
    expect((imported[0].pkg.data as { config: { settings: { prompt: string } } }).config.settings.prompt).toMatch(
      /^你负责中英文互译/,
    );
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/templates/use',
          body: { space_id: 's1', template_id: 'meeting-notes' },
          as: 'ann',
        })
      ).body.msg,
    ).toMatch(/needs resources of kind prompt/);
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/templates/use',
          body: { space_id: 's1', template_id: 'meeting-notes' },
          headers: { 'accept-language': 'zh-CN' },
          as: 'ann',
        })
      ).body.msg,
    ).toBe('模板“会议纪要”需要 prompt 类资源，但本工作室没有启用它。');
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/templates/use',
          body: { space_id: 's1', template_id: 'nope' },
          as: 'ann',
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/templates/use',
          body: { space_id: 's1', template_id: 'translator' },
          as: 'bob',
        })
      ).status,
    ).toBe(403);
    expect(imported).toHaveLength(1);
  });
});
