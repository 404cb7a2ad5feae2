import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../agent.ts';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { Agent } from '../agent.ts';
import { link, lit, node, ref, unique } from '../workflow-kit.ts';

// Tables stored as real tables, on SQLite and (in CI's second run) PostgreSQL.
let studio: RunningStudio;
let owner: Agent;
let space: string;
beforeAll(async () => {
  studio = await startStudio();
  owner = (await signUp(studio.url)).agent;
  space = (await owner.post('/api/space/create', { name: 'Tables' })).space_id;
});
afterAll(() => studio.close());

const db = (p: string, body: Record<string, unknown>) =>
  owner.post(`/api/memory/database/${p}`, { space_id: space, ...body });
const raw = (p: string, body: Record<string, unknown>) =>
  owner.request('POST', `/api/memory/database/${p}`, { space_id: space, ...body });
const name = () => unique('books').replace(/\W+/g, '_').toLowerCase();
const FIELDS = [
  { name: 'title', type: 1, must_required: true, desc: 'Book title' },
  { name: 'pages', type: 2 },
  { name: 'rating', type: 4 },
  { name: 'read', type: 5 },
  { name: 'added', type: 3 },
];
async function books() {
  const { database_info } = await db('add', {
    table_name: name(),
    table_desc: 'My books',
    field_list: FIELDS,
    rw_mode: 3,
  });
  return database_info as { id: string; field_list: { id: number; name: string; type: number }[] };
}
const rows = async (id: string, extra: Record<string, unknown> = {}) =>
  (await db('list_records', { database_id: id, ...extra })).data as Record<string, string>[];

