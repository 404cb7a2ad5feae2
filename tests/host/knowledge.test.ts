import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { signUp, type Agent } from '../agent.ts';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { completed, debugChat } from '../bots-kit.ts';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { settled } from '../knowledge-kit.ts';
import { link, lit, node, ref, unique } from '../workflow-kit.ts';

// Knowledge across extensions: files uploaded, documents processed in the background, slices edited,
// retrieval by full text, vectors and both, web pages through the outbound guard, and a restart.
let studio: RunningStudio;
let llm: FakeLlm;
let agent: Agent;
let space: string;
let embedModel: string;
let site: Server;
let siteUrl: string;

const PAGE = `<!doctype html><html><head><title>Leave policy</title></head><body>
<nav><a href="/">Home</a> | <a href="/jobs">Jobs</a> | <a href="/about">About us</a></nav>
<header>Acme Intranet</header>
<main><article><h1>Annual leave</h1>
<p>Every employee has twenty-five days of annual leave a year. Leave is requested in the HR portal at least two weeks ahead.</p>
<p>Unused leave days carry over until the end of March of the next year; after that they lapse. Ask your manager for exceptions.</p>
<h2>Sick days</h2><p>Sick days are not taken from annual leave. From the third day a doctor's note is needed.</p></article></main>
<footer>© Acme 2026 · Cookie settings · Imprint</footer><script>track()</script></body></html>`;

