import { createReadStream, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CozeAPI, NotFoundError, type APIError } from '@coze/api';
import { signUp, type Agent } from '../agent.ts';
import { startStudio, type RunningStudio } from '../helpers.ts';

// The official SDK's files, datasets, documents and images calls against the studio.
let studio: RunningStudio;
let agent: Agent;
let coze: CozeAPI;
let space: string;
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** A file on disk as Node users of the SDK upload it (a read stream). */
function onDisk(name: string, data: string | Buffer) {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'sdk-upload-')), name);
  writeFileSync(file, data);
  return createReadStream(file);
}

async function failure(p: Promise<unknown>): Promise<APIError> {
  try {
    await p;
  } catch (e) {
    return e as APIError;
  }
  throw new Error('the call did not fail');
}

async function processed(datasetId: string, ids: string[]) {
  for (let i = 0; i < 400; i++) {
    const r = await coze.datasets.process(datasetId, { document_ids: ids });
    const list = (r as unknown as { data: { status: number; progress: number }[] }).data;
    if (list.every((d) => d.status !== 0 && d.status !== 4 && d.status !== 5)) return list;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error('still processing');
}

beforeAll(async () => {
  studio = await startStudio();
  agent = (await signUp(studio.url)).agent;
  // Files a token uploads land in its owner's personal space (the SDK names no space).
  const personal = (await agent.post('/api/space/list')).spaces[0].space_id;
  space = (await agent.post('/api/space/create', { name: 'SDK knowledge' })).space_id;
  const token = (
    await agent.post('/api/permission_api/pat/create', {
      name: 'sdk',
      duration_day: '1',
      workspace_permission_list: [
        { workspace_id: space, permissions: ['knowledge.read', 'knowledge.write'] },
        { workspace_id: personal, permissions: ['file.upload'] },
      ],
    })
  ).token;
  coze = new CozeAPI({ token, baseURL: studio.url });
});
afterAll(async () => {
  await studio.close();
});

describe('knowledge through @coze/api', () => {
  it('uploads and retrieves a file', async () => {
    const up = await coze.files.upload({ file: onDisk('hello.txt', 'hello from the SDK') });
    expect(up).toMatchObject({ file_name: 'hello.txt', bytes: 18 });
    expect(typeof up.id).toBe('string');
    const got = await coze.files.retrieve(up.id);
    expect(got).toMatchObject({ id: up.id, file_name: 'hello.txt', bytes: 18 });
    expect((await fetch((got as unknown as { url: string }).url)).status).toBe(200);
    expect(await failure(coze.files.retrieve('123456789'))).toBeInstanceOf(NotFoundError);
  });

  it('creates, lists, updates and deletes datasets, and adds, lists, renames and deletes documents', async () => {
    const { dataset_id } = await coze.datasets.create({
      name: 'From the SDK',
      space_id: space,
      format_type: 0,
      description: 'made by @coze/api',
    });
    const listed = await coze.datasets.list({ space_id: space, name: 'SDK', page_num: 1, page_size: 10 });
    expect(listed.total_count).toBe(1);
    expect(listed.dataset_list[0]).toMatchObject({
      dataset_id,
      name: 'From the SDK',
      description: 'made by @coze/api',
      format_type: 0,
    });
    await coze.datasets.update(dataset_id, { name: 'Renamed by the SDK', description: 'changed' });
    expect((await coze.datasets.list({ space_id: space })).dataset_list[0].name).toBe('Renamed by the SDK');

    const infos = await coze.datasets.documents.create({
      dataset_id,
      document_bases: [
        {
          name: 'faq.md',
          source_info: {
            file_base64: Buffer.from('# FAQ\nThe office opens at nine.').toString('base64'),
            file_type: 'md',
          },
        },
      ],
      chunk_strategy: { chunk_type: 0, max_tokens: 800, remove_extra_spaces: true, remove_urls_emails: false },
    });
    expect(infos).toHaveLength(1);
    expect(infos[0]).toMatchObject({ name: 'faq.md', type: 'md', format_type: 0 });
    const [p] = await processed(dataset_id, [infos[0].document_id]);
    expect(p).toMatchObject({ status: 1, progress: 100, document_name: 'faq.md' });
    const docs = await coze.datasets.documents.list({ dataset_id, page: 1, page_size: 10 });
    expect(docs.total).toBe(1);
    expect(docs.document_infos[0]).toMatchObject({ document_id: infos[0].document_id, slice_count: 1, status: 1 });
    await coze.datasets.documents.update({ document_id: infos[0].document_id, document_name: 'office-faq.md' });
    expect((await coze.datasets.documents.list({ dataset_id })).document_infos[0].name).toBe('office-faq.md');
    await coze.datasets.documents.delete({ document_ids: [infos[0].document_id] });
    expect((await coze.datasets.documents.list({ dataset_id })).total).toBe(0);
    await coze.datasets.delete(dataset_id);
    expect((await coze.datasets.list({ space_id: space })).total_count).toBe(0);
    const gone = await failure(coze.datasets.update(dataset_id, { name: 'x' }));
    expect(gone).toBeInstanceOf(NotFoundError);
  });

  it('keeps images with captions in an image dataset', async () => {
    const { dataset_id } = await coze.datasets.create({ name: 'Pictures', space_id: space, format_type: 2 });
    const up = await coze.files.upload({ file: onDisk('dot.png', PNG) });
    const [doc] = await coze.datasets.documents.create({
      dataset_id,
      document_bases: [{ name: 'dot.png', source_info: { source_file_id: up.id, document_source: 5 } }],
      format_type: 2,
    });
    await processed(dataset_id, [doc.document_id]);
    let images = await coze.datasets.images.list(dataset_id, { page_num: 1, page_size: 10 });
    expect(images.total_count).toBe(1);
    expect(images.photo_infos[0]).toMatchObject({ document_id: doc.document_id, caption: '', type: 'png' });
    await coze.datasets.images.update(dataset_id, doc.document_id, { caption: 'A single red dot on white' });
    await processed(dataset_id, [doc.document_id]);
    images = await coze.datasets.images.list(dataset_id, { keyword: 'red dot', has_caption: true });
    expect(images.photo_infos.map((i) => i.caption)).toEqual(['A single red dot on white']);
    const found = await agent.post('/api/knowledge/retrieve', {
      space_id: space,
      dataset_ids: [dataset_id],
      query: 'red dot',
    });
    expect(found.slices[0]).toMatchObject({ content: 'A single red dot on white', document_id: doc.document_id });
    expect(found.slices[0].url).toContain('/api/files/content/');
  });

  it('refuses a token without the permission, and an unknown dataset, as the SDK expects', async () => {
    const weak = (
      await agent.post('/api/permission_api/pat/create', {
        name: 'weak',
        duration_day: '1',
        workspace_permission_list: [{ workspace_id: space, permissions: ['knowledge.read'] }],
      })
    ).token;
    const c = new CozeAPI({ token: weak, baseURL: studio.url });
    const e = await failure(c.datasets.create({ name: 'nope', space_id: space, format_type: 0 }));
    expect(e.status).toBe(403);
    expect(e.msg).toContain("lacks the permission 'knowledge.write'");
    expect((await c.datasets.list({ space_id: space })).dataset_list.map((d) => d.name)).toContain('Pictures');
    expect(await failure(coze.datasets.documents.list({ dataset_id: '999999' }))).toBeInstanceOf(NotFoundError);
  });
});