describe('tables', () => {
  it('are created with typed fields, named by rule, listed and found', async () => {
    const t = await books();
    expect(t.field_list.map((f) => [f.id, f.name, f.type])).toEqual([
      [1, 'title', 1],
      [2, 'pages', 2],
      [3, 'rating', 4],
      [4, 'read', 5],
      [5, 'added', 3],
    ]);
    expect((await raw('add', { table_name: 'Bad Name', field_list: FIELDS })).body.msg).toMatch(/lower-case letters/);
    expect((await raw('add', { table_name: name(), field_list: [{ name: 'uuid', type: 1 }] })).body.msg).toMatch(
      /system field/,
    );
    expect((await raw('add', { table_name: name(), field_list: [] })).body.msg).toMatch(/at least one field/);
    const listed = await db('list', { table_name: 'BOOKS' });
    expect(listed.database_info_list.map((d: { id: string }) => d.id)).toContain(t.id);
    const stranger = (await signUp(studio.url)).agent;
    expect(
      (await stranger.request('POST', '/api/memory/database/get_by_id', { space_id: space, id: t.id })).status,
    ).toBe(403);
  });

  it('keep rows with converted values, refuse what does not convert, filter, sort and page them', async () => {
    const t = await books();
    const added = await db('update_records', {
      database_id: t.id,
      record_data_add: [
        { title: 'Dune', pages: '412', rating: '4.5', read: 'true', added: '2026-01-02' },
        { title: 'Emma', pages: 474, rating: 3, read: false },
        { title: 'Ulysses', pages: '730' },
      ],
    });
    expect(added.data[0]).toMatchObject({
      title: 'Dune',
      pages: '412',
      rating: '4.5',
      read: 'true',
      added: '2026-01-02 00:00:00',
      uuid: expect.any(String),
      id: expect.any(String),
    });
    const bad = await raw('update_records', { database_id: t.id, record_data_add: [{ title: 'X', pages: 'many' }] });
    expect([bad.status, bad.body.msg, bad.body.data]).toEqual([
      400,
      'pages takes a whole number, not "many".',
      { field: 'pages' },
    ]);
    expect((await raw('update_records', { database_id: t.id, record_data_add: [{ pages: 1 }] })).body.msg).toBe(
      'title is required.',
    );
    expect(
      (await raw('update_records', { database_id: t.id, record_data_add: [{ title: 'x', colour: 'red' }] })).body.msg,
    ).toMatch(/no field colour/);
    expect(
      (
        await rows(t.id, {
          conditions: [{ field: 'pages', op: 'gt', value: '450' }],
          order_by_list: [{ field: 'pages', direction: 2 }],
        })
      ).map((r) => r.title),
    ).toEqual(['Ulysses', 'Emma']);
    expect(
      (await rows(t.id, { conditions: [{ field: 'title', op: 'like', value: 'MM' }] })).map((r) => r.title),
    ).toEqual(['Emma']);
    expect((await rows(t.id, { conditions: [{ field: 'rating', op: 'is_null' }] })).map((r) => r.title)).toEqual([
      'Ulysses',
    ]);
    const page = await db('list_records', {
      database_id: t.id,
      limit: 2,
      offset: 0,
      order_by_list: [{ field: 'title', direction: 1 }],
    });
    expect([page.data.map((r: { title: string }) => r.title), page.TotalNum, page.HasMore]).toEqual([
      ['Dune', 'Emma'],
      3,
      true,
    ]);
    // Change and delete by id.
    const dune = added.data[0].id;
    await db('update_records', {
      database_id: t.id,
      record_data_alter: [{ id: dune, rating: '5' }],
      record_data_delete: [{ id: added.data[1].id }],
    });
    expect(
      (await rows(t.id, { order_by_list: [{ field: 'title', direction: 1 }] })).map((r) => [r.title, r.rating]),
    ).toEqual([
      ['Dune', '5'],
      ['Ulysses', ''],
    ]);
  });

  it('keep draft and online data apart, and reset one of them', async () => {
    const t = await books();
    await db('update_records', { database_id: t.id, record_data_add: [{ title: 'draft book' }] });
    await db('update_records', { database_id: t.id, table_type: 2, record_data_add: [{ title: 'online book' }] });
    expect((await rows(t.id)).map((r) => r.title)).toEqual(['draft book']);
    expect((await rows(t.id, { table_type: 2 })).map((r) => r.title)).toEqual(['online book']);
    await db('reset', { database_id: t.id, table_type: 1 });
    expect(await rows(t.id)).toEqual([]);
    expect((await rows(t.id, { table_type: 2 })).length).toBe(1);
  });

  it('show an end user only their rows in a per-user table', async () => {
    const { database_info: t } = await db('add', {
      table_name: name(),
      field_list: [{ name: 'note', type: 1 }],
      rw_mode: 1,
    });
    await db('update_records', { database_id: t.id, record_data_add: [{ note: 'mine' }] });
    const me = (await rows(t.id))[0].uuid;
    expect((await rows(t.id, { uuid: me })).map((r) => r.note)).toEqual(['mine']);
    expect(await rows(t.id, { uuid: 'someone-else' })).toEqual([]);
  });

  it('alter fields: add, rename (values kept), retype with conversion or a refusal that changes nothing, drop', async () => {
    const t = await books();
    await db('update_records', {
      database_id: t.id,
      record_data_add: [
        { title: '12', pages: 100 },
        { title: 'Twelve', pages: 200 },
      ],
    });
    const fields = t.field_list;
    // Rename title -> name and add isbn.
    const renamed = fields.map((f) => (f.name === 'title' ? { ...f, name: 'name' } : f));
    await db('update', { id: t.id, field_list: [...renamed, { name: 'isbn', type: 1 }] });
    expect(
      (await rows(t.id, { order_by_list: [{ field: 'pages', direction: 1 }] })).map((r) => [r.name, r.isbn]),
    ).toEqual([
      ['12', ''],
      ['Twelve', ''],
    ]);
    // name (text) -> whole number: "Twelve" does not convert; nothing changes.
    const info = (await db('get_by_id', { id: t.id })).database_info;
    const toNumber = info.field_list.map((f: { name: string }) => (f.name === 'name' ? { ...f, type: 2 } : f));
    const refused = await raw('update', { id: t.id, field_list: toNumber });
    expect(refused.body.msg).toMatch(
      /name cannot become a whole number: 1 value\(s\) of the draft data do not convert \(for example "Twelve"\)/,
    );
    expect(
      (await db('get_by_id', { id: t.id })).database_info.field_list.find((f: { name: string }) => f.name === 'name')
        .type,
    ).toBe(1);
    // pages (whole number) -> text converts; drop rating.
    const next = info.field_list
      .filter((f: { name: string }) => f.name !== 'rating')
      .map((f: { name: string }) => (f.name === 'pages' ? { ...f, type: 1 } : f));
    await db('update', { id: t.id, field_list: next });
    const after = await rows(t.id, { order_by_list: [{ field: 'name', direction: 1 }] });
    expect(after.map((r) => [r.name, r.pages, 'rating' in r])).toEqual([
      ['12', '100', false],
      ['Twelve', '200', false],
    ]);
    // Text sorts as text now.
    await db('update_records', { database_id: t.id, record_data_add: [{ name: 'Nine', pages: '9' }] });
    expect((await rows(t.id, { order_by_list: [{ field: 'pages', direction: 1 }] })).map((r) => r.pages)).toEqual([
      '100',
      '200',
      '9',
    ]);
  });

  it('are deleted with their data', async () => {
    const t = await books();
    await db('delete', { id: t.id });
    expect((await raw('get_by_id', { id: t.id })).status).toBe(404);
    const tables = await studio.server.database.db.introspection.getTables();
    expect(tables.some((x) => x.name.startsWith(`udt_${t.id}_`))).toBe(false);
  });
});

