import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { ModelsService } from '@tessera/ext-models/shared';
import prompts from '../src/server/index.ts';

// The prompt library alone (models stood in for: nothing here calls a model): a prompt's draft, its versions,
// labels on them, and who may touch it.
let t: ExtensionTester;
beforeAll(async () => {
  t = await createExtensionTester(prompts, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [{ id: 'identity' }, { id: 'spaces' }, { id: 'models', services: [[ModelsService, {}]] }],
    spaces: { s1: { ann: 'admin', bob: 'member' }, s2: { eve: 'admin' } },
  });
});
afterAll(() => t.close());

const base = '/api/prompt/v1/prompts';
const messages = (text: string) => ({ prompt_template: { messages: [{ role: 'system', content: text }] } });

it('keeps a draft, commits it as versions, and labels a version', async () => {
  const { prompt_id } = await t.call(
    'POST',
    base,
    { workspace_id: 's1', prompt_key: 'support.reply', prompt_name: 'Reply', draft_detail: messages('Be brief.') },
    'ann',
  );
  expect(await t.call('POST', `${base}/${prompt_id}/drafts/commit`, { commit_version: '1.0.0' }, 'ann')).toEqual({
    version: '1.0.0',
  });
  await t.call('POST', `${base}/${prompt_id}/drafts/save`, { prompt_draft: { detail: messages('Be kind.') } }, 'bob');
  await t.call('POST', `${base}/${prompt_id}/drafts/commit`, { commit_version: '1.1.0' }, 'bob');
  await t.call('POST', `${base}/${prompt_id}/labels/set`, { label: 'production', version: '1.0.0' }, 'ann');
  const { prompt_commit_infos } = await t.call('POST', `${base}/${prompt_id}/commits/list`, {}, 'ann');
  expect(prompt_commit_infos.map((c: { version: string; labels: string[] }) => [c.version, c.labels])).toEqual([
    ['1.1.0', []],
    ['1.0.0', ['production']],
  ]);
  const one = await t.call('GET', `${base}/${prompt_id}?with_commit_version=1.0.0`, undefined, 'ann');
  expect(one.prompt.prompt_commit.detail.prompt_template.messages[0].content).toBe('Be brief.');
  expect(one.prompt.prompt_draft.detail.prompt_template.messages[0].content).toBe('Be kind.');
});

it('refuses a second prompt with the same key, and a member of another space', async () => {
  const body = { workspace_id: 's1', prompt_key: 'dup.key', prompt_name: 'One' };
  const { prompt_id } = await t.call('POST', base, body, 'ann');
  const again = await t.request({ method: 'POST', url: base, body, as: 'ann' });
  expect([again.status, again.body.msg]).toEqual([409, 'This space already has a prompt with the key dup.key.']);
  const outsider = await t.request({ url: `${base}/${prompt_id}`, as: 'eve' });
  expect(outsider.status).toBe(403);
});
