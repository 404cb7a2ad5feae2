import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Agent, signUp } from '../agent.ts';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { MCP_TOKEN, startMcpServer } from '../fixtures/mcp-server.ts';
import { API_KEY, petStoreOpenApi3, startPluginServer, type PluginServer } from '../fixtures/plugin-server.ts';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { unique } from '../workflow-kit.ts';

// The agent workspace with the whole studio: a task planned and carried out with an MCP tool, a plugin API and the
// code sandbox, writing a file; its question answered; pause and resume across a restart; the step limit; replays.
let studio: RunningStudio;
let llm: FakeLlm;
let pets: PluginServer;
let mcp: Awaited<ReturnType<typeof startMcpServer>>;
let owner: Agent;
let space: string;
let model: string;
const env = { TESSERA_ALLOW_PRIVATE_NETWORK: 'true', TESSERA_EXT_AGENT_WORKSPACE: '{"maxRunning":20}' };

beforeAll(async () => {
  [llm, pets, mcp] = await Promise.all([startFakeLlm(), startPluginServer(), startMcpServer()]);
  studio = await startStudio({ env });
  owner = (await signUp(studio.url, 'agent-owner')).agent;
  space = (await owner.post('/api/space/create', { name: 'Agents' })).space_id;
  model = await addFakeModel(owner, llm.url, { capabilities: { function_call: true } });
});
afterAll(async () => {
  await studio?.close();
  await Promise.all([llm?.close(), pets?.close(), mcp?.close()]);
});
beforeEach(() => llm.reset());

const plan = (...titles: string[]) => ({ text: JSON.stringify({ steps: titles.map((title) => ({ title })) }) });
const info = async (a: Agent, id: string) => (await a.post('/api/agent_space/task/info', { task_id: id })).task;
const settled = (a: Agent, id: string, status: string, timeout = 20_000) =>
  expect.poll(async () => (await info(a, id)).status, { timeout }).toBe(status);
const log = async (id: string) => (await owner.post('/api/agent_space/task/messages', { task_id: id })).messages;
async function newTask(body: Record<string, unknown>) {
  return (await owner.post('/api/agent_space/task/create', { space_id: space, model_id: model, ...body })).task;
}