describe('database nodes', () => {
  const wf = (p: string, body: Record<string, unknown>) =>
    owner.post(`/api/workflow_api/${p}`, { space_id: space, ...body });

  it('add and query rows: test runs use the draft data, published runs the online data, each end user their own rows', async () => {
    const { database_info: t } = await db('add', {
      table_name: name(),
      field_list: [
        { name: 'item', type: 1, must_required: true },
        { name: 'qty', type: 2 },
      ],
      rw_mode: 1,
    });
    const { workflow_id } = await wf('create', { name: unique('shopping') });
    const settings = { database_id: t.id };
    await wf('save', {
      workflow_id,
      schema: {
        nodes: [
          node('start', '1', {
            outputs: [
              { name: 'item', type: 'string', required: true },
              { name: 'qty', type: 'integer' },
            ],
          }),
          node('add', '46', {
            inputs: [ref('item', 'start', ['item']), ref('qty', 'start', ['qty'], 'integer')],
            settings: {
              ...settings,
              values: [
                { field: 'item', input: 'item' },
                { field: 'qty', input: 'qty' },
              ],
            },
          }),
          node('bump', '42', {
            inputs: [ref('item', 'start', ['item']), lit('more', 10, 'integer')],
            settings: {
              ...settings,
              conditions: [{ field: 'item', op: 'eq', input: 'item' }],
              values: [{ field: 'qty', input: 'more' }],
            },
          }),
          node('list', '43', {
            inputs: [lit('min', 1, 'integer')],
            settings: {
              ...settings,
              conditions: [{ field: 'qty', op: 'ge', input: 'min' }],
              order_by: [{ field: 'item', direction: 'asc' }],
            },
          }),
          node('end', '2', {
            inputs: [
              ref('n', 'list', ['rowNum'], 'integer'),
              ref('rows', 'list', ['outputList'], 'array'),
              ref('changed', 'bump', ['rowNum'], 'integer'),
            ],
          }),
        ],
        links: [link('start', 'add'), link('add', 'bump'), link('bump', 'list'), link('list', 'end')],
      },
    });
    const test = await wf('test_run', { workflow_id, input: { item: 'apples', qty: 3 }, run_mode: 0 });
    expect(test.execute_status, test.reason).toBe(2);
    const out = JSON.parse(test.output);
    expect([out.n, out.changed, out.rows.map((r: Record<string, string>) => [r.item, r.qty])]).toEqual([
      1,
      1,
      [['apples', '10']],
    ]);
    expect((await rows(t.id)).map((r) => r.item)).toEqual(['apples']);
    expect(await rows(t.id, { table_type: 2 })).toEqual([]);
    // Published: the online data, per end user.
    await wf('publish', { workflow_id, workflow_version: 'v1.0.0' });
    const pat = await owner.post('/api/permission_api/pat/create', {
      name: 'runner',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['workflow.run'] }],
    });
    const api = new Agent(studio.url, { bearer: pat.token });
    const r1 = await api.request('POST', '/v1/workflow/run', {
      workflow_id,
      parameters: { item: 'pears', qty: 1 },
      ext: { user_id: 'u-1' },
    });
    expect(r1.body.code, r1.body.msg).toBe(0);
    const r2 = await api.request('POST', '/v1/workflow/run', {
      workflow_id,
      parameters: { item: 'plums', qty: 1 },
      ext: { user_id: 'u-2' },
    });
    expect(JSON.parse(r2.body.data).rows.map((r: Record<string, string>) => r.item)).toEqual(['plums']);
    const online = await rows(t.id, { table_type: 2, order_by_list: [{ field: 'item', direction: 1 }] });
    expect(online.map((r) => [r.item, r.uuid])).toEqual([
      ['pears', 'u-1'],
      ['plums', 'u-2'],
    ]);
  });

  it('refuse an update or delete without conditions, and a table of another space', async () => {
    const { database_info: t } = await db('add', {
      table_name: name(),
      field_list: [{ name: 'x', type: 1 }],
      rw_mode: 3,
    });
    const { workflow_id } = await wf('create', { name: unique('wipe') });
    await wf('save', {
      workflow_id,
      schema: {
        nodes: [
          node('start', '1'),
          node('del', '44', { settings: { database_id: t.id, conditions: [] } }),
          node('end', '2'),
        ],
        links: [link('start', 'del'), link('del', 'end')],
      },
    });
    const v = await wf('validate_tree', { workflow_id });
    expect(JSON.stringify(v.errors)).toMatch(/a delete without one would empty the table/);
    const other = (await owner.post('/api/space/create', { name: 'Other' })).space_id;
    const { database_info: foreign } = await owner.post('/api/memory/database/add', {
      space_id: other,
      table_name: name(),
      field_list: [{ name: 'x', type: 1 }],
    });
    await wf('save', {
      workflow_id,
      schema: {
        nodes: [node('start', '1'), node('q', '43', { settings: { database_id: foreign.id } }), node('end', '2')],
        links: [link('start', 'q'), link('q', 'end')],
      },
    });
    const r = await wf('test_run', { workflow_id, input: {}, run_mode: 0 });
    expect(r.reason).toMatch(/not in this space/);
  });
});

