import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type Agent } from '../agent.ts';
import path from 'node:path';
import { ROOT, startStudio, type RunningStudio } from '../helpers.ts';
import { greetingCanvas, link, node, ref } from '../workflow-kit.ts';

// The marketplace: listing, review, the public list and search, duplicating an independent copy with its
// sub-workflows, favorites, templates, and an admin area only administrators reach.
let studio: RunningStudio;
let admin: Agent;
let author: Agent;
let reader: Agent;
let authorSpace: string;
let readerSpace: string;
let parent: string;

beforeAll(async () => {
  studio = await startStudio();
  admin = (await signUp(studio.url, 'admin')).agent; // the first user is the platform administrator
  author = (await signUp(studio.url, 'author')).agent;
  reader = (await signUp(studio.url, 'reader')).agent;
  authorSpace = (await author.post('/api/space/create', { name: 'Author' })).space_id;
  readerSpace = (await reader.post('/api/space/create', { name: 'Reader' })).space_id;
  const wf = (p: string, body: Record<string, unknown>) =>
    author.post(`/api/workflow_api/${p}`, { space_id: authorSpace, ...body });
  const { workflow_id: child } = await wf('create', { name: 'greeting core' });
  await wf('save', { workflow_id: child, schema: greetingCanvas() });
  parent = (await wf('create', { name: 'greeting service' })).workflow_id;
  await wf('save', {
    workflow_id: parent,
    schema: {
      nodes: [
        node('start', '1', { outputs: [{ name: 'who', type: 'string' }] }),
        node('call', '9', {
          inputs: [ref('name', 'start', ['who'])],
          settings: { workflow_id: child, version: 'draft' },
        }),
        node('end', '2', { inputs: [ref('message', 'call', ['message'])] }),
      ],
      links: [link('start', 'call'), link('call', 'end')],
    },
  });
  await admin.post('/api/marketplace/admin/category/save', {
    categories: [
      { name: 'Productivity', name_zh: '效率' },
      { name: 'Fun', name_zh: '娱乐' },
    ],
  });
});
afterAll(() => studio?.close());

const search = (who: Agent, keyword: string) =>
  who.get(`/api/marketplace/product/search?keyword=${encodeURIComponent(keyword)}`);