describe('an agent task', () => {
  it('plans, calls an MCP tool, a plugin API and the sandbox, writes a file and sums up', async () => {
    const server = await owner.post('/api/mcp/server/create', {
      space_id: space,
      name: unique('Calc'),
      transport: 'streamable_http',
      url: `${mcp.url}/mcp`,
      headers: [{ name: 'Authorization', value: `Bearer ${MCP_TOKEN}` }],
    });
    const { plugin_id } = await owner.post('/api/plugin_api/register', {
      space_id: space,
      openapi: petStoreOpenApi3(pets.url),
      name: unique('Pets'),
      service_token: API_KEY,
    });
    const apis = (await owner.post('/api/plugin_api/get_plugin_info', { space_id: space, plugin_id })).api_info;
    const getPet = apis.find((a: { name: string }) => a.name === 'getPet');
    llm.script(
      plan('Add the numbers', 'Look up pet 1', 'Write the report'),
      { toolCalls: [{ name: 'add', arguments: { a: 20, b: 22 } }] },
      { text: '20 + 22 = 42.' },
      { toolCalls: [{ name: 'getPet', arguments: { petId: 1 } }] },
      { text: 'Pet 1 is Rex.' },
      {
        toolCalls: [
          {
            name: 'run_code',
            arguments: {
              language: 'javascript',
              code: 'async function main({ params }) { return { files: { "report.md": "# Report\\n\\n- **42**\\n- Rex\\n" }, seen: Object.keys(params.files) }; }',
            },
          },
        ],
      },
      { text: 'Wrote report.md.' },
      { text: 'The sum is 42, pet 1 is Rex; see report.md.' },
    );
    const task = await newTask({
      query: 'Add 20 and 22, look up pet 1, and write a report.',
      tools: {
        mcp: { tools: [{ server_id: server.server_id, tool: 'add' }] },
        plugins: { apis: [{ plugin_id, api_id: getPet.api_id }] },
      },
    });
    expect(task).toMatchObject({ status: 'planning', task_name: 'Add 20 and 22, look up pet 1, and write a report.' });
    await settled(owner, task.task_id, 'finished');
    const done = await info(owner, task.task_id);
    expect(done.plan.map((s: { title: string; status: string }) => [s.title, s.status])).toEqual([
      ['Add the numbers', 'done'],
      ['Look up pet 1', 'done'],
      ['Write the report', 'done'],
    ]);
    expect(done.plan[1].result).toBe('Pet 1 is Rex.');
    expect(done).toMatchObject({ end_code: 'finished', end_reason: 'The task is done.' });
    expect(done.usage.steps).toBe(6);
    const lines = await log(task.task_id);
    const results = lines.filter((m: { kind: string }) => m.kind === 'tool_result');
    expect(results.map((m: { tool_name: string; data: string }) => [m.tool_name, JSON.parse(m.data)])).toEqual([
      ['add', { sum: 42 }],
      ['getPet', expect.objectContaining({ id: 1, name: 'Rex' })],
      ['run_code', { files: ['report.md'], seen: [] }],
    ]);
    expect(lines.map((m: { kind: string }) => m.kind)).toEqual(
      expect.arrayContaining(['user', 'plan', 'tool_call', 'file', 'answer', 'summary', 'notice']),
    );
    expect(lines.find((m: { kind: string }) => m.kind === 'summary').content).toContain('42');
    expect(pets.seen.at(-1)!.headers['x-api-key']).toBe(API_KEY);
    // The model saw the tools by name, with the workspace's own.
    const names = llm.requests[1].body.tools.map((t: { function: { name: string } }) => t.function.name);
    expect(names).toEqual(expect.arrayContaining(['add', 'getPet', 'run_code', 'write_file', 'ask_user']));
    // The file is the task's, downloadable, and exported as Word.
    const { files } = await owner.post('/api/agent_space/task/file/list', { task_id: task.task_id });
    expect(files).toEqual([expect.objectContaining({ name: 'report.md', origin: 'output', mime: 'text/markdown' })]);
    const content = await owner.request(
      'GET',
      `/api/agent_space/task/file/content?task_id=${task.task_id}&file_id=${files[0].file_id}`,
    );
    expect(content.body).toContain('# Report');
    const docx = await fetch(
      `${studio.url}/api/agent_space/task/export?task_id=${task.task_id}&file_id=${files[0].file_id}&format=docx`,
      { headers: { cookie: [...owner.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } },
    );
    expect(docx.headers.get('content-type')).toContain('wordprocessingml');
    expect(
      Buffer.from(await docx.arrayBuffer())
        .subarray(0, 2)
        .toString(),
    ).toBe('PK');
    const md = await owner.request('GET', `/api/agent_space/task/export?task_id=${task.task_id}&format=md`);
    expect(md.body).toContain('## Summary');
    expect(md.body).toContain('Pet 1 is Rex.');
    // The report as PDF: its text read back.
    const pdf = await fetch(`${studio.url}/api/agent_space/task/export?task_id=${task.task_id}&format=pdf`, {
      headers: { cookie: [...owner.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = new Uint8Array(await pdf.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    const { extractText } = await import('unpdf');
    const { text } = await extractText(bytes, { mergePages: true });
    expect(text).toContain('Summary');
    expect(text).toContain('Pet 1 is Rex.');
  });

  it('waits for the answer to its question, then goes on with it', async () => {
    llm.script(
      plan('Pick the colour'),
      { toolCalls: [{ name: 'ask_user', arguments: { question: 'Red or blue?' } }] },
      { text: 'Blue it is.' },
      { text: 'Blue was chosen.' },
    );
    const task = await newTask({ query: 'Choose a colour with me.' });
    await settled(owner, task.task_id, 'waiting_user');
    expect((await info(owner, task.task_id)).question).toBe('Red or blue?');
    await owner.post('/api/agent_space/task/chat', { task_id: task.task_id, query: 'Blue' });
    await settled(owner, task.task_id, 'finished');
    // The step was taken again with the question and the answer in view.
    const retry = llm.requests[2].body.messages[0].content as string;
    expect(retry).toContain('You asked the person: Red or blue?');
    expect(retry).toContain('The person said: Blue');
  });

  it('stops at its step limit with a reason a person can act on', async () => {
    llm.script(plan('One', 'Two', 'Three'), { text: 'One done.' }, { text: 'Two done.' }, { text: 'never asked' });
    const task = await newTask({ query: 'Count to three.', limits: { max_steps: 2 } });
    await settled(owner, task.task_id, 'stopped');
    const t = await info(owner, task.task_id);
    expect(t).toMatchObject({ end_code: 'step_limit', usage: expect.objectContaining({ steps: 2 }) });
    expect(t.end_reason).toMatch(/limit of 2 steps/);
    expect(t.plan.map((s: { status: string }) => s.status)).toEqual(['done', 'done', 'pending']);
    const zh = await owner.request(
      'POST',
      '/api/agent_space/task/info',
      { task_id: task.task_id },
      { 'accept-language': 'zh-CN' },
    );
    expect(zh.body.data.task.end_reason).toContain('2 步的上限');
  });

  it('waits for its plan to be confirmed, which the person may change first', async () => {
    llm.script(plan('Draft', 'Polish'), { text: 'Drafted and polished.' }, { text: 'Finished.' });
    const task = await newTask({ query: 'Write a haiku.', task_run_mode: 'confirm_plan' });
    await settled(owner, task.task_id, 'waiting_plan');
    await owner.post('/api/agent_space/task/plan/update', {
      task_id: task.task_id,
      steps: [{ title: 'Write it in one go' }],
    });
    await owner.post('/api/agent_space/task/operate', { task_id: task.task_id, operate_type: 'start' });
    await settled(owner, task.task_id, 'finished');
    expect((await info(owner, task.task_id)).plan.map((s: { title: string }) => s.title)).toEqual([
      'Write it in one go',
    ]);
  });

  it('refuses what is not right with a clear error, and is its creator’s alone', async () => {
    const bad = await owner.request('POST', '/api/agent_space/task/create', {
      space_id: space,
      model_id: model,
      query: 'x',
      tools: { nope: {} },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('no tool kind "nope"');
    const badMcp = await owner.request('POST', '/api/agent_space/task/create', {
      space_id: space,
      model_id: model,
      query: 'x',
      tools: { mcp: { tools: 'all' } },
    });
    expect(badMcp.status).toBe(400);
    expect(badMcp.body.msg).toMatch(/^The tools of the task are not right: mcp: tools/);
    llm.script(plan('Only'), { text: 'ok' }, { text: 'ok' });
    const task = await newTask({ query: 'Mine.' });
    await settled(owner, task.task_id, 'finished');
    const other = await signUp(studio.url, 'agent-member');
    await owner.post('/api/space/member/add', { space_id: space, user_ids: [other.user.user_id] });
    const peek = await other.agent.request('POST', '/api/agent_space/task/info', { task_id: task.task_id });
    expect(peek.status).toBe(404);
    expect(peek.body.msg).toBe(`There is no task ${task.task_id}.`);
    const listed = await other.agent.post('/api/agent_space/task/list', { space_id: space });
    expect(listed.tasks).toEqual([]);
    // Tokens work on the open API only: the workspace's calls refuse them.
    const pat = await owner.post('/api/permission_api/pat/create', {
      name: 'agent',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['bot.read'] }],
    });
    const byToken = await new Agent(studio.url, { bearer: pat.token }).request('POST', '/api/agent_space/task/list', {
      space_id: space,
    });
    expect(byToken.status).toBe(403);
  });
});

describe('replays', () => {
  it('show an ended task to whoever has the link with its secret, and nothing else', async () => {
    llm.script(
      plan('Write'),
      { toolCalls: [{ name: 'write_file', arguments: { name: 'notes.md', content: 'hello' } }] },
      { text: 'Written.' },
      { text: 'Notes written.' },
    );
    const task = await newTask({ query: 'Write notes.' });
    const early = await owner.request('POST', '/api/agent_space/replay/create', { task_id: task.task_id });
    expect(early.status).toBe(409);
    await settled(owner, task.task_id, 'finished');
    const rated = await owner.post('/api/agent_space/task/feedback', {
      task_id: task.task_id,
      digg: true,
      feel: 'good',
      content: 'Useful notes.',
    });
    expect(rated.task).toMatchObject({ digg: true, feel: 'good' });
    const {
      share,
      secret,
      path: link,
    } = await owner.post('/api/agent_space/replay/create', {
      task_id: task.task_id,
    });
    expect(link).toBe(`/replay/${share.task_share_id}#${secret}`);
    const stranger = new Agent(studio.url);
    const wrong = await stranger.request('POST', '/api/agent_space/replay/get', {
      task_share_id: share.task_share_id,
      secret: 'guess',
    });
    expect(wrong.status).toBe(403);
    expect(wrong.body.msg).toContain('not valid');
    const { replay } = await stranger.post('/api/agent_space/replay/get', {
      task_share_id: share.task_share_id,
      secret,
    });
    expect(replay).toMatchObject({ task_name: 'Write notes.', status: 'finished' });
    expect(replay.files.map((f: { name: string }) => f.name)).toEqual(['notes.md']);
    const text = JSON.stringify(replay);
    expect(text).not.toContain(space);
    expect(text).not.toContain(model);
    const file = await stranger.request('POST', '/api/agent_space/replay/file', {
      task_share_id: share.task_share_id,
      secret,
      file_id: replay.files[0].file_id,
    });
    expect(file.body).toBe('hello');
    // Another task's file is not reachable through this link.
    const others = await owner.post('/api/agent_space/task/list', { space_id: space });
    const first = others.tasks.find((t: { task_name: string }) => t.task_name.startsWith('Add 20'));
    const theirs = (await owner.post('/api/agent_space/task/file/list', { task_id: first.task_id })).files[0];
    const cross = await stranger.request('POST', '/api/agent_space/replay/file', {
      task_share_id: share.task_share_id,
      secret,
      file_id: theirs.file_id,
    });
    expect(cross.status).toBe(404);
    // Revoked: the link stops working.
    await owner.post('/api/agent_space/replay/operate', {
      task_share_id: share.task_share_id,
      operate_type: 'revoke',
    });
    const gone = await stranger.request('POST', '/api/agent_space/replay/get', {
      task_share_id: share.task_share_id,
      secret,
    });
    expect(gone.status).toBe(403);
  });
});

describe('scheduled tasks', () => {
  it('run with their plan on a try run, listed as their runs', async () => {
    const { scheduled } = await owner.post('/api/agent_space/scheduled_task/create', {
      space_id: space,
      scheduled_task_name: 'Morning report',
      trigger: { cron: '0 8 * * *', time_zone: 'Asia/Shanghai' },
      task: { query: 'Report the weather.', model_id: model },
      task_plan: [{ title: 'Say it is sunny' }],
    });
    expect(scheduled).toMatchObject({ status: 'enabled', next_run_at: expect.any(String) });
    const bad = await owner.request('POST', '/api/agent_space/scheduled_task/create', {
      space_id: space,
      scheduled_task_name: 'Bad',
      trigger: { cron: 'every day', time_zone: 'UTC' },
      task: { query: 'x', model_id: model },
    });
    expect(bad.status).toBe(400);
    llm.script({ text: 'Sunny.' }, { text: 'It is sunny.' });
    const { task } = await owner.post('/api/agent_space/scheduled_task/try_run', {
      scheduled_task_id: scheduled.scheduled_task_id,
    });
    expect(task).toMatchObject({ task_type: 'scheduled', status: 'running' });
    await settled(owner, task.task_id, 'finished');
    const runs = await owner.post('/api/task_api/get_agent_task_exec_list', {
      scheduled_task_id: scheduled.scheduled_task_id,
    });
    expect(runs.tasks.map((t: { task_id: string }) => t.task_id)).toEqual([task.task_id]);
    const off = await owner.post('/api/task_api/set_agent_task_status', {
      scheduled_task_id: scheduled.scheduled_task_id,
      status: 'disabled',
    });
    expect(off.scheduled).toMatchObject({ status: 'disabled', next_run_at: null, runs: 1 });
  });
});

describe('a task across a restart', () => {
  it('paused mid-task, resumed after the studio started again, carries on to the end', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tessera-agent-'));
    const first = await startStudio({ keepData: dir, keepDatabase: true, env });
    const second: { studio?: RunningStudio } = {};
    try {
      const { agent } = await signUp(first.url, 'agent-restart');
      const s = (await agent.post('/api/space/create', { name: 'R' })).space_id;
      const m = await addFakeModel(agent, llm.url, { capabilities: { function_call: true } });
      // The first step's answer streams for seconds: the pause lands while it is under way, however busy the machine.
      llm.script(plan('First', 'Second'), { text: 'First done.', chunkDelayMs: 1000 });
      const { task } = await agent.post('/api/agent_space/task/create', {
        space_id: s,
        model_id: m,
        query: 'Two things.',
      });
      await expect
        .poll(async () => (await info(agent, task.task_id)).plan[0]?.status, { timeout: 20_000 })
        .toBe('running');
      await agent.post('/api/agent_space/task/operate', {
        task_id: task.task_id,
        operate_type: 'pause',
        pause_reason: 'Lunch',
      });
      // The step under way finishes its answer; the next is not begun.
      await expect
        .poll(async () => (await info(agent, task.task_id)).plan.map((x: { status: string }) => x.status), {
          timeout: 20_000,
        })
        .toEqual(['done', 'pending']);
      expect(await info(agent, task.task_id)).toMatchObject({ status: 'paused', pause_reason: 'Lunch' });
      await first.close();
      second.studio = await startStudio({
        keepData: dir,
        ...(first.databaseUrl ? { env: { ...env, DATABASE_URL: first.databaseUrl } } : { env }),
      });
      const again = new Agent(second.studio.url);
      again.cookies = agent.cookies;
      llm.script({ text: 'Second done.' }, { text: 'Both done.' });
      await again.post('/api/agent_space/task/operate', { task_id: task.task_id, operate_type: 'resume' });
      await settled(again, task.task_id, 'finished');
      const lines = (await again.post('/api/agent_space/task/messages', { task_id: task.task_id })).messages;
      expect(
        lines.filter((x: { kind: string }) => x.kind === 'answer').map((x: { content: string }) => x.content),
      ).toEqual(['First done.', 'Second done.']);
    } finally {
      await second.studio?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