describe('SQL over your tables', () => {
  const run = (sqlText: string, params: unknown[] = [], extra: Record<string, unknown> = {}) =>
    owner.request('POST', '/api/memory/database/execute_sql', { space_id: space, sql: sqlText, params, ...extra });
  const ok = async (sqlText: string, params: unknown[] = []) => {
    const r = await run(sqlText, params);
    expect(r.body.code, r.body.msg).toBe(0);
    return r.body.data as { kind: string; rows: Record<string, string>[]; rowNum: number };
  };

  it('selects with conditions, aggregates, grouping, order and limit; inserts, updates and deletes', async () => {
    const { database_info: t } = await db('add', {
      table_name: 'shelf',
      field_list: [
        { name: 'title', type: 1 },
        { name: 'genre', type: 1 },
        { name: 'pages', type: 2 },
      ],
      rw_mode: 3,
    });
    expect(
      (
        await ok(
          "INSERT INTO shelf (title, genre, pages) VALUES ('Dune', 'sf', 412), ('Emma', 'novel', 474), (?, ?, ?)",
          ['Solaris', 'sf', '204'],
        )
      ).rowNum,
    ).toBe(3);
    expect((await ok("SELECT title FROM shelf WHERE genre = 'sf' AND pages > ? ORDER BY title", [300])).rows).toEqual([
      { title: 'Dune' },
    ]);
    expect(
      (await ok('SELECT genre, COUNT(*) AS n, SUM(pages) AS total FROM shelf GROUP BY genre ORDER BY genre')).rows,
    ).toEqual([
      { genre: 'novel', n: '1', total: '474' },
      { genre: 'sf', n: '2', total: '616' },
    ]);
    expect(
      (
        await ok(
          "SELECT title FROM shelf WHERE title IN ('Emma', 'Dune') OR pages BETWEEN 200 AND 210 ORDER BY pages DESC LIMIT 2",
        )
      ).rows.map((r) => r.title),
    ).toEqual(['Emma', 'Dune']);
    expect((await ok("UPDATE shelf SET pages = 500 WHERE title LIKE 'em%'")).rowNum).toBe(1);
    expect((await ok('DELETE FROM shelf WHERE pages < 300')).rowNum).toBe(1);
    expect(
      (await rows(t.id, { order_by_list: [{ field: 'title', direction: 1 }] })).map((r) => [r.title, r.pages]),
    ).toEqual([
      ['Dune', '412'],
      ['Emma', '500'],
    ]);
  });

  it('refuses what is not one statement over your own tables, and keeps values as values', async () => {
    await db('add', { table_name: 'secrets_probe', field_list: [{ name: 'v', type: 1 }], rw_mode: 3 });
    const other = (await owner.post('/api/space/create', { name: 'Elsewhere' })).space_id;
    await owner.post('/api/memory/database/add', {
      space_id: other,
      table_name: 'theirs',
      field_list: [{ name: 'v', type: 1 }],
    });
    const refused = async (sqlText: string, why: RegExp) => {
      const r = await run(sqlText);
      expect([r.status, r.body.msg], sqlText).toEqual([400, expect.stringMatching(why)]);
    };
    await refused('SELECT * FROM theirs', /no table theirs/);
    await refused('SELECT * FROM identity_user', /no table identity_user/);
    await refused('SELECT * FROM sqlite_master', /no table sqlite_master/);
    await refused('SELECT * FROM secrets_probe; DELETE FROM secrets_probe', /one statement/);
    await refused('SELECT * FROM secrets_probe -- hidden', /Comments/);
    await refused('SELECT * FROM secrets_probe /* x */', /Comments/);
    await refused("ATTACH DATABASE '/etc/passwd' AS x", /not SQL this studio reads|Only SELECT/);
    await refused('PRAGMA table_info(secrets_probe)', /not SQL this studio reads|Only SELECT/);
    await refused("SELECT readfile('/etc/passwd') FROM secrets_probe", /not .*function READFILE|A SELECT lists fields/);
    await refused('SELECT * FROM secrets_probe WHERE v = (SELECT v FROM theirs)', /value|subquery/);
    await refused('SELECT * FROM secrets_probe a JOIN theirs b ON a.v = b.v', /one table|joins/);
    await refused('DROP TABLE secrets_probe', /Only SELECT/);
    await refused('DELETE FROM secrets_probe', /WHERE/);
    await refused('SELECT uuid, nothing FROM secrets_probe', /no field nothing/);
    // What the subset does not support is refused by name, never answered in part or dropped.
    await refused(
      'SELECT v FROM secrets_probe UNION SELECT v FROM theirs',
      /^UNION \(and other set operations\) is not supported in SELECT here/,
    );
    await refused('SELECT v FROM secrets_probe UNION ALL SELECT v FROM secrets_probe', /UNION/);
    await refused("UPDATE secrets_probe SET id = 7 WHERE v = 'a'", /^id is a system field .*an UPDATE cannot\.$/);
    await refused("UPDATE secrets_probe SET uuid = 'x' WHERE v = 'a'", /uuid is a system field/);
    await refused(
      "UPDATE secrets_probe SET v = 'b' WHERE v = 'a' ORDER BY v LIMIT 1",
      /ORDER BY is not supported in UPDATE/,
    );
    await refused("DELETE FROM secrets_probe WHERE v = 'a' LIMIT 1", /LIMIT is not supported in DELETE/);
    await refused("INSERT OR REPLACE INTO secrets_probe (v) VALUES ('a')", /INSERT OR \.\.\. is not supported/);
    // What the database itself refuses (an average of text on PostgreSQL) is the caller's error, not a 500.
    expect((await run('SELECT AVG(v) AS a FROM secrets_probe')).status).toBeLessThan(500);
    // An injection attempt in a value is stored as the value it is.
    const evil = "x'); DROP TABLE secrets_probe; --";
    await ok('INSERT INTO secrets_probe (v) VALUES (?)', [evil]);
    expect((await ok('SELECT v FROM secrets_probe WHERE v = ?', [evil])).rows).toEqual([{ v: evil }]);
  });

  it("keeps an end user to their own rows of a per-user table through the service's SQL", async () => {
    const { database_info: t } = await db('add', {
      table_name: 'diary',
      field_list: [{ name: 'entry', type: 1 }],
      rw_mode: 1,
    });
    await db('update_records', { database_id: t.id, table_type: 2, record_data_add: [{ entry: 'owner wrote this' }] });
    // Through a published workflow with a custom SQL node, as two end users.
    const { workflow_id } = await owner.post('/api/workflow_api/create', { space_id: space, name: unique('diary') });
    await owner.post('/api/workflow_api/save', {
      space_id: space,
      workflow_id,
      schema: {
        nodes: [
          node('start', '1', { outputs: [{ name: 'text', type: 'string', required: true }] }),
          node('add', '12', {
            inputs: [ref('text', 'start', ['text'])],
            settings: { sql: 'INSERT INTO diary (entry) VALUES ({{text}})' },
          }),
          node('read', '12', { settings: { sql: 'SELECT entry FROM diary ORDER BY bstudio_create_time' } }),
          node('end', '2', { inputs: [ref('rows', 'read', ['outputList'], 'array')] }),
        ],
        links: [link('start', 'add'), link('add', 'read'), link('read', 'end')],
      },
    });
    await owner.post('/api/workflow_api/publish', {
      space_id: space,
      workflow_id,
      workflow_version: 'v1.0.0',
      force: true,
    });
    const pat = await owner.post('/api/permission_api/pat/create', {
      name: 'diary',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['workflow.run'] }],
    });
    const api = new Agent(studio.url, { bearer: pat.token });
    const as = async (user: string, text: string) => {
      const r = await api.request('POST', '/v1/workflow/run', {
        workflow_id,
        parameters: { text },
        ext: { user_id: user },
      });
      expect(r.body.code, r.body.msg).toBe(0);
      return JSON.parse(r.body.data).rows.map((x: { entry: string }) => x.entry);
    };
    expect(await as('ann', "ann's day')); DELETE FROM diary; --")).toEqual(["ann's day')); DELETE FROM diary; --"]);
    expect(await as('bob', "bob's day")).toEqual(["bob's day"]);
    expect((await rows(t.id, { table_type: 2 })).length).toBe(3);
  });
});

