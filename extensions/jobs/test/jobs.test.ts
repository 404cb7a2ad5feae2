import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { readSpreadsheet, writeSpreadsheet } from '@tessera/sdk/server';
import { WorkflowRunnerService, type WorkflowRunner, type WorkflowRunRequest } from '@tessera/workflow-sdk';
import jobs from '../src/server/index.ts';

// Batch jobs alone, with a stand-in workflow runner whose runs can be held (to cancel a job mid-way) and made to
// fail by their input.
let published: string | null = '1.0.0';
let inFlight = 0;
let maxInFlight = 0;
let gate: Promise<void> | undefined;
let openGate: () => void = () => undefined;
const ran: WorkflowRunRequest[] = [];
const runner: WorkflowRunner = {
  async run(req) {
    ran.push(req);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      // A run takes a turn of the event loop at least (as a real one does), so runs overlap.
      await new Promise((resolve) => setImmediate(resolve));
      if (gate)
        await Promise.race([
          gate,
          new Promise((resolve) => req.signal?.addEventListener('abort', resolve, { once: true })),
        ]);
      if (req.signal?.aborted)
        return { execute_id: `x${ran.length}`, status: 'cancel', usage: { input_tokens: 0, output_tokens: 0 } };
      const city = String(req.input.city);
      if (city.startsWith('Fail'))
        return {
          execute_id: `x${ran.length}`,
          status: 'fail',
          error: `no weather for ${city}`,
          usage: { input_tokens: 0, output_tokens: 0 },
        };
      return {
        execute_id: `x${ran.length}`,
        status: 'success',
        output: { forecast: `${city}: sunny for ${String(req.input.days ?? 1)} day(s)` },
        usage: { input_tokens: 0, output_tokens: 0 },
      };
    } finally {
      inFlight--;
    }
  },
  async info(workflowId, spaceId) {
    if (workflowId !== 'w1' || spaceId !== 's1')
      throw Object.assign(new Error('There is no workflow here.'), { status: 404 });
    return {
      workflow_id: 'w1',
      space_id: 's1',
      name: 'Forecast',
      description: '',
      flow_mode: 0,
      latest_version: published,
      inputs: [
        { name: 'city', type: 'string', required: true },
        { name: 'days', type: 'integer' },
        { name: 'tags', type: 'array', items: 'string' },
      ],
    };
  },
  async spaceOf() {
    return 's1';
  },
};

let t: ExtensionTester;
beforeAll(async () => {
  t = await createExtensionTester(jobs, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [{ id: 'identity' }, { id: 'spaces' }, { id: 'workflow', services: [[WorkflowRunnerService, runner]] }],
    users: { ann: { userId: 'ann' }, bob: { userId: 'bob' } },
    spaces: { s1: { ann: 'member' }, s2: { bob: 'member' } },
  });
});
afterAll(() => t.close());
beforeEach(() => {
  published = '1.0.0';
  ran.length = 0;
  maxInFlight = 0;
  gate = undefined;
});

const call = (url: string, body: Record<string, unknown>) =>
  t.call('POST', `/api/workflow_api/${url}`, { space_id: 's1', ...body }, 'ann');
const csv = (rows: string[]) => rows.join('\n');
const rowsOf = (n: number, city = (i: number) => `City ${i}`) =>
  csv(['city,days', ...Array.from({ length: n }, (_, i) => `${city(i)},${(i % 5) + 1}`)]);
const create = (content: string, extra: Record<string, unknown> = {}) =>
  call('job_create', { workflow_id: 'w1', job_name: 'Forecasts', content, file_name: 'cities.csv', ...extra });
const detail = async (id: string) => (await call('job_detail', { job_id: id })).job;