describe('the marketplace', () => {
  it('reviews a listing before anyone sees it, then lets another user find, favorite and duplicate it as an independent copy', async () => {
    const categories = (await author.get('/api/marketplace/product/category/list')).categories;
    expect(categories.map((c: { name: string }) => c.name)).toEqual(['Productivity', 'Fun']);
    const { product_id } = await author.post('/api/marketplace/product/listing', {
      space_id: authorSpace,
      entity_type: 'workflow',
      entity_id: parent,
      name: 'Greeting service',
      description: 'Greets anyone by name.',
      readme: '# Greeting\nGive it a name.',
      category_id: categories[0].id,
      tags: ['hello'],
      version_name: '1.0.0',
    });
    // Pending: not public, but its author sees it with its status.
    expect((await search(reader, 'greeting')).products).toEqual([]);
    expect((await reader.request('GET', `/api/marketplace/product/detail?product_id=${product_id}`)).status).toBe(404);
    expect((await author.get('/api/marketplace/product/user_product/list')).products[0]).toMatchObject({
      product_id,
      status: 1,
      live_version: '',
    });
    // Only administrators review.
    expect((await author.request('POST', '/api/marketplace/admin/listing/approve', { product_id })).status).toBe(403);
    expect((await reader.request('GET', '/api/marketplace/admin/listing/list')).status).toBe(403);
    expect(
      (await admin.get('/api/marketplace/admin/listing/list')).products.map(
        (p: { product_id: string }) => p.product_id,
      ),
    ).toContain(product_id);
    await admin.post('/api/marketplace/admin/listing/approve', { product_id });

    // Public now: search, category, suggestions, detail with readme and what a copy brings along.
    const found = await search(reader, 'GREETS anyone');
    expect(found.products).toEqual([
      expect.objectContaining({
        product_id,
        name: 'Greeting service',
        entity_type: 'workflow',
        live_version: '1.0.0',
        author: expect.objectContaining({ name: 'author' }),
      }),
    ]);
    expect((await reader.get(`/api/marketplace/product/list?category_id=${categories[1].id}`)).products).toEqual([]);
    expect((await reader.get('/api/marketplace/product/search/suggest?keyword=greet')).suggestions).toEqual([
      'Greeting service',
    ]);
    const detail = await reader.get(`/api/marketplace/product/detail?product_id=${product_id}`);
    expect(detail.product).toMatchObject({
      readme: '# Greeting\nGive it a name.',
      stats: { views: 1, duplicates: 0, favorites: 0 },
    });
    expect(detail.versions.map((v: { version_name: string }) => v.version_name)).toEqual(['1.0.0']);
    expect(detail.contents).toEqual([
      { kind: 'workflow', name: 'greeting service' },
      { kind: 'workflow', name: 'greeting core' },
    ]);
    await reader.post('/api/marketplace/product/favorite', { product_id });
    expect(
      (await reader.get('/api/marketplace/product/favorite/list')).products.map(
        (p: { product_id: string }) => p.product_id,
      ),
    ).toEqual([product_id]);

    // Duplicate into the reader's space: it runs, and changing the source later does not change it.
    const dup = await reader.post('/api/marketplace/product/duplicate', { product_id, space_id: readerSpace });
    const run = await reader.post('/api/workflow_api/test_run', {
      space_id: readerSpace,
      workflow_id: dup.entity_id,
      input: { who: 'Grace' },
      run_mode: 0,
    });
    expect(run.execute_status, run.reason).toBe(2);
    expect(JSON.parse(run.output)).toEqual({ message: 'Hello, Grace!' });
    const lib = (await reader.post('/api/resource/library_resource_list', { space_id: readerSpace })).resource_list
      .map((x: { name: string }) => x.name)
      .sort();
    expect(lib).toEqual(['greeting core', 'greeting service']);
    await author.post('/api/workflow_api/save', {
      space_id: authorSpace,
      workflow_id: parent,
      schema: { nodes: [node('start', '1'), node('end', '2')], links: [link('start', 'end')] },
    });
    const again = await reader.post('/api/workflow_api/test_run', {
      space_id: readerSpace,
      workflow_id: dup.entity_id,
      input: { who: 'Grace' },
      run_mode: 0,
    });
    expect(JSON.parse(again.output)).toEqual({ message: 'Hello, Grace!' });
    expect((await reader.get(`/api/marketplace/product/detail?product_id=${product_id}`)).product.stats).toMatchObject({
      duplicates: 1,
      favorites: 1,
    });
    // Not into a space that is not yours.
    expect(
      (await reader.request('POST', '/api/marketplace/product/duplicate', { product_id, space_id: authorSpace }))
        .status,
    ).toBe(403);
  });

  it('keeps the live version while a new one is reviewed, shows a rejection reason to its author only, and unlists', async () => {
    const { product_id } = (await author.get('/api/marketplace/product/user_product/list')).products[0];
    expect(
      (
        await author.request('POST', '/api/marketplace/product/listing', {
          space_id: authorSpace,
          entity_type: 'workflow',
          entity_id: parent,
          name: 'Greeting service',
          description: 'Greets.',
          version_name: '1.0.0',
        })
      ).body.msg,
    ).toContain('already live');
    await author.post('/api/marketplace/product/listing', {
      space_id: authorSpace,
      entity_type: 'workflow',
      entity_id: parent,
      name: 'Greeting service 2',
      description: 'Greets, better.',
      version_name: '2.0.0',
    });
    await admin.post('/api/marketplace/admin/reject_listing', {
      product_id,
      reason: 'Version 2 answers nothing: its End has no output.',
    });
    // Readers still see and get version 1.0.0.
    const seen = (await search(reader, 'greeting')).products[0];
    expect(seen).toMatchObject({
      product_id,
      live_version: '1.0.0',
      name: 'Greeting service',
      description: 'Greets anyone by name.',
    });
    expect(seen.status).toBeUndefined();
    expect((await author.get('/api/marketplace/product/user_product/list')).products[0]).toMatchObject({
      status: 3,
      reject_reason: 'Version 2 answers nothing: its End has no output.',
      version_name: '2.0.0',
    });
    expect(JSON.stringify(await reader.get(`/api/marketplace/product/detail?product_id=${product_id}`))).not.toContain(
      'answers nothing',
    );
    // The audit log names both decisions.
    const log = (await admin.get('/api/marketplace/admin/audit_log')).entries;
    expect(log.slice(0, 2).map((e: { action: string }) => e.action)).toEqual(['reject', 'approve']);
    expect(log[0].detail.reason).toContain('answers nothing');
    // Unlisted: gone from the public, still the author's.
    await author.post('/api/marketplace/product/unlisting', { product_id });
    expect((await search(reader, 'greeting')).products).toEqual([]);
    expect(
      (await reader.request('POST', '/api/marketplace/product/duplicate', { product_id, space_id: readerSpace }))
        .status,
    ).toBe(404);
    expect((await author.get(`/api/marketplace/product/detail?product_id=${product_id}`)).product.listed).toBe(false);
  });

  it('lists templates, copied with copy_wk_template; kinds that cannot leave their space are refused', async () => {
    const { workflow_id } = await author.post('/api/workflow_api/create', {
      space_id: authorSpace,
      name: 'invoice template',
    });
    const { product_id } = await author.post('/api/marketplace/product/listing', {
      space_id: authorSpace,
      entity_type: 'workflow',
      entity_id: workflow_id,
      name: 'Invoice template',
      description: 'Starts an invoice flow.',
      is_template: true,
    });
    await admin.post('/api/marketplace/admin/listing/approve', { product_id });
    await admin.post('/api/marketplace/admin/featured/set', { product_id, featured: true });
    const templates = (await reader.get('/api/workflow_api/example_workflow_list')).products;
    expect(templates).toEqual([expect.objectContaining({ product_id, is_template: true, featured: true })]);
    const copy = await reader.post('/api/workflow_api/copy_wk_template', {
      space_id: readerSpace,
      template_id: product_id,
    });
    expect(
      (await reader.post('/api/workflow_api/canvas', { space_id: readerSpace, workflow_id: copy.workflow_id })).workflow
        .name,
    ).toBe('invoice template');
    const { dataset_id } = await author.post('/api/knowledge/create', {
      space_id: authorSpace,
      name: 'docs',
      format_type: 0,
    });
    const refused = await author.request('POST', '/api/marketplace/product/listing', {
      space_id: authorSpace,
      entity_type: 'knowledge',
      entity_id: dataset_id,
      name: 'Docs',
      description: 'docs',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toContain('cannot leave their space');
  });

  it("lists a kind no studio code names (a fixture extension's notes), and hides its products when the extension is off", async () => {
    const KINDS = path.join(ROOT, 'tests/fixtures/kinds');
    const s1 = await startStudio({ extensionsDir: KINDS, keepDatabase: true });
    const dataDir = s1.dataDir;
    const a = (await signUp(s1.url, 'boss')).agent;
    const space = (await a.post('/api/space/create', { name: 'Notes' })).space_id;
    const { id } = await a.post('/api/fixture-notes/create', { space_id: space, name: 'shopping list' });
    const { product_id } = await a.post('/api/marketplace/product/listing', {
      space_id: space,
      entity_type: 'note',
      entity_id: id,
      name: 'Shopping list',
      description: 'A note to copy.',
    });
    await a.post('/api/marketplace/admin/listing/approve', { product_id });
    expect(
      (await a.get('/api/marketplace/product/search?keyword=shopping')).products.map(
        (p: { entity_type: string }) => p.entity_type,
      ),
    ).toEqual(['note']);
    const other = (await a.post('/api/space/create', { name: 'Copies' })).space_id;
    const dup = await a.post('/api/marketplace/product/duplicate', { product_id, space_id: other });
    expect((await a.post('/api/resource/library_resource_list', { space_id: other })).resource_list).toEqual([
      expect.objectContaining({ res_type: 'note', res_id: dup.entity_id, name: 'shopping list' }),
    ]);
    await s1.server.close();
    // The same data, the notes extension off: its products leave the public lists.
    const s2 = await startStudio({
      extensionsDir: KINDS,
      keepData: dataDir,
      env: { TESSERA_DISABLE: 'fixture-notes', ...(s1.databaseUrl ? { DATABASE_URL: s1.databaseUrl } : {}) },
    });
    try {
      a.base = s2.url;
      expect((await a.get('/api/marketplace/product/list')).products).toEqual([]);
      expect(
        (await a.request('POST', '/api/marketplace/product/duplicate', { product_id, space_id: other })).status,
      ).toBe(400);
    } finally {
      await s2.close();
      await s1.close().catch(() => undefined);
    }
  });

  it('curates topics (previewed, then live), recommendations and the landing banner; only administrators do', async () => {
    const { workflow_id } = await author.post('/api/workflow_api/create', {
      space_id: authorSpace,
      name: 'curated flow',
    });
    await author.post('/api/workflow_api/save', { space_id: authorSpace, workflow_id, schema: greetingCanvas() });
    const live = (
      await author.post('/api/marketplace/product/listing', {
        space_id: authorSpace,
        entity_type: 'workflow',
        entity_id: workflow_id,
        name: 'Curated flow',
        description: 'A flow worth a topic.',
        version_name: '1.0.0',
      })
    ).product_id;
    const { workflow_id: other } = await author.post('/api/workflow_api/create', {
      space_id: authorSpace,
      name: 'pending flow',
    });
    await author.post('/api/workflow_api/save', {
      space_id: authorSpace,
      workflow_id: other,
      schema: greetingCanvas(),
    });
    const pending = (
      await author.post('/api/marketplace/product/listing', {
        space_id: authorSpace,
        entity_type: 'workflow',
        entity_id: other,
        name: 'Pending flow',
        description: 'Not reviewed.',
        version_name: '1.0.0',
      })
    ).product_id;
    await admin.post('/api/marketplace/admin/listing/approve', { product_id: live });

    // Only administrators curate; only products people can see are chosen.
    expect((await author.request('POST', '/api/marketplace/admin/topic/set', { title: 'Mine' })).status).toBe(403);
    const refused = await admin.request('POST', '/api/marketplace/admin/topic/set', {
      title: 'Starters',
      product_ids: [live, pending],
    });
    expect([refused.status, refused.body.msg]).toEqual([
      400,
      `Only products people can see are chosen; not ${pending} (not approved, unlisted or unknown).`,
    ]);
    const { topic_id } = await admin.post('/api/marketplace/admin/topic/set', {
      title: 'Starters',
      title_zh: '入门',
      description: 'Flows to begin with.',
      product_ids: [live],
    });
    // A draft: not on the pages, not by its id; with the preview id it is.
    expect((await reader.get('/api/marketplace/topic/get_current')).topics).toEqual([]);
    expect((await reader.request('GET', `/api/marketplace/topic/detail?topic_id=${topic_id}`)).status).toBe(404);
    const { preview_id } = await admin.post('/api/marketplace/admin/topic/get_preview_id', { topic_id });
    const preview = await reader.get(`/api/marketplace/topic/detail?topic_id=${topic_id}&preview_id=${preview_id}`);
    expect(preview).toMatchObject({
      preview: true,
      topic: { title: 'Starters', products: [expect.objectContaining({ product_id: live })] },
    });
    await admin.post('/api/marketplace/admin/topic/update_status', { topic_id, status: 1 });
    expect((await reader.get('/api/marketplace/topic/get_current')).topics).toEqual([
      expect.objectContaining({
        topic_id,
        title: 'Starters',
        title_zh: '入门',
        products: [expect.objectContaining({ product_id: live, name: 'Curated flow' })],
      }),
    ]);

    // Recommendations per page and the landing banner.
    expect(
      (
        await admin.request('POST', '/api/marketplace/admin/recommend_config/set', {
          scene: 'home',
          product_ids: [pending],
        })
      ).status,
    ).toBe(400);
    await admin.post('/api/marketplace/admin/recommend_config/set', { scene: 'home', product_ids: [live] });
    await admin.post('/api/marketplace/admin/landing_config/set', {
      title: 'Find what others built',
      title_zh: '发现大家的作品',
      subtitle: 'Copy it into your space.',
    });
    expect(await reader.get('/api/marketplace/landing_info?scene=home')).toMatchObject({
      landing: { title: 'Find what others built', title_zh: '发现大家的作品' },
      recommended: [expect.objectContaining({ product_id: live })],
    });
    expect((await reader.get('/api/marketplace/landing_info?scene=explore')).recommended).toEqual([]);
    expect(
      (await admin.request('POST', '/api/marketplace/admin/landing_config/set', { cover: 'javascript:alert(1)' }))
        .status,
    ).toBe(400);
    // Unlisted products leave the topic and the recommendations by themselves.
    await author.post('/api/marketplace/product/unlisting', { product_id: live });
    expect((await reader.get('/api/marketplace/topic/get_current')).topics).toEqual([]);
    expect((await reader.get('/api/marketplace/landing_info?scene=home')).recommended).toEqual([]);
    const actions = (await admin.get('/api/marketplace/admin/audit_log')).entries.map(
      (e: { action: string }) => e.action,
    );
    expect(actions.slice(0, 5)).toEqual(['landing.set', 'recommend.set', 'topic.live', 'topic.create', 'approve']);
  });
});
