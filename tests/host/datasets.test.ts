import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { Agent, signUp } from '../agent.ts';
import { startStudio, type RunningStudio } from '../helpers.ts';

// Datasets with the whole studio: typed fields, items added in batches (invalid ones refused or skipped with their
// rows), imports of JSONL, CSV, XLSX and Parquet as jobs with progress and per-row errors, versions that stay as they
// were while the draft changes, compared, exported; field distributions; evaluation sets made of a version and back.
let studio: RunningStudio;
let owner: Agent;
let space: string;
const V2 = '/api/ml_flow/v2';

beforeAll(async () => {
  studio = await startStudio();
  owner = (await signUp(studio.url, 'datasets')).agent;
  space = (await owner.post('/api/space/create', { name: 'Data' })).space_id;
});
afterAll(() => studio?.close());

const create = async (name: string) =>
  (
    await owner.post(`${V2}/datasets`, {
      spaceID: space,
      name,
      fields: [
        { name: 'question', type: 'text', required: true },
        { name: 'score', type: 'number' },
        { name: 'chat', type: 'messages' },
      ],
    })
  ).dataset;

/** Waits for an import to end (it runs as a background job). */
async function finished(jobID: string) {
  let job: any;
  await expect
    .poll(
      async () => {
        job = (await owner.request('GET', `${V2}/spaces/${space}/dataset_io_jobs/${jobID}`)).body.data.job;
        return ['queued', 'running'].includes(job.status);
      },
      { timeout: 60_000, interval: 100 },
    )
    .toBe(false);
  return job;
}
const importFile = async (datasetID: string, format: string, content: string, skipInvalidItems = true) =>
  finished(
    (
      await owner.post(`${V2}/datasets/${datasetID}/import`, {
        format,
        content,
        fileName: `f.${format}`,
        skipInvalidItems,
      })
    ).job.jobID,
  );