describe('NL2SQL', () => {
  it('turns a question into checked SQL with the model, shows it and runs it; refuses what the model writes outside the subset', async () => {
    const { startFakeLlm, addFakeModel } = await import('../fixtures/fake-llm.ts');
    const llm = await startFakeLlm();
    try {
      const model = await addFakeModel(owner, llm.url);
      const { database_info: t } = await db('add', {
        table_name: 'orders',
        table_desc: 'Shop orders',
        field_list: [
          { name: 'customer', type: 1 },
          { name: 'total', type: 4, desc: 'in euros' },
        ],
        rw_mode: 3,
      });
      await db('update_records', {
        database_id: t.id,
        record_data_add: [
          { customer: 'Ada', total: 30 },
          { customer: 'Bo', total: 120 },
        ],
      });
      llm.script({ text: '```sql\nSELECT customer FROM orders WHERE total > 100;\n```' });
      const r = await owner.post('/api/memory/table_nl2sql', {
        space_id: space,
        question: 'Who spent over 100?',
        model_id: model,
        database_ids: [t.id],
      });
      expect(r).toMatchObject({
        sql: 'SELECT customer FROM orders WHERE total > 100',
        result: { kind: 'select', rows: [{ customer: 'Bo' }] },
      });
      // The model saw the tables and the rules.
      expect(llm.requests[0].body.messages[0].content).toMatch(
        /TABLE orders -- Shop orders[\s\S]*total number -- in euros[\s\S]*exactly one SQL statement/,
      );
      llm.script({ text: 'DELETE FROM orders WHERE 1 = 1; DROP TABLE orders' });
      const bad = await owner.post('/api/memory/table_nl2sql', {
        space_id: space,
        question: 'Remove everything',
        model_id: model,
        database_ids: [t.id],
      });
      expect(bad.refused).toMatch(/one statement/);
      expect((await rows(t.id)).length).toBe(2);
    } finally {
      await llm.close();
    }
  });
});