beforeAll(async () => {
  llm = await startFakeLlm();
  site = createHttpServer((req, res) => {
    if (req.url === '/leave') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  studio = await startStudio();
  agent = (await signUp(studio.url)).agent;
  space = (await agent.post('/api/space/create', { name: 'Knowledge' })).space_id;
  const cred = await agent.post('/api/model_manage/v1/platform/credential/create', {
    provider: 'openai-compatible',
    name: 'fake-embed',
    base_url: `${llm.url}/v1`,
    api_key: 'sk-fake',
  });
  embedModel = (
    await agent.post('/api/model_manage/v1/platform/model/create', {
      credential_id: cred.credential_id,
      model_name: 'concept-embed-256',
      kind: 'embedding',
    })
  ).model_id;
});
afterAll(async () => {
  await studio?.close();
  await llm?.close();
  site?.close();
});

describe('knowledge', () => {
  it('processes an uploaded file into slices in the background, finds them by full text with no model at all, and keeps slice edits indexed', async () => {
    const text = [
      '# Returns',
      'Items can be returned within 30 days of delivery for a full refund.',
      '',
      '# Shipping',
      'Orders ship from the Rotterdam warehouse within two working days.',
      '',
      '# Warranty',
      'Electronics carry a two-year warranty; batteries one year.',
    ].join('\n');
    const [file] = (await agent.upload(`/api/files/upload?space_id=${space}`, [{ name: 'policies.md', data: text }]))
      .files;
    expect(file).toMatchObject({ ext: 'md', kind: 4 });
    const { dataset_id } = await agent.post('/api/knowledge/create', {
      space_id: space,
      name: 'Shop policies',
      format_type: 0,
    });
    const created = await agent.post('/api/knowledge/document/create', {
      space_id: space,
      dataset_id,
      document_bases: [{ file_id: file.file_id ?? file.id }],
      chunk_strategy: { chunk_type: 2, max_level: 2, save_title: true },
    });
    const doc = created.document_infos[0];
    expect(doc).toMatchObject({ name: 'policies.md', status: 0, type: 'md' });
    const [done] = await settled(agent, space, [doc.document_id]);
    expect(done).toMatchObject({ status: 1, progress: 100 });
    const { slices } = await agent.post('/api/knowledge/slice/list', { space_id: space, document_id: doc.document_id });
    expect(slices.map((s: { content: string }) => s.content)).toEqual([
      'Returns\nItems can be returned within 30 days of delivery for a full refund.',
      'Shipping\nOrders ship from the Rotterdam warehouse within two working days.',
      'Warranty\nElectronics carry a two-year warranty; batteries one year.',
    ]);

    const ask = (query: string, extra = {}) =>
      agent.post('/api/knowledge/retrieve', { space_id: space, dataset_ids: [dataset_id], query, ...extra });
    const r = await ask('Which warehouse do orders ship from?');
    expect(r.mode).toBe('fulltext');
    expect(r.note).toContain('full-text search only');
    expect(r.slices[0].content).toContain('Rotterdam');
    expect(r.slices[0].found_by).toEqual({ fulltext: 1 });

    // Edit: the old words no longer find it, the new ones do.
    const shipping = slices[1];
    await agent.post('/api/knowledge/slice/update', {
      space_id: space,
      slice_id: shipping.slice_id,
      raw_text: 'Orders leave the Hamburg depot within two working days.',
    });
    expect((await ask('Rotterdam')).slices).toEqual([]);
    expect((await ask('Hamburg depot')).slices[0].slice_id).toBe(shipping.slice_id);
    // Disabled slices are not found; enabled again, they are.
    await agent.post('/api/knowledge/slice/update', { space_id: space, slice_id: shipping.slice_id, status: 9 });
    expect((await ask('Hamburg depot')).slices).toEqual([]);
    await agent.post('/api/knowledge/slice/update', { space_id: space, slice_id: shipping.slice_id, status: 1 });
    expect((await ask('Hamburg depot')).slices).toHaveLength(1);
    // Added at the start, deleted again.
    const { slice_id } = await agent.post('/api/knowledge/slice/create', {
      space_id: space,
      document_id: doc.document_id,
      raw_text: 'Gift cards never expire.',
      sequence: 1,
    });
    const after = (await agent.post('/api/knowledge/slice/list', { space_id: space, document_id: doc.document_id }))
      .slices;
    expect(after.map((s: { sequence: string }) => s.sequence)).toEqual(['1', '2', '3', '4']);
    expect(after[0].slice_id).toBe(slice_id);
    expect((await ask('gift cards expire')).slices[0].slice_id).toBe(slice_id);
    await agent.post('/api/knowledge/slice/delete', { space_id: space, slice_ids: [slice_id] });
    expect((await ask('gift cards expire')).slices).toEqual([]);
    // Hit counts and the dataset's counts.
    const detail = (await agent.post('/api/knowledge/detail', { space_id: space, dataset_ids: [dataset_id] }))
      .dataset_details[dataset_id];
    expect(detail).toMatchObject({ doc_count: 1, slice_count: 3, format_type: 0 });
    // Resegment with another strategy.
    await agent.post('/api/knowledge/document/resegment', {
      space_id: space,
      dataset_id,
      document_ids: [doc.document_id],
      chunk_strategy: { chunk_type: 1, separator: '#', max_tokens: 800 },
    });
    await settled(agent, space, [doc.document_id]);
    expect(
      (await agent.post('/api/knowledge/slice/list', { space_id: space, document_id: doc.document_id })).slices.map(
        (s: { content: string }) => s.content.split('\n')[0],
      ),
    ).toEqual(['Returns', 'Shipping', 'Warranty']);
  });

  it('keeps a table document as columns and rows, searched by its semantic columns', async () => {
    const csv =
      'question,answer,owner\n"How do I reset my badge?","Go to reception, floor 0",Facilities\n"Where is the printer?","Next to the kitchen",IT\n';
    const [file] = (await agent.upload(`/api/files/upload?space_id=${space}`, [{ name: 'faq.csv', data: csv }])).files;
    const { dataset_id } = await agent.post('/api/knowledge/create', {
      space_id: space,
      name: 'FAQ table',
      format_type: 1,
    });
    const doc = (
      await agent.post('/api/knowledge/document/create', {
        space_id: space,
        dataset_id,
        document_bases: [{ file_id: file.id }],
      })
    ).document_infos[0];
    await settled(agent, space, [doc.document_id]);
    const listed = (await agent.post('/api/knowledge/document/list', { space_id: space, dataset_id }))
      .document_infos[0];
    expect(
      listed.table_meta.map((c: { column_name: string; is_semantic: boolean }) => [c.column_name, c.is_semantic]),
    ).toEqual([
      ['question', true],
      ['answer', false],
      ['owner', false],
    ]);
    const slices = (await agent.post('/api/knowledge/slice/list', { space_id: space, document_id: doc.document_id }))
      .slices;
    expect(JSON.parse(slices[0].content)).toEqual({
      question: 'How do I reset my badge?',
      answer: 'Go to reception, floor 0',
      owner: 'Facilities',
    });
    const ask = async (q: string) =>
      (await agent.post('/api/knowledge/retrieve', { space_id: space, dataset_ids: [dataset_id], query: q })).slices;
    expect((await ask('reset badge')).length).toBe(1);
    // The answer column is not searched until it is marked semantic.
    expect(await ask('kitchen')).toEqual([]);
    await agent.post('/api/knowledge/document/update', {
      space_id: space,
      document_id: doc.document_id,
      table_meta: listed.table_meta.map((c: { column_name: string }) => ({
        ...c,
        is_semantic: c.column_name !== 'owner',
      })),
    });
    await settled(agent, space, [doc.document_id]);
    expect(JSON.parse((await ask('kitchen'))[0].content).question).toBe('Where is the printer?');

    // A workbook: the second sheet, whose header is on its second row.
    const book = new ExcelJS.Workbook();
    book.addWorksheet('Notes').addRows([['ignore me']]);
    book.addWorksheet('Rooms').addRows([['Room list 2026'], ['room', 'seats'], ['Orion', 12], ['Vega', 4]]);
    const [xlsx] = (
      await agent.upload(`/api/files/upload?space_id=${space}`, [
        { name: 'rooms.xlsx', data: Buffer.from(await book.xlsx.writeBuffer()) },
      ])
    ).files;
    const preview = await agent.post('/api/knowledge/document/preview', {
      space_id: space,
      dataset_id,
      document: { file_id: xlsx.id, table_sheet: { sheet_id: 1, header_line_idx: 1 } },
    });
    expect(preview.sheets.map((x: { name: string }) => x.name)).toEqual(['Notes', 'Rooms']);
    expect(preview.table_meta.map((c: { column_name: string }) => c.column_name)).toEqual(['room', 'seats']);
    expect(preview.chunks.map((c: { content: string }) => JSON.parse(c.content))).toEqual([
      { room: 'Orion', seats: '12' },
      { room: 'Vega', seats: '4' },
    ]);
    const rooms = (
      await agent.post('/api/knowledge/document/create', {
        space_id: space,
        dataset_id,
        document_bases: [{ file_id: xlsx.id, table_sheet: { sheet_id: 1, header_line_idx: 1 } }],
      })
    ).document_infos[0];
    await settled(agent, space, [rooms.document_id]);
    expect(JSON.parse((await ask('Orion'))[0].content)).toEqual({ room: 'Orion', seats: '12' });
  });

  it('previews chunks before saving, and a corrupt file ends as a failed document with its reason, not a stuck one', async () => {
    const { dataset_id } = await agent.post('/api/knowledge/create', {
      space_id: space,
      name: 'Previews',
      format_type: 0,
    });
    const text = Array.from({ length: 40 }, (_, i) => `Sentence number ${i + 1} talks about topic ${i % 5}.`).join(' ');
    const p = await agent.post('/api/knowledge/document/preview', {
      space_id: space,
      dataset_id,
      document: { custom_content: text },
      chunk_strategy: { chunk_type: 1, separator: '.', max_tokens: 100 },
    });
    expect(p.total).toBe(40);
    expect(p.chunks[0]).toMatchObject({ sequence: 1, content: 'Sentence number 1 talks about topic 0' });
    const auto = await agent.post('/api/knowledge/document/preview', {
      space_id: space,
      dataset_id,
      document: { custom_content: text },
      chunk_strategy: { chunk_type: 0, max_tokens: 100, overlap: 20 },
    });
    expect(auto.total).toBeGreaterThan(3);
    expect(auto.chunks.every((c: { content: string }) => c.content.length <= 450)).toBe(true);
    // Overlap: a chunk starts with the end of the one before.
    expect(auto.chunks[1].content.startsWith(auto.chunks[0].content.split('. ').at(-1)!.trim().slice(0, 10))).toBe(
      true,
    );

    const broken = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from('garbage that is no PDF at all '.repeat(20))]);
    const [file] = (await agent.upload(`/api/files/upload?space_id=${space}`, [{ name: 'broken.pdf', data: broken }]))
      .files;
    const { document_infos } = await agent.post('/api/knowledge/document/create', {
      space_id: space,
      dataset_id,
      document_bases: [{ file_id: file.id }],
    });
    const [failed] = await settled(agent, space, [document_infos[0].document_id]);
    expect(failed.status).toBe(9);
    expect(failed.status_descript).toMatch(/^The PDF cannot be read: /);
    // A type the dataset does not take is refused up front.
    const [png] = (
      await agent.upload(`/api/files/upload?space_id=${space}`, [
        {
          name: 'x.png',
          data: Buffer.from(
            'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
            'base64',
          ),
        },
      ])
    ).files;
    const refused = await agent.request('POST', '/api/knowledge/document/create', {
      space_id: space,
      dataset_id,
      document_bases: [{ file_id: png.id }],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toContain('this knowledge base takes PDF, DOCX');
  });

  it('adds a web page through the outbound guard: refused on a private address, its main content kept when allowed', async () => {
    const { dataset_id } = await agent.post('/api/knowledge/create', {
      space_id: space,
      name: 'Intranet',
      format_type: 0,
    });
    const { document_infos } = await agent.post('/api/knowledge/document/create', {
      space_id: space,
      dataset_id,
      document_bases: [{ web_url: `${siteUrl}/leave` }],
    });
    const [refused] = await settled(agent, space, [document_infos[0].document_id]);
    expect(refused.status).toBe(9);
    expect(refused.status_descript).toMatch(/private|loopback/i);

    const allowed = await startStudio({ env: { TESSERA_OUTBOUND_ALLOW: '127.0.0.1' } });
    try {
      const a = (await signUp(allowed.url)).agent;
      const s = (await a.post('/api/space/create', { name: 'Web' })).space_id;
      const d = (await a.post('/api/knowledge/create', { space_id: s, name: 'Intranet', format_type: 0 })).dataset_id;
      const preview = await a.post('/api/knowledge/document/preview', {
        space_id: s,
        dataset_id: d,
        document: { web_url: `${siteUrl}/leave` },
        chunk_strategy: { chunk_type: 0, max_tokens: 800 },
      });
      const all = preview.chunks.map((c: { content: string }) => c.content).join('\n');
      expect(all).toContain('twenty-five days of annual leave');
      expect(all).toContain("doctor's note");
      for (const noise of ['Home', 'Jobs', 'Cookie settings', 'track()', 'Acme Intranet'])
        expect(all).not.toContain(noise);
      const doc = (
        await a.post('/api/knowledge/document/create', {
          space_id: s,
          dataset_id: d,
          document_bases: [{ web_url: `${siteUrl}/leave`, update_rule: { update_type: 1, update_interval: 7 } }],
        })
      ).document_infos[0];
      expect((await settled(a, s, [doc.document_id]))[0].status).toBe(1);
      const listed = (await a.post('/api/knowledge/document/list', { space_id: s, dataset_id: d })).document_infos[0];
      expect(listed).toMatchObject({ web_url: `${siteUrl}/leave`, source_type: 1, update_type: 1, update_interval: 7 });
      const hit = (
        await a.post('/api/knowledge/retrieve', {
          space_id: s,
          dataset_ids: [d],
          query: 'unused leave days carry over',
        })
      ).slices[0];
      expect(hit.url).toBe(`${siteUrl}/leave`);
      await a.post('/api/knowledge/document/refresh_document', { space_id: s, document_id: doc.document_id });
      expect((await settled(a, s, [doc.document_id]))[0].status).toBe(1);
    } finally {
      await allowed.close();
    }
  });

  it('ranks a labelled set: hybrid recall@5 beats full text and vectors alone', async () => {
    const { dataset_id } = await agent.post('/api/knowledge/create', {
      space_id: space,
      name: 'Handbook',
      format_type: 0,
      embedding_model_id: embedModel,
    });
    const docs = [
      'Company cars are assigned by the fleet team; book a vehicle two days ahead.',
      'Expense claims: submit receipts within 30 days to get your money back through the finance portal.',
      'Each new hire receives a laptop on the first day; report broken hardware to IT.',
      'Vacation requests go to your manager; the yearly allowance is 25 days.',
      'Wages are transferred on the 25th of every month.',
      'Forgot your passphrase? Reset it on the self-service page.',
      'The headquarters building opens at 7:00 and closes at 22:00.',
      'If you feel ill, tell your team and see a physician when needed.',
      'Business journeys need approval from your director before booking.',
      'Parcels for employees are not accepted at the reception.',
      'Error E-4471 means the badge reader lost its network connection.',
      'Form HR-2093 is used to change your bank account.',
      'Project code PX-88 covers the warehouse automation programme.',
      'Meeting room Orion seats twelve people and has a video wall.',
      'The canteen serves lunch between 11:30 and 14:00.',
    ];
    const created = await agent.post('/api/knowledge/document/create', {
      space_id: space,
      dataset_id,
      document_bases: docs.map((t, i) => ({ name: `doc${i}`, custom_content: t })),
    });
    await settled(
      agent,
      space,
      created.document_infos.map((d: { document_id: string }) => d.document_id),
    );
    const nameOf = new Map(
      created.document_infos.map((d: { document_id: string; name: string }) => [d.document_id, d.name]),
    );
    const labelled: [string, string][] = [
      ['How do I reserve an automobile?', 'doc0'],
      ['reimbursement of receipts', 'doc1'],
      ['when do I get my notebook computer', 'doc2'],
      ['holiday days per year', 'doc3'],
      ['salary payment date', 'doc4'],
      ['I lost my password', 'doc5'],
      ['office opening hours', 'doc6'],
      ['what is E-4471', 'doc10'],
      ['HR-2093', 'doc11'],
      ['PX-88', 'doc12'],
      ['Orion meeting room size', 'doc13'],
      ['lunch canteen times', 'doc14'],
    ];
    const recall: Record<string, number> = {};
    for (const [mode, search_type] of [
      ['fulltext', 20],
      ['semantic', 0],
      ['hybrid', 1],
    ] as const) {
      let found = 0;
      for (const [q, want] of labelled) {
        const r = await agent.post('/api/knowledge/retrieve', {
          space_id: space,
          dataset_ids: [dataset_id],
          query: q,
          top_k: 5,
          search_type,
        });
        expect(r.mode).toBe(mode);
        if (r.slices.some((s: { document_id: string }) => nameOf.get(s.document_id) === want)) found++;
      }
      recall[mode] = found / labelled.length;
    }
    console.log(
      `knowledge recall@5 on ${labelled.length} labelled questions: full text ${recall.fulltext.toFixed(2)}, vectors ${recall.semantic.toFixed(2)}, hybrid ${recall.hybrid.toFixed(2)}`,
    );
    expect(recall.hybrid).toBeGreaterThan(recall.fulltext);
    expect(recall.hybrid).toBeGreaterThan(recall.semantic);
    expect(recall.hybrid).toBe(1);
  });

  it('orders what was found with a reranking model when one is chosen', async () => {
    const cred = await agent.post('/api/model_manage/v1/platform/credential/create', {
      provider: 'openai-compatible',
      name: 'fake-rerank',
      base_url: `${llm.url}/v1`,
      api_key: 'sk-fake',
    });
    const reranker = (
      await agent.post('/api/model_manage/v1/platform/model/create', {
        credential_id: cred.credential_id,
        model_name: 'fake-rerank',
        kind: 'rerank',
      })
    ).model_id;
    const { dataset_id } = await agent.post('/api/knowledge/create', {
      space_id: space,
      name: 'Rerank',
      format_type: 0,
    });
    const created = await agent.post('/api/knowledge/document/create', {
      space_id: space,
      dataset_id,
      document_bases: [
        { name: 'a', custom_content: 'Invoices invoices invoices are archived monthly.' },
        {
          name: 'b',
          custom_content: 'Paper invoices from suppliers are scanned and archived by the finance team every Friday.',
        },
      ],
    });
    await settled(
      agent,
      space,
      created.document_infos.map((d: { document_id: string }) => d.document_id),
    );
    const ask = (extra: Record<string, unknown>) =>
      agent.post('/api/knowledge/retrieve', {
        space_id: space,
        dataset_ids: [dataset_id],
        query: 'who scans supplier invoices on friday',
        search_type: 20,
        ...extra,
      });
    const plain = await ask({});
    const reranked = await ask({ rerank_model_id: reranker });
    expect(reranked.slices[0].document_name).toBe('b');
    expect(reranked.slices[0].found_by).toMatchObject({ rerank: 1 });
    expect(reranked.slices[0].score).toBeGreaterThan(reranked.slices[1].score);
    expect(llm.requests.at(-1)!.path).toBe('/v1/rerank');
    expect(plain.slices.map((x: { document_name: string }) => x.document_name).sort()).toEqual(['a', 'b']);
    // A chat model is not a reranker: said so.
    const chat = await addFakeModel(agent, llm.url);
    const wrong = await agent.request('POST', '/api/knowledge/retrieve', {
      space_id: space,
      dataset_ids: [dataset_id],
      query: 'invoices',
      rerank_model_id: chat,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toContain('is not a reranking model');
  });

  it('takes up a document the studio stopped processing when it starts again', async () => {
    const s2 = await startStudio();
    const dataDir = s2.dataDir;
    const a = (await signUp(s2.url)).agent;
    const s = (await a.post('/api/space/create', { name: 'Restart' })).space_id;
    const d = (await a.post('/api/knowledge/create', { space_id: s, name: 'K', format_type: 0 })).dataset_id;
    const doc = (
      await a.post('/api/knowledge/document/create', {
        space_id: s,
        dataset_id: d,
        document_bases: [{ custom_content: 'The studio restarts; the document still finishes.' }],
      })
    ).document_infos[0];
    await settled(a, s, [doc.document_id]);
    // As if the process had stopped mid-way: processing, 40%, no slices.
    const db = s2.server.database.db;
    await db
      .updateTable('knowledge_document')
      .set({ status: 0, progress: 40 })
      .where('id', '=', doc.document_id)
      .execute();
    await s2.server.close();
    const again = await startStudio({ keepData: dataDir, env: s2.databaseUrl ? { DATABASE_URL: s2.databaseUrl } : {} });
    try {
      a.base = again.url;
      const [p] = await settled(a, s, [doc.document_id]);
      expect(p).toMatchObject({ status: 1, progress: 100 });
      expect(
        (await a.post('/api/knowledge/retrieve', { space_id: s, dataset_ids: [d], query: 'studio restarts' })).slices,
      ).toHaveLength(1);
    } finally {
      await again.close();
      await s2.close().catch(() => undefined);
    }
  });

  it('writes, retrieves and deletes documents from a workflow with the knowledge nodes (27, 6, 60)', async () => {
    const { dataset_id } = await agent.post('/api/knowledge/create', {
      space_id: space,
      name: 'Workflow notes',
      format_type: 0,
    });
    const wf = (p: string, body: Record<string, unknown>) =>
      agent.post(`/api/workflow_api/${p}`, { space_id: space, ...body });
    const { workflow_id } = await wf('create', { name: unique('notes') });
    await wf('save', {
      workflow_id,
      schema: {
        nodes: [
          node('start', '1', {
            outputs: [
              { name: 'note', type: 'string', required: true },
              { name: 'question', type: 'string', required: true },
            ],
          }),
          node('write', '27', { inputs: [ref('knowledge', 'start', ['note'])], settings: { dataset_id } }),
          node('find', '6', {
            inputs: [ref('Query', 'start', ['question'])],
            settings: { dataset_list: [dataset_id], top_k: 3, strategy: 20 },
          }),
          node('forget', '60', { inputs: [ref('documentID', 'write', ['documentId'])] }),
          node('end', '2', {
            inputs: [
              ref('found', 'find', ['outputList'], 'array'),
              ref('doc', 'write', ['documentId']),
              ref('gone', 'forget', ['isSuccess'], 'boolean'),
            ],
          }),
        ],
        links: [link('start', 'write'), link('write', 'find'), link('find', 'forget'), link('forget', 'end')],
      },
    });
    const r = await wf('test_run', {
      workflow_id,
      input: {
        note: 'The parking garage closes at midnight on weekdays.',
        question: 'When does the parking garage close?',
      },
      run_mode: 0,
    });
    expect(r.execute_status, r.reason).toBe(2);
    const out = JSON.parse(r.output);
    expect(out.found[0]).toMatchObject({
      output: 'The parking garage closes at midnight on weekdays.',
      document_id: out.doc,
    });
    expect(out.found[0].score).toBeGreaterThan(0);
    expect(out.gone).toBe(true);
    expect((await agent.post('/api/knowledge/ref_bots', { space_id: space, dataset_id })).references).toEqual([
      expect.objectContaining({ kind: 'workflow', id: workflow_id }),
    ]);
    expect((await agent.post('/api/knowledge/document/list', { space_id: space, dataset_id })).total).toBe(0);
    // A knowledge base of another space is refused by name.
    const other = (await agent.post('/api/space/create', { name: 'Elsewhere' })).space_id;
    const foreign = (await agent.post('/api/knowledge/create', { space_id: other, name: 'Foreign', format_type: 0 }))
      .dataset_id;
    await wf('save', {
      workflow_id,
      schema: {
        nodes: [
          node('start', '1'),
          node('find', '6', { inputs: [lit('Query', 'x')], settings: { dataset_list: [foreign] } }),
          node('end', '2'),
        ],
        links: [link('start', 'find'), link('find', 'end')],
      },
    });
    const refused = await wf('test_run', { workflow_id, input: {}, run_mode: 0 });
    expect(refused.reason).toMatch(/not in this space/);
  });

  it('gives a bot its knowledge: looked up every turn with the slices in the answer steps, or with a tool when the model decides', async () => {
    const chatModel = await addFakeModel(agent, llm.url);
    const { dataset_id } = await agent.post('/api/knowledge/create', {
      space_id: space,
      name: 'Bot facts',
      format_type: 0,
      embedding_model_id: embedModel,
    });
    const doc = (
      await agent.post('/api/knowledge/document/create', {
        space_id: space,
        dataset_id,
        document_bases: [
          { name: 'garden', custom_content: 'The garden gate code is 4719. The greenhouse opens at eight.' },
        ],
      })
    ).document_infos[0];
    await settled(agent, space, [doc.document_id]);
    const { bot_id } = await agent.post('/api/draftbot/create', { space_id: space, name: 'Gardener' });
    const configure = async (skill: Record<string, unknown>) => {
      const info = (await agent.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: space, bot_id }))
        .bot_info;
      await agent.post('/api/playground_api/draftbot/update_draft_bot_info', {
        space_id: space,
        bot_id,
        base_revision: info.revision,
        config: {
          ...info.config,
          settings: { prompt: 'You help with the garden.', model: { model_id: chatModel } },
          skills: { knowledge: { datasets: [{ dataset_id, name: 'Bot facts' }], ...skill } },
        },
      });
    };
    await configure({ recall: 'auto', search_type: 20 });
    llm.reset();
    llm.script({ text: 'The code is 4719 [1].' });
    const events = await debugChat(agent, space, bot_id, 'What is the garden gate code?');
    const system = JSON.stringify(llm.requests.at(-1)!.body.messages);
    expect(system).toContain('The garden gate code is 4719.');
    expect(system).toContain('Cite the numbers [n]');
    const [call] = completed(events, 'function_call');
    expect(JSON.parse(call.content)).toMatchObject({
      name: 'knowledge_recall',
      arguments: { query: 'What is the garden gate code?' },
    });
    const [result] = completed(events, 'tool_response');
    expect(JSON.parse(result.content).slices[0]).toMatchObject({
      document_name: 'garden',
      content: 'The garden gate code is 4719. The greenhouse opens at eight.',
    });

    // On demand: the model calls search_knowledge; its passages come back as the tool's result.
    await configure({ recall: 'tool', search_type: 1 });
    llm.reset();
    llm.script(
      { toolCalls: [{ name: 'search_knowledge', arguments: { query: 'greenhouse opening time' } }] },
      { text: 'At eight [1].' },
    );
    const tooled = await debugChat(agent, space, bot_id, 'When can I get into the greenhouse?');
    expect(llm.requests[0].body.messages[0].content).not.toContain('Passages from the knowledge bases');
    expect(llm.requests[0].body.messages[0].content).toContain('search_knowledge');
    const responses = completed(tooled, 'tool_response');
    expect(responses.map((r) => JSON.parse(r.content).passages).join('')).toContain('The greenhouse opens at eight.');
    expect(completed(tooled, 'answer').at(-1)!.content).toBe('At eight [1].');
    // The knowledge base knows the bot uses it.
    const refs = await agent.post('/api/knowledge/ref_bots', { space_id: space, dataset_id });
    expect(refs.bots).toEqual([{ kind: 'bot', id: bot_id, name: 'Gardener', space_id: space }]);
    expect(
      (await agent.post('/api/knowledge/detail', { space_id: space, dataset_ids: [dataset_id] })).dataset_details[
        dataset_id
      ].bot_used_count,
    ).toBe(1);
  });

  it('gives workflow nodes a URL for an uploaded file given to a Start field of type file (and lists of files)', async () => {
    const [file] = (
      await agent.upload(`/api/files/upload?space_id=${space}`, [{ name: 'brief.txt', data: 'the brief' }])
    ).files;
    const wf = (p: string, body: Record<string, unknown>) =>
      agent.post(`/api/workflow_api/${p}`, { space_id: space, ...body });
    const { workflow_id } = await wf('create', { name: unique('files') });
    await wf('save', {
      workflow_id,
      schema: {
        nodes: [
          node('start', '1', {
            outputs: [
              { name: 'doc', type: 'file', required: true },
              { name: 'more', type: 'array', items: 'file' },
            ],
          }),
          node('end', '2', { inputs: [ref('doc', 'start', ['doc'], 'file'), ref('more', 'start', ['more'], 'array')] }),
        ],
        links: [link('start', 'end')],
      },
    });
    const r = await wf('test_run', {
      workflow_id,
      input: { doc: file.id, more: [file.id, 'https://example.com/a.pdf'] },
      run_mode: 0,
    });
    expect(r.execute_status, r.reason).toBe(2);
    const out = JSON.parse(r.output);
    expect(out.doc).toMatch(new RegExp(`/api/files/content/${file.id}\\?exp=\\d+&sig=`));
    expect(out.more[1]).toBe('https://example.com/a.pdf');
    expect(await (await fetch(out.more[0])).text()).toBe('the brief');
  });

  it('refuses what is not yours: another space, another space’s file', async () => {
    const other = (await signUp(studio.url)).agent;
    const theirs = (await other.post('/api/space/create', { name: 'Theirs' })).space_id;
    const [file] = (
      await other.upload(`/api/files/upload?space_id=${theirs}`, [{ name: 'secret.txt', data: 'their secret' }])
    ).files;
    const { dataset_id } = await agent.post('/api/knowledge/create', { space_id: space, name: 'Mine', format_type: 0 });
    const r = await agent.request('POST', '/api/knowledge/document/create', {
      space_id: space,
      dataset_id,
      document_bases: [{ file_id: file.id }],
    });
    expect(r.status).toBe(403);
    const peek = await other.request('POST', '/api/knowledge/retrieve', {
      space_id: space,
      dataset_ids: [dataset_id],
      query: 'x',
    });
    expect(peek.status).toBe(403);
    const cross = await other.request('POST', '/api/knowledge/slice/list', { space_id: theirs, dataset_id });
    expect(cross.status).toBe(404);
  });
});