describe('datasets', () => {
  it('adds items in batches: invalid ones refused with their row, or skipped when asked', async () => {
    const d = await create('Batches');
    const items = [
      { data: { question: 'Hi?', score: '3', chat: '[{"role":"user","content":"hi"}]' } },
      { data: { question: '', score: 1 } },
      { data: { question: 'Why?', score: 'many' } },
    ];
    const refused = await owner.request('POST', `${V2}/datasets/${d.datasetID}/items/batch`, { items });
    expect([refused.status, refused.body.msg]).toEqual([400, 'Item 2: question is required. Nothing was added.']);
    const r = await owner.post(`${V2}/datasets/${d.datasetID}/items/batch`, { items, skipInvalidItems: true });
    expect(r.added).toBe(1);
    expect(r.errors).toEqual([
      { row: 2, field: 'question', message: 'question is required.' },
      { row: 3, field: 'score', message: 'score is a number, not "many".' },
    ]);
    const page = await owner.post(`${V2}/datasets/${d.datasetID}/items/search`, {});
    expect(page.items[0].data).toEqual({ question: 'Hi?', score: 3, chat: [{ role: 'user', content: 'hi' }] });
    // Another space's member cannot read it.
    const stranger = (await signUp(studio.url, 'datasets-stranger')).agent;
    expect((await stranger.request('GET', `${V2}/datasets/${d.datasetID}`)).status).toBe(403);
  });

  it('imports JSONL, CSV, XLSX and Parquet as jobs, with the rows it refused', async () => {
    const d = await create('Imports');
    const jsonl = [
      JSON.stringify({ question: 'a', score: 1 }),
      'not json',
      JSON.stringify({ question: 'b', score: 'x' }),
      JSON.stringify({ question: 'c', extra: 1 }),
      '',
      JSON.stringify({ question: 'd', score: 4 }),
    ].join('\n');
    const j = await importFile(d.datasetID, 'jsonl', jsonl);
    expect(j).toMatchObject({ status: 'done', total: 5, added: 2, failed: 3, progress: 100 });
    expect(j.errors.map((e: { row: number; message: string }) => `${e.row}: ${e.message}`)).toEqual([
      '2: Line 2 is not JSON.',
      '3: score is a number, not "x".',
      '4: The dataset has no field extra.',
    ]);
    // Without skipInvalidItems the import stops at the first bad batch and says so.
    const strict = await importFile(d.datasetID, 'jsonl', 'oops', false);
    expect([strict.status, strict.message]).toEqual([
      'failed',
      'Row 1: Line 1 is not JSON. Nothing more was added (skipInvalidItems is off).',
    ]);
    const csv = await importFile(d.datasetID, 'csv', 'question,score\ne,5\n"f, with comma",6\n');
    expect([csv.status, csv.added]).toEqual(['done', 2]);
    const ExcelJS = (await import('exceljs')).default;
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('items');
    sheet.addRow(['question', 'score']);
    sheet.addRow(['g', 7]);
    const xlsx = Buffer.from(await book.xlsx.writeBuffer()).toString('base64');
    expect((await importFile(d.datasetID, 'xlsx', xlsx)).added).toBe(1);
    const parquet = parquetWriteBuffer({
      columnData: [
        { name: 'question', data: ['h', 'i'], type: 'STRING' },
        { name: 'score', data: [8, 9], type: 'INT32' },
      ],
    });
    expect((await importFile(d.datasetID, 'parquet', Buffer.from(parquet).toString('base64'))).added).toBe(2);
    const all = await owner.post(`${V2}/datasets/${d.datasetID}/items/search`, { pageSize: 100 });
    expect(all.items.map((i: { data: { question: string } }) => i.data.question)).toEqual([
      'a',
      'd',
      'e',
      'f, with comma',
      'g',
      'h',
      'i',
    ]);
    expect((await owner.post(`${V2}/datasets/${d.datasetID}/items/search`, { query: 'COMMA' })).total).toBe(1);
    const bad = await importFile(d.datasetID, 'parquet', Buffer.from('nope').toString('base64'));
    expect(bad.message).toMatch(/not a Parquet file this studio reads/);
  });

  it('keeps a version as it was while the draft changes, and compares them', async () => {
    const d = await create('Versions');
    const added = await owner.post(`${V2}/datasets/${d.datasetID}/items/batch`, {
      items: [{ data: { question: 'one', score: 1 } }, { data: { question: 'two', score: 2 } }],
    });
    const { version } = await owner.post(`${V2}/datasets/${d.datasetID}/versions`, { desc: 'first' });
    expect(version).toMatchObject({ version: 1, itemCount: 2, desc: 'first' });
    await owner.request('PUT', `${V2}/datasets/${d.datasetID}/items/${added.itemIDs[0]}`, {
      data: { question: 'ONE', score: 10 },
    });
    await owner.request('DELETE', `${V2}/datasets/${d.datasetID}/items/${added.itemIDs[1]}`);
    await owner.post(`${V2}/datasets/${d.datasetID}/items/batch`, { items: [{ data: { question: 'three' } }] });
    const frozen = (await owner.request('GET', `${V2}/datasets/${d.datasetID}/versions/${version.versionID}/items`))
      .body.data.items;
    expect(frozen.map((i: { data: { question: string } }) => i.data.question)).toEqual(['one', 'two']);
    const diff = await owner.post(`${V2}/datasets/${d.datasetID}/versions/diff`, { fromVersionID: version.versionID });
    expect([diff.added, diff.removed, diff.changed]).toEqual([1, 1, 1]);
    expect(diff.changes.find((c: { op: string }) => c.op === 'changed')).toMatchObject({
      before: { question: 'one', score: 1 },
      after: { question: 'ONE', score: 10 },
    });
    const v2 = (await owner.post(`${V2}/datasets/${d.datasetID}/versions`, {})).version;
    const versions = (await owner.request('GET', `${V2}/datasets/${d.datasetID}/versions`)).body.data.versions;
    expect(versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    // Exports of a version and of the draft.
    const jsonl = await (
      await fetch(`${studio.url}${V2}/datasets/${d.datasetID}/export?versionID=${version.versionID}`, {
        headers: { cookie: [...owner.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      })
    ).text();
    expect(
      jsonl
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).question),
    ).toEqual(['one', 'two']);
    const csv = await (
      await fetch(`${studio.url}${V2}/datasets/${d.datasetID}/export?format=csv&versionID=${v2.versionID}`, {
        headers: { cookie: [...owner.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      })
    ).text();
    expect(csv.split(/\r?\n/)[0]).toBe('question,score,chat');
    expect(csv).toContain('ONE,10,');
  });

  it('shows how a field is spread, and makes evaluation sets of a version and back', async () => {
    const d = await create('Spread');
    await owner.post(`${V2}/datasets/${d.datasetID}/items/batch`, {
      items: [1, 2, 2, 3, 10].map((score, i) => ({ data: { question: i < 3 ? 'same' : `q${i}`, score } })),
    });
    const dist = (await owner.request('GET', `${V2}/datasets/${d.datasetID}/field_distribution?field=score`)).body.data;
    expect([dist.total, dist.filled, dist.numeric.min, dist.numeric.max, dist.numeric.mean]).toEqual([
      5, 5, 1, 10, 3.6,
    ]);
    expect(dist.top[0]).toEqual({ value: '2', count: 2 });
    const q = (await owner.request('GET', `${V2}/datasets/${d.datasetID}/field_distribution?field=question`)).body.data;
    expect(q.top[0]).toEqual({ value: 'same', count: 3 });
    const { version } = await owner.post(`${V2}/datasets/${d.datasetID}/versions`, {});
    const made = await owner.post(`${V2}/datasets/${d.datasetID}/to_eval_set`, {
      versionID: version.versionID,
      name: 'From data',
    });
    expect(made.items).toBe(5);
    const set = await owner.post('/api/evaluation/v1/sets/get', { space_id: space, set_id: made.setID });
    expect(set.set.columns.map((c: { name: string; type: string }) => `${c.name}:${c.type}`)).toEqual([
      'question:string',
      'score:number',
      'chat:messages',
    ]);
    expect(set.set.latest_version).toBe('1.0.0');
    const back = await owner.post(`${V2}/datasets/from_eval_set`, {
      spaceID: space,
      setID: made.setID,
      version: '1.0.0',
      name: 'Back again',
    });
    expect(back.dataset).toMatchObject({ itemCount: 5, name: 'Back again' });
    const items = await owner.post(`${V2}/datasets/${back.dataset.datasetID}/items/search`, {});
    expect(items.items[4].data).toEqual({ question: 'q4', score: 10, chat: null });
    expect(items.items[0].sourceItemID).not.toBe('');
  });

  it('has two annotators label blind, computes their agreement, and writes the agreed labels back', async () => {
    const d = await create('Labelled');
    const questions = Array.from({ length: 10 }, (_, i) => ({ data: { question: `q${i}` } }));
    await owner.post(`${V2}/datasets/${d.datasetID}/items/batch`, { items: questions });
    const { version } = await owner.post(`${V2}/datasets/${d.datasetID}/versions`, {});
    const second = await signUp(studio.url, 'annotator');
    await owner.post('/api/space/member/add', { space_id: space, emails: [second.email] });
    const idOf = async (who: Agent) => (await who.request('GET', '/api/passport/account/info/v2')).body.data.user_id;
    const ownerId = await idOf(owner);
    const secondId = await idOf(second.agent);
    const { job } = await owner.post(`${V2}/annotation_jobs`, {
      spaceID: space,
      datasetID: d.datasetID,
      versionID: version.versionID,
      name: 'Yes or no',
      labels: [{ key: 'ok', type: 'choice', options: ['yes', 'no'] }],
      assign_annotator_ids: [ownerId, secondId],
      blind_count: 2,
    });
    expect(job).toMatchObject({ itemCount: 10, doneItems: 0, blindCount: 2, status: 'running' });
    // Cohen's worked example in ten items: 4 yes-yes, 1 yes-no, 2 no-yes, 3 no-no (kappa 0.4).
    const first = ['yes', 'yes', 'yes', 'yes', 'yes', 'no', 'no', 'no', 'no', 'no'];
    const other = ['yes', 'yes', 'yes', 'yes', 'no', 'yes', 'yes', 'no', 'no', 'no'];
    const label = async (who: Agent, answers: string[]) => {
      for (const answer of answers) {
        const next = await who.post(`${V2}/annotation_jobs/${job.jobID}/next`, {});
        // Blind: the item comes with its data only.
        expect(Object.keys(next)).toEqual(['item', 'mine', 'remaining']);
        await who.post(`${V2}/annotation_jobs/${job.jobID}/submit`, {
          itemID: next.item.itemID,
          values: { ok: answer },
        });
      }
    };
    await label(owner, first);
    const again = await owner.post(`${V2}/annotation_jobs/${job.jobID}/next`, {});
    expect([again.item, again.mine, again.remaining]).toEqual([null, 10, 0]);
    const twice = await owner.request('POST', `${V2}/annotation_jobs/${job.jobID}/submit`, {
      itemID: (await owner.post(`${V2}/datasets/${d.datasetID}/items/search`, {})).items[0].itemID,
      values: { ok: 'yes' },
    });
    expect(twice.status).toBe(409);
    const wrong = await second.agent.request('POST', `${V2}/annotation_jobs/${job.jobID}/submit`, {
      itemID: again.item?.itemID ?? 'x',
      values: { ok: 'maybe' },
    });
    expect(wrong.body.msg).toBe('ok is one of yes, no.');
    await label(second.agent, other);
    // An annotator does not see the others' labels; the job's maker does.
    expect((await second.agent.request('POST', `${V2}/annotation_jobs/${job.jobID}/agreement`, {})).status).toBe(403);
    const agreement = await owner.post(`${V2}/annotation_jobs/${job.jobID}/agreement`, {});
    const ok = agreement.labels[0];
    expect(ok.items).toBe(10);
    expect(ok.cohen).toBeCloseTo(0.4, 10);
    expect(ok.fleiss).toBeCloseTo((0.7 - 0.505) / 0.495, 10);
    expect(ok.unanimous).toBeCloseTo(0.7, 10);
    expect(agreement.disagreements).toHaveLength(3);
    // One disagreement decided by a review; the majority elsewhere; ties stay undecided.
    await owner.post(`${V2}/annotation_jobs/${job.jobID}/review`, {
      itemID: agreement.disagreements[0].itemID,
      values: { ok: 'no' },
    });
    const back = await owner.post(`${V2}/annotation_jobs/${job.jobID}/write_back`, {});
    expect([back.written, back.undecided, back.fields]).toEqual([8, 2, ['label_ok']]);
    const items = (await owner.post(`${V2}/datasets/${d.datasetID}/items/search`, {})).items;
    expect(items.map((i: { data: { label_ok?: string } }) => i.data.label_ok ?? '-').join(' ')).toBe(
      'yes yes yes yes no - - no no no',
    );
    const jobs = (await owner.post(`${V2}/annotation_jobs/search`, { spaceID: space, datasetID: d.datasetID })).jobs;
    expect(jobs[0]).toMatchObject({ status: 'done', doneItems: 10, labelCount: 20 });
  });

  it('finds duplicates exactly or near, at the threshold and not above it, and removes those confirmed', async () => {
    const d = await create('Dupes');
    const a = 'one two three four five six seven eight nine ten eleven twelve';
    const b = 'one two three four five six seven eight nine ten eleven thirteen fourteen';
    const r = await owner.post(`${V2}/datasets/${d.datasetID}/items/batch`, {
      items: [a, 'the weather in spring is mild and often rainy here', b, `  ${a.toUpperCase()} `].map((question) => ({
        data: { question },
      })),
    });
    const [ia, , ib, id] = r.itemIDs;
    const run = async (body: Record<string, unknown>) => {
      const { job } = await owner.post(`${V2}/datasets/${d.datasetID}/dedup_jobs`, { field: 'question', ...body });
      let now: any;
      await expect
        .poll(
          async () => {
            now = (await owner.request('GET', `${V2}/datasets/${d.datasetID}/dedup_jobs/${job.jobID}`)).body.data.job;
            return now.status;
          },
          { timeout: 60_000, interval: 100 },
        )
        .toBe('done');
      return now;
    };
    const near = await run({ method: 'minhash', threshold: 0.75 });
    expect(near.pairs.map((p: any) => [p.itemA, p.itemB, p.similarity])).toEqual([
      [ia, id, 1],
      [ia, ib, 0.75],
      [ib, id, 0.75],
    ]);
    expect(near.pairs[1].textB).toBe(b);
    const stricter = await run({ method: 'minhash', threshold: 0.76 });
    expect(stricter.pairs.map((p: any) => [p.itemA, p.itemB])).toEqual([[ia, id]]);
    const exact = await run({ method: 'exact' });
    expect(exact.pairCount).toBe(1);
    const outside = await owner.request('POST', `${V2}/datasets/${d.datasetID}/dedup_jobs/${exact.jobID}/confirm`, {
      removeItemIDs: [ib],
    });
    expect([outside.status, outside.body.msg]).toEqual([400, `The item ${ib} is not in a pair this job found.`]);
    const done = await owner.post(`${V2}/datasets/${d.datasetID}/dedup_jobs/${exact.jobID}/confirm`, {
      removeItemIDs: [id],
    });
    expect(done.removed).toBe(1);
    expect((await owner.request('GET', `${V2}/datasets/${d.datasetID}`)).body.data.dataset.itemCount).toBe(3);
  });
});

describe('tags of items', () => {
  it('binds tags of the space to items, filters by them, and refuses what a tag does not allow', async () => {
    const d = await create('Tagged');
    const ids: string[] = (
      await owner.post(`${V2}/datasets/${d.datasetID}/items/batch`, {
        items: ['a', 'b', 'c'].map((question) => ({ data: { question } })),
      })
    ).itemIDs;
    const TAGS = `${V2}/spaces/${space}/tags`;
    const { tag: topic } = await owner.post(TAGS, { name: 'topic', values: ['billing', 'shipping'] });
    const { tag: hard } = await owner.post(TAGS, { name: 'hard', contentType: 'boolean' });
    expect(topic.values.map((v: { value: string }) => v.value)).toEqual(['billing', 'shipping']);
    expect((await owner.request('POST', TAGS, { name: 'topic', values: ['x'] })).status).toBe(409);
    expect((await owner.request('POST', TAGS, { name: 'empty', contentType: 'categorical' })).status).toBe(400);

    const tag = (body: object) => owner.request('POST', `${V2}/datasets/${d.datasetID}/items/tags`, body);
    expect((await tag({ itemIDs: ids.slice(0, 2), tagKeyID: topic.tagKeyID, value: 'billing' })).status).toBe(200);
    expect((await tag({ itemIDs: [ids[2]], tagKeyID: topic.tagKeyID, value: 'shipping' })).status).toBe(200);
    expect((await tag({ itemIDs: [ids[0]], tagKeyID: hard.tagKeyID, value: true })).status).toBe(200);
    const wrong = await tag({ itemIDs: [ids[0]], tagKeyID: topic.tagKeyID, value: 'refunds' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toBe('The tag topic has no value "refunds".');
    expect((await tag({ itemIDs: [ids[0]], tagKeyID: hard.tagKeyID, value: 'maybe' })).status).toBe(400);

    const search = async (tags: object[]) =>
      (await owner.post(`${V2}/datasets/${d.datasetID}/items/search`, { tags })).items;
    const billing = await search([{ tagKeyID: topic.tagKeyID, value: 'billing' }]);
    expect(billing.map((i: { data: { question: string } }) => i.data.question)).toEqual(['a', 'b']);
    expect(billing[0].tags).toEqual([
      { tagKeyID: hard.tagKeyID, name: 'hard', value: 'true' },
      { tagKeyID: topic.tagKeyID, name: 'topic', value: 'billing' },
    ]);
    const both = await search([
      { tagKeyID: topic.tagKeyID, value: 'billing' },
      { tagKeyID: hard.tagKeyID, value: 'true' },
    ]);
    expect(both.map((i: { data: { question: string } }) => i.data.question)).toEqual(['a']);

    // A value archived and a tag turned off take no new bindings; the ones made stay.
    const shipping = topic.values.find((v: { value: string }) => v.value === 'shipping').valueID;
    await owner.post(`${TAGS}/${topic.tagKeyID}/values/${shipping}/archive`, { archived: true });
    expect((await tag({ itemIDs: [ids[0]], tagKeyID: topic.tagKeyID, value: 'shipping' })).body.msg).toBe(
      'The value "shipping" of the tag topic is archived.',
    );
    await owner.post(`${TAGS}/batch_update_status`, { tagKeyIDs: [hard.tagKeyID], status: 'inactive' });
    expect((await tag({ itemIDs: [ids[1]], tagKeyID: hard.tagKeyID, value: false })).status).toBe(400);
    expect((await owner.get(`${TAGS}?status=active`)).tags.map((t: { name: string }) => t.name)).toEqual(['topic']);
    expect((await search([{ tagKeyID: hard.tagKeyID, value: 'true' }])).length).toBe(1);

    await owner.post(`${V2}/datasets/${d.datasetID}/items/tags/remove`, {
      itemIDs: [ids[0]],
      tagKeyID: topic.tagKeyID,
    });
    expect((await search([{ tagKeyID: topic.tagKeyID, value: 'billing' }])).length).toBe(1);

    const { agent: other } = await signUp(studio.url);
    expect((await other.request('GET', TAGS)).status).toBe(403);
  });
});

describe('the open API', () => {
  it('creates a dataset, inserts, pulls by pages and clears with a personal access token', async () => {
    const pat = async (permissions: string[]) =>
      (
        await owner.post('/api/permission_api/pat/create', {
          name: permissions.join(','),
          duration_day: '1',
          workspace_permission_list: [{ workspace_id: space, permissions }],
        })
      ).token as string;
    const writer = new Agent(studio.url, { bearer: await pat(['dataset.write', 'dataset.read']) });
    const reader = new Agent(studio.url, { bearer: await pat(['dataset.read']) });
    const O = '/open-api/evaluation/v1/dataset';
    const { dataset_id } = await writer.post(`${O}/create`, {
      space_id: space,
      name: 'From a program',
      fields: [
        { name: 'q', type: 'text', required: true },
        { name: 'n', type: 'number' },
      ],
    });
    const bad = await writer.request('POST', `${O}/insert`, {
      dataset_id,
      items: [{ data: { q: 'a' } }, { data: { n: 1 } }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('Item 2: q is required. Nothing was added.');
    const ins = await writer.post(`${O}/insert`, {
      dataset_id,
      items: [...Array.from({ length: 5 }, (_, i) => ({ data: { q: `q${i}`, n: String(i) } })), { data: { n: 'x' } }],
      skip_invalid_items: true,
    });
    expect(ins.added).toBe(5);
    expect(ins.errors).toEqual([{ row: 6, field: 'q', message: 'q is required.' }]);
    const p1 = await reader.post(`${O}/pull`, { dataset_id, page_size: 3 });
    expect(p1.items.map((i: { data: { q: string; n: number } }) => [i.data.q, i.data.n])).toEqual([
      ['q0', 0],
      ['q1', 1],
      ['q2', 2],
    ]);
    expect(p1.has_more).toBe(true);
    const p2 = await reader.post(`${O}/pull`, { dataset_id, page_size: 3, cursor: p1.next_cursor });
    expect(p2.items.map((i: { data: { q: string } }) => i.data.q)).toEqual(['q3', 'q4']);
    expect(p2.has_more).toBe(false);
    expect((await reader.request('POST', `${O}/clear`, { dataset_id })).status).toBe(403);
    expect((await writer.post(`${O}/clear`, { dataset_id })).removed).toBe(5);
    expect((await reader.post(`${O}/pull`, { dataset_id })).items).toEqual([]);
    // The dataset is the studio's like any other.
    expect((await owner.get(`${V2}/datasets/${dataset_id}`)).dataset.name).toBe('From a program');
    const other = await signUp(studio.url, 'open-other');
    const otherSpace = (await other.agent.post('/api/space/create', { name: 'Theirs' })).space_id;
    expect(
      (
        await writer.request('POST', `${O}/create`, {
          space_id: otherSpace,
          name: 'x',
          fields: [{ name: 'q', type: 'text' }],
        })
      ).status,
    ).toBe(403);
  });
});

describe('span labels', () => {
  it('marks spans of a text, refuses spans outside it, and writes the agreed spans back as a list', async () => {
    const d = await create('Entities');
    await owner.post(`${V2}/datasets/${d.datasetID}/items/batch`, {
      items: [{ data: { question: 'Fly from Paris to Rome' } }],
    });
    const { version } = await owner.post(`${V2}/datasets/${d.datasetID}/versions`, {});
    const me = (await owner.get('/api/passport/account/info/v2')).user_id;
    const make = (labels: object[]) =>
      owner.request('POST', `${V2}/annotation_jobs`, {
        spaceID: space,
        datasetID: d.datasetID,
        versionID: version.versionID,
        name: 'Places',
        labels,
        assign_annotator_ids: [me],
      });
    expect((await make([{ key: 'ents', type: 'span', field: 'score', options: ['PLACE'] }])).body.msg).toBe(
      'ents: mark spans of a text field (question).',
    );
    const { job } = (await make([{ key: 'ents', type: 'span', field: 'question', options: ['PLACE', 'VERB'] }])).body
      .data;
    const { item } = await owner.post(`${V2}/annotation_jobs/${job.jobID}/next`, {});
    const submit = (ents: object[]) =>
      owner.request('POST', `${V2}/annotation_jobs/${job.jobID}/submit`, {
        itemID: item.itemID,
        values: { ents: JSON.stringify(ents) },
      });
    expect((await submit([{ start: 18, end: 40, label: 'PLACE' }])).body.msg).toBe(
      'ents: a span runs from 0 to 22 (the length of question), its end after its start.',
    );
    expect((await submit([{ start: 0, end: 3, label: 'THING' }])).body.msg).toBe(
      "ents: a span's label is one of PLACE, VERB.",
    );
    expect(
      (
        await submit([
          { start: 18, end: 22, label: 'PLACE' },
          { start: 9, end: 14, label: 'PLACE' },
        ])
      ).status,
    ).toBe(200);
    const w = await owner.post(`${V2}/annotation_jobs/${job.jobID}/write_back`, { prefix: 'label_' });
    expect(w).toMatchObject({ written: 1, fields: ['label_ents'] });
    const [it] = (await owner.post(`${V2}/datasets/${d.datasetID}/items/search`, {})).items;
    expect(it.data.label_ents).toEqual([
      { start: 9, end: 14, label: 'PLACE', text: 'Paris' },
      { start: 18, end: 22, label: 'PLACE', text: 'Rome' },
    ]);
    const { dataset } = await owner.get(`${V2}/datasets/${d.datasetID}`);
    expect(dataset.fields.find((f: { name: string }) => f.name === 'label_ents').type).toBe('json');
  });
});