describe('CSV import and export', () => {
  it('imports as a job with progress and per-row errors, and exports what is there', async () => {
    const { database_info: t } = await db('add', {
      table_name: 'people',
      field_list: [
        { name: 'name', type: 1, must_required: true },
        { name: 'age', type: 2 },
        { name: 'joined', type: 3 },
      ],
      rw_mode: 3,
    });
    const csv =
      '\ufeffname,age,joined\nAda,36,2026-01-02\n"Lovelace, Ada",x,2026-01-03\n,20,\nBo,41,2026-02-03 10:00\n';
    const started = await db('import', { database_id: t.id, file_name: 'people.csv', content: csv });
    expect(started.status).toMatch(/queued|running|done/);
    let p = started;
    for (let i = 0; i < 50 && p.status !== 'done' && p.status !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      p = await db('import_progress', { import_id: started.import_id });
    }
    expect(p).toMatchObject({ status: 'done', total: 4, done: 2, failed: 2, progress: 100 });
    expect(p.errors).toEqual([
      { line: 3, message: 'age takes a whole number, not "x".' },
      { line: 4, message: 'name is required.' },
    ]);
    expect(
      (await rows(t.id, { order_by_list: [{ field: 'name', direction: 1 }] })).map((r) => [r.name, r.age, r.joined]),
    ).toEqual([
      ['Ada', '36', '2026-01-02 00:00:00'],
      ['Bo', '41', '2026-02-03 10:00:00'],
    ]);
    const exported = await owner.request('GET', `/api/memory/database/export?space_id=${space}&database_id=${t.id}`);
    expect(exported.headers.get('content-type')).toMatch(/text\/csv/);
    expect(String(exported.body).replace(/^\ufeff/, '')).toBe(
      'name,age,joined\nAda,36,2026-01-02 00:00:00\nBo,41,2026-02-03 10:00:00\n',
    );
    // A header naming a field the table does not have fails the import with the reason.
    const bad = await db('import', { database_id: t.id, content: 'name,colour\nx,red\n' });
    let q = bad;
    for (let i = 0; i < 50 && q.status !== 'done' && q.status !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      q = await db('import_progress', { import_id: bad.import_id });
    }
    expect(q).toMatchObject({ status: 'failed', message: expect.stringMatching(/colour/) });
  });
});