describe('the input file', () => {
  it('is checked against the Start inputs, each error named by its row and column', async () => {
    const r = await call('job_validate_input', {
      workflow_id: 'w1',
      content: csv(['city,days,tags,colour', 'Oslo,3,"[""a""]",red', ',2,,', 'Lima,two,,', 'Rome,1,"{""x"":1}",']),
    });
    expect(r).toMatchObject({ valid: false, rows: 4, columns: ['city', 'days', 'tags'], error_count: 4 });
    expect(r.errors).toEqual([
      { row: 1, column: 'colour', message: 'The workflow has no input "colour" (it has city, days, tags).' },
      { row: 3, column: 'city', message: '"city" is required.' },
      { row: 4, column: 'days', message: '"two" is not a whole number.' },
      { row: 5, column: 'tags', message: 'The JSON is not an array.' },
    ]);
    const broken = await call('job_validate_input', { workflow_id: 'w1', content: 'city,days\n"Oslo,3\nLima,2' });
    expect(broken.errors[0]).toMatchObject({
      row: 0,
      column: '',
      message: expect.stringMatching(/^The file is not CSV this studio reads: .*line/i),
    });
    const missing = await call('job_validate_input', { workflow_id: 'w1', content: 'days\n3' });
    expect(missing.errors).toEqual([{ row: 1, column: 'city', message: 'The required input "city" has no column.' }]);
    // An XLSX workbook is read from its first sheet.
    const book = (
      await writeSpreadsheet(
        [
          ['city', 'days'],
          ['Oslo', '3'],
        ],
        'xlsx',
      )
    ).toString('base64');
    expect(await call('job_validate_input', { workflow_id: 'w1', content: book, format: 'xlsx' })).toMatchObject({
      valid: true,
      rows: 1,
    });
  });

  it('has a template with a column per Start input, as CSV or XLSX', async () => {
    const r = await t.request({ url: '/api/workflow_api/job_input_template?space_id=s1&workflow_id=w1', as: 'ann' });
    expect(r.headers['content-type']).toMatch(/^text\/csv/);
    expect(r.headers['content-disposition']).toContain('Forecast-input.csv');
    expect(r.text.replace(/^\ufeff/, '').trim()).toBe('city,days,tags');
    const x = await t.server.app.inject({
      url: '/api/workflow_api/job_input_template?space_id=s1&workflow_id=w1&format=xlsx',
      headers: { 'x-test-user': 'ann' },
    });
    expect(await readSpreadsheet(x.rawPayload, 'xlsx')).toEqual([['city', 'days', 'tags']]);
  });

  it('with errors, makes no job; a workflow not published makes none either', async () => {
    const bad = await t.request({
      method: 'POST',
      url: '/api/workflow_api/job_create',
      body: { space_id: 's1', workflow_id: 'w1', job_name: 'x', content: csv(['city,days', 'Oslo,x']) },
      as: 'ann',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('The file has 1 error(s); the first: row 2, column "days": "x" is not a whole number.');
    published = null;
    const unpublished = await t.request({
      method: 'POST',
      url: '/api/workflow_api/job_create',
      body: { space_id: 's1', workflow_id: 'w1', job_name: 'x', content: rowsOf(1) },
      as: 'ann',
    });
    expect(unpublished.body.msg).toBe('Publish "Forecast" first: a batch job runs a published version.');
    expect((await call('job_list', {})).total).toBe(0);
  });
});

describe('a job', () => {
  it('runs a thousand rows on the published version, at most its concurrency at once, and gives a file of inputs and outputs', async () => {
    const { job } = await create(rowsOf(1000), { concurrency: 8 });
    expect(job).toMatchObject({ status: 0, total: 1000, workflow_version: '1.0.0', progress: 0 });
    await t.server.queue.drain();
    expect(await detail(job.job_id)).toMatchObject({ status: 2, success: 1000, failed: 0, progress: 100 });
    expect(maxInFlight).toBeLessThanOrEqual(8);
    expect(maxInFlight).toBeGreaterThan(1);
    expect(ran[0]).toMatchObject({ version: '1.0.0', userId: 'ann', input: { city: 'City 0', days: 1 } });
    const out = await t.request({ url: `/api/workflow_api/job_output?space_id=s1&job_id=${job.job_id}`, as: 'ann' });
    const rows = await readSpreadsheet(out.text, 'csv');
    expect(rows[0]).toEqual(['city', 'days', 'forecast', 'status', 'error', 'execute_id']);
    expect(rows).toHaveLength(1001);
    expect(rows[1]).toEqual([
      'City 0',
      '1',
      'City 0: sunny for 1 day(s)',
      'success',
      '',
      expect.stringMatching(/^x\d+$/),
    ]);
  });

  it('of a thousand rows is cancelled mid-way, then its cancelled tasks are retried to the end', async () => {
    gate = new Promise((r) => (openGate = r));
    const { job } = await create(rowsOf(1000), { concurrency: 4 });
    await expect.poll(() => ran.length).toBe(4);
    const cancelled = (await call('job_cancel', { job_id: job.job_id })).job;
    expect(cancelled.status).toBe(4);
    await t.server.queue.drain();
    const after = await detail(job.job_id);
    expect(after).toMatchObject({ status: 4, success: 0, cancelled: 1000, progress: 100 });
    expect(ran.length).toBe(4); // no task started after the cancel
    expect((await call('task_list', { job_id: job.job_id, status: 4, size: 1 })).total).toBe(1000);

    gate = undefined;
    const retried = await call('task_retry', { job_id: job.job_id });
    expect(retried.retried).toBe(1000);
    await t.server.queue.drain();
    expect(await detail(job.job_id)).toMatchObject({ status: 2, success: 1000, cancelled: 0 });
    openGate();
  });

  it('with failed rows ends failed, lists them with their errors, and retries those named', async () => {
    const { job } = await create(rowsOf(6, (i) => (i % 3 === 0 ? `Fail ${i}` : `City ${i}`)));
    await t.server.queue.drain();
    expect(await detail(job.job_id)).toMatchObject({ status: 3, success: 4, failed: 2 });
    const failed = (await call('task_list', { job_id: job.job_id, status: 3 })).tasks;
    expect(failed.map((x: { row: number; error: string }) => [x.row, x.error])).toEqual([
      [2, 'no weather for Fail 0'],
      [5, 'no weather for Fail 3'],
    ]);
    // A single waiting task can be cancelled; an ended one cannot.
    const ended = await t.request({
      method: 'POST',
      url: '/api/workflow_api/task_cancel',
      body: { space_id: 's1', job_id: job.job_id, task_id: failed[0].task_id },
      as: 'ann',
    });
    expect(ended.status).toBe(409);
    const r = await call('task_retry', { job_id: job.job_id, task_ids: [failed[0].task_id] });
    expect(r.retried).toBe(1);
    await t.server.queue.drain();
    expect(await detail(job.job_id)).toMatchObject({ status: 3, success: 4, failed: 2 }); // it fails again
    const tasks = (await call('task_list', { job_id: job.job_id, status: 3 })).tasks;
    expect(tasks[0].attempts).toBe(2);
  });

  it("is kept to its space's members", async () => {
    const { job } = await create(rowsOf(1));
    const other = await t.request({
      method: 'POST',
      url: '/api/workflow_api/job_detail',
      body: { space_id: 's2', job_id: job.job_id },
      as: 'bob',
    });
    expect(other.status).toBe(404);
    const notMember = await t.request({
      method: 'POST',
      url: '/api/workflow_api/job_detail',
      body: { space_id: 's1', job_id: job.job_id },
      as: 'bob',
    });
    expect(notMember.status).toBe(403);
    const out = await t.request({ url: `/api/workflow_api/job_output?space_id=s1&job_id=${job.job_id}`, as: 'bob' });
    expect(out.status).toBe(403);
    await t.server.queue.drain();
  });
});