describe('XLSX import', () => {
  it('reads the first sheet of a workbook: text, numbers and dates', async () => {
    const ExcelJS = (await import('exceljs')).default;
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('People');
    sheet.addRow(['name', 'age', 'joined']);
    sheet.addRow(['Ada', 36, new Date(Date.UTC(2026, 0, 2))]);
    sheet.addRow(['Bo', 'old', new Date(Date.UTC(2026, 1, 3, 10))]);
    const content = Buffer.from(await book.xlsx.writeBuffer()).toString('base64');
    const { database_info: t } = await db('add', {
      table_name: 'xlsx_people',
      field_list: [
        { name: 'name', type: 1 },
        { name: 'age', type: 2 },
        { name: 'joined', type: 3 },
      ],
      rw_mode: 3,
    });
    const job = await db('import', { database_id: t.id, format: 'xlsx', file_name: 'people.xlsx', content });
    let p = job;
    for (let i = 0; i < 60 && p.status !== 'done' && p.status !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      p = await db('import_progress', { import_id: job.import_id });
    }
    expect(p).toMatchObject({
      status: 'done',
      total: 2,
      done: 1,
      failed: 1,
      errors: [{ line: 3, message: 'age takes a whole number, not "old".' }],
    });
    expect((await rows(t.id)).map((r) => [r.name, r.age, r.joined])).toEqual([['Ada', '36', '2026-01-02 00:00:00']]);
    const broken = await db('import', {
      database_id: t.id,
      format: 'xlsx',
      content: Buffer.from('not a workbook').toString('base64'),
    });
    let q = broken;
    for (let i = 0; i < 60 && q.status !== 'done' && q.status !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      q = await db('import_progress', { import_id: broken.import_id });
    }
    expect(q).toMatchObject({ status: 'failed', message: expect.stringMatching(/not an XLSX workbook/) });
  });
});
