// Tasks (/api/agent_space/task/...): made, listed, read, polled or followed live, operated, told things, their plan
// changed, their files listed, read, added and exported. A task is its creator's: others of the space do not see it.
import type { ServerContext } from '@tessera/sdk/server';
import { ModelsService } from '@tessera/ext-models/shared';
import { FilesService } from '@tessera/ext-files/shared';
import { z } from 'zod';
import {
  CreateTask,
  DeleteTask,
  ENDED,
  ListTasks,
  OperateTask,
  PollTask,
  TaskChat,
  TaskFeedback,
  TaskFiles,
  TaskInfo,
  TaskMessages,
  TaskQuota,
  UpdatePlan,
  UpdateTask,
  UploadTaskFile,
  type TaskInput,
  type TaskStatus,
} from '../../shared/api.ts';
import type { Engine } from '../engine.ts';
import {
  FILE_NAME,
  MAX_FILES,
  configOf,
  iso,
  mimeOf,
  planOf,
  skillRegistry,
  type TaskRow,
  type WorkspaceStore,
} from '../store.ts';
import { texts } from '../texts.ts';

export interface Quota {
  dailyTasks: number;
  maxRunning: number;
  /** A font file for PDF exports ('' = one of the machine's). */
  pdfFont?: string;
  pdfFontFamily?: string;
}
const AT_WORK: TaskStatus[] = ['planning', 'running'];
const TEXT_MIME = /^(text\/|application\/(json|xml|yaml|x-yaml|csv))/;

export function registerTaskRoutes(ctx: ServerContext, store: WorkspaceStore, engine: Engine, quota: Quota): void {
  const ofTask = {
    space: async (r: { body?: { task_id?: unknown }; query?: { task_id?: unknown } }) =>
      (await store.task(String(r.body?.task_id ?? r.query?.task_id ?? ''))).space_id,
  };
  const lang = (h: Record<string, unknown>) => h['accept-language'];

  ctx.route({
    ...CreateTask,
    auth: { space: { from: 'body', field: 'space_id' } },
    handler: async ({ body, caller, headers }) => {
      const userId = caller!.userId;
      await checkQuota(store, userId, quota);
      await checkInput(ctx, body.space_id, body);
      const row = store.newTask(body.space_id, userId, body);
      const inputs = await inputFiles(ctx, body.space_id, body.file_uri_list);
      await store.db.insertInto('agent_task').values(row).execute();
      for (const f of inputs) await store.putFile(row.id, { ...f, origin: 'input' });
      await engine.say(row.id, { kind: 'user', content: body.query });
      await engine.queue(row.id);
      return { task: store.view(await store.task(row.id), lang(headers)) };
    },
  });
  ctx.route({
    ...UpdateTask,
    auth: ofTask,
    handler: async ({ body, caller, headers }) => {
      const t = await store.own(body.task_id, caller!.userId);
      const cfg = configOf(t);
      await engine.set(t, {
        ...(body.task_name ? { task_name: body.task_name } : {}),
        ...(body.limits ? { config: JSON.stringify({ ...cfg, limits: body.limits }) } : {}),
      });
      return { task: store.view(await store.task(t.id), lang(headers)) };
    },
  });
  ctx.route({
    ...DeleteTask,
    auth: ofTask,
    handler: async ({ body, caller }) => {
      const t = await store.own(body.task_id, caller!.userId);
      engine.halt(t.id, true);
      await store.db.transaction().execute(async (tx) => {
        await tx.deleteFrom('agent_task_message').where('task_id', '=', t.id).execute();
        await tx.deleteFrom('agent_task_file').where('task_id', '=', t.id).execute();
        await tx.deleteFrom('agent_task_share').where('task_id', '=', t.id).execute();
        await tx.deleteFrom('agent_task').where('id', '=', t.id).execute();
      });
      return {};
    },
  });
  ctx.route({
    ...TaskInfo,
    auth: ofTask,
    handler: async ({ body, caller, headers }) => ({
      task: store.view(await store.own(body.task_id, caller!.userId), lang(headers)),
    }),
  });
  ctx.route({
    ...ListTasks,
    auth: { space: { from: 'body', field: 'space_id' } },
    handler: async ({ body, caller, headers }) => {
      let q = store.db
        .selectFrom('agent_task')
        .where('space_id', '=', body.space_id)
        .where('creator_id', '=', caller!.userId);
      if (body.status) q = q.where('status', '=', body.status);
      if (body.scheduled_task_id) q = q.where('scheduled_task_id', '=', body.scheduled_task_id);
      const [rows, count] = await Promise.all([
        q
          .selectAll()
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(body.size)
          .offset((body.page - 1) * body.size)
          .execute(),
        q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
      ]);
      return { tasks: rows.map((t) => store.view(t, lang(headers))), total: Number(count?.n ?? 0) };
    },
  });
  ctx.route({
    ...PollTask,
    auth: ofTask,
    handler: async ({ body, caller, headers }) => {
      const t = await store.own(body.task_id, caller!.userId);
      const messages = await store.messages(t.id, body.after_seq);
      return { task: store.view(t, lang(headers)), messages: messages.map((m) => store.messageView(m, lang(headers))) };
    },
  });
  ctx.route({
    ...TaskMessages,
    auth: ofTask,
    handler: async ({ body, caller, headers }) => {
      const t = await store.own(body.task_id, caller!.userId);
      return { messages: (await store.messages(t.id)).map((m) => store.messageView(m, lang(headers))) };
    },
  });
  ctx.route({
    method: 'POST',
    path: '/api/agent_space/task/stream',
    auth: ofTask,
    stream: true,
    summary:
      'Follow a task live: message { message } for each line of its log, delta { step_index, text } as the agent writes, task { task } as it changes, timing { kind, total_ms, model_ms, tool_ms, overhead_ms } after each move; ends when the task ends',
    body: z.object({ task_id: z.string().min(1).max(32) }),
    handler: async ({ body, caller, signal, headers }, reply) => {
      const t = await store.own(body.task_id, caller!.userId);
      const { follow } = await import('../follow.ts');
      await follow(ctx, store, t, lang(headers), reply.sse(), signal);
    },
  });
  ctx.route({
    ...OperateTask,
    auth: ofTask,
    handler: async ({ body, caller, headers }) => {
      const t = await store.own(body.task_id, caller!.userId);
      return { task: store.view(await operate(store, engine, t, body), lang(headers)) };
    },
  });
  ctx.route({
    ...TaskChat,
    auth: ofTask,
    handler: async ({ body, caller, headers }) => {
      const t = await store.own(body.task_id, caller!.userId);
      return { task: store.view(await chat(store, engine, t, body.query), lang(headers)) };
    },
  });
  ctx.route({
    ...UpdatePlan,
    auth: ofTask,
    handler: async ({ body, caller, headers }) => {
      const t = await store.own(body.task_id, caller!.userId);
      if (!['waiting_plan', 'paused', 'waiting_user'].includes(t.status)) throw texts.error(409, 'planLocked');
      const cfg = configOf(t);
      const done = planOf(t).filter((s) => s.status === 'done' || s.status === 'skipped');
      for (const s of body.steps)
        if (s.expert_id && !cfg.experts.some((e) => e.expert_id === s.expert_id))
          throw texts.error(400, 'unknownExpert', { step: s.title });
      const steps = body.steps.map((s) => ({ ...s, step_id: store.newId(), status: 'pending' as const, result: '' }));
      const next = await engine.set(t, { plan: JSON.stringify([...done, ...steps]) });
      await engine.say(t.id, {
        kind: 'plan',
        content: steps.map((s, i) => `${done.length + i + 1}. ${s.title}`).join('\n'),
        data: JSON.stringify({ edited: true }),
      });
      return { task: store.view(next, lang(headers)) };
    },
  });
  ctx.route({
    ...TaskFiles,
    auth: ofTask,
    handler: async ({ body, caller }) => {
      const t = await store.own(body.task_id, caller!.userId);
      return { files: (await store.files(t.id)).map((f) => store.fileView(f)) };
    },
  });
  ctx.route({
    ...UploadTaskFile,
    auth: ofTask,
    handler: async ({ body, caller }) => {
      const t = await store.own(body.task_id, caller!.userId);
      if (!FILE_NAME.test(body.name))
        throw texts.error(400, 'badTools', { detail: `"${body.name}" is not a file name a task may use.` });
      const all = await store.files(t.id);
      if (!all.some((f) => f.name === body.name) && all.length >= MAX_FILES)
        throw texts.error(400, 'badTools', { detail: `A task keeps at most ${MAX_FILES} files.` });
      const f = await store.putFile(t.id, {
        name: body.name,
        content: body.content,
        mime: mimeOf(body.name),
        origin: 'input',
      });
      await engine.say(t.id, { kind: 'file', content: f.name, file_id: f.id, data: JSON.stringify({ by: 'user' }) });
      return { file: store.fileView(f) };
    },
  });
  ctx.route({
    method: 'GET',
    path: '/api/agent_space/task/file/content',
    produces: 'application/octet-stream',
    auth: ofTask,
    summary: "A task file's content (download)",
    query: z.object({ task_id: z.string().min(1).max(32), file_id: z.string().min(1).max(32) }),
    handler: async ({ query, caller }, reply) => {
      const t = await store.own(query.task_id, caller!.userId);
      const f = await store.file(t.id, query.file_id);
      if (!f) throw texts.error(404, 'noFile', { id: query.file_id });
      reply.header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(f.name)}`);
      reply.header('x-content-type-options', 'nosniff');
      // SVG and HTML are never shown inline from the studio's origin.
      reply.send(f.content, f.mime.startsWith('text/html') || f.mime.includes('svg') ? 'text/plain' : f.mime);
    },
  });
  ctx.route({
    method: 'GET',
    path: '/api/agent_space/task/export',
    produces: [
      'text/markdown',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/pdf',
    ],
    auth: ofTask,
    summary:
      'A task as a document: the whole report (goal, plan, results, summary) or one Markdown file of it, as Markdown, Word (DOCX) or PDF',
    query: z.object({
      task_id: z.string().min(1).max(32),
      file_id: z.string().max(32).default(''),
      format: z.enum(['md', 'docx', 'pdf']).default('md'),
    }),
    handler: async ({ query, caller }, reply) => {
      const t = await store.own(query.task_id, caller!.userId);
      const { exportTask } = await import('../export.ts');
      const font = quota.pdfFont ? { path: quota.pdfFont, family: quota.pdfFontFamily || undefined } : undefined;
      const out = await exportTask(store, t, query.file_id, query.format, font);
      reply.header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(out.name)}`);
      reply.send(out.body, out.mime);
    },
  });
  ctx.route({
    ...TaskFeedback,
    auth: ofTask,
    handler: async ({ body, caller, headers }) => {
      const t = await store.own(body.task_id, caller!.userId);
      const next = await engine.set(t, {
        ...(body.digg !== undefined ? { digg: body.digg ? 1 : 0 } : {}),
        ...(body.feel !== undefined ? { feel: body.feel } : {}),
        ...(body.content ? { feedback: body.content } : {}),
      });
      return { task: store.view(next, lang(headers)) };
    },
  });
  ctx.route({
    ...TaskQuota,
    auth: { space: { from: 'body', field: 'space_id' } },
    handler: async ({ caller }) => {
      const used = await usage(store, caller!.userId);
      return {
        used_today: used.today,
        daily_limit: quota.dailyTasks,
        running: used.running,
        max_running: quota.maxRunning,
      };
    },
  });
}

/** A person's tasks made today and at work (quotas count across spaces). */
async function usage(store: WorkspaceStore, userId: string) {
  const midnight = new Date();
  midnight.setUTCHours(0, 0, 0, 0);
  const mine = store.db.selectFrom('agent_task').where('creator_id', '=', userId).where('task_type', '=', 'chat');
  const [today, running] = await Promise.all([
    mine
      .where('created_at', '>=', midnight.toISOString())
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst(),
    mine
      .where('status', 'in', AT_WORK)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst(),
  ]);
  return { today: Number(today?.n ?? 0), running: Number(running?.n ?? 0) };
}

async function checkQuota(store: WorkspaceStore, userId: string, quota: Quota) {
  const used = await usage(store, userId);
  if (used.today >= quota.dailyTasks) throw texts.error(429, 'dailyQuota', { limit: String(quota.dailyTasks) });
  if (used.running >= quota.maxRunning) throw texts.error(429, 'runningQuota', { limit: String(quota.maxRunning) });
}

/** The model is the space's, each tool kind is known and its settings are right, experts are named once. */
export async function checkInput(
  ctx: ServerContext,
  spaceId: string,
  input: Pick<TaskInput, 'model_id' | 'tools' | 'expert_agent_config'>,
): Promise<void> {
  const models = ctx.service(ModelsService);
  await models.get(spaceId, input.model_id);
  for (const e of input.expert_agent_config ?? []) if (e.model_id) await models.get(spaceId, e.model_id);
  const skills = skillRegistry(ctx);
  for (const [key, settings] of Object.entries(input.tools ?? {})) {
    const skill = skills?.get(key);
    if (!skill) throw texts.error(400, 'unknownTool', { key });
    const r = skill.settings.safeParse(settings);
    if (!r.success)
      throw texts.error(400, 'badTools', {
        detail: `${key}: ${r.error.issues.map((i) => `${i.path.join('.') || 'settings'} ${i.message}`).join('; ')}`,
      });
  }
  const ids = (input.expert_agent_config ?? []).map((e) => e.expert_id);
  if (new Set(ids).size !== ids.length) throw texts.error(400, 'badTools', { detail: 'Each expert needs its own id.' });
}

/** The space's files given with a task, copied into it (text kept for the agent to read). */
export async function inputFiles(ctx: ServerContext, spaceId: string, ids: string[]) {
  if (!ids.length) return [];
  const files = ctx.optionalService(FilesService);
  if (!files) throw texts.error(400, 'filesOff');
  const out: { name: string; content: string; mime: string; source_file_id: string }[] = [];
  for (const id of ids) {
    const info = await files.info(id);
    if (!info || info.space_id !== spaceId) throw texts.error(400, 'noFiles', { id });
    const text = TEXT_MIME.test(info.mime) ? (await files.read(id)).toString('utf8') : '';
    const name = FILE_NAME.test(info.file_name) ? info.file_name : `${id}.${text ? 'txt' : 'md'}`;
    out.push({
      name,
      content: text || `(${info.file_name}: ${info.mime}, ${info.bytes} bytes; not text)`,
      mime: text ? info.mime : 'text/markdown',
      source_file_id: id,
    });
  }
  return out;
}

async function operate(
  store: WorkspaceStore,
  engine: Engine,
  t: TaskRow,
  body: { operate_type: 'start' | 'pause' | 'resume' | 'stop'; pause_reason: string },
): Promise<TaskRow> {
  const allowed: Record<typeof body.operate_type, TaskStatus[]> = {
    start: ['waiting_plan'],
    pause: ['planning', 'waiting_plan', 'running', 'waiting_user'],
    resume: ['paused'],
    stop: ['planning', 'waiting_plan', 'running', 'paused', 'waiting_user'],
  };
  if (!allowed[body.operate_type].includes(t.status))
    throw texts.error(409, 'cannot', { status: t.status, operation: body.operate_type });
  if (body.operate_type === 'stop') {
    engine.halt(t.id, true);
    return engine.end(t, 'stopped', 'stopped', { key: 'endStoppedPlain', params: {} });
  }
  if (body.operate_type === 'pause') {
    engine.halt(t.id, false);
    return engine.set(t, { status: 'paused', pause_reason: body.pause_reason });
  }
  const plan = planOf(t);
  const status: TaskStatus = t.question ? 'waiting_user' : plan.length ? 'running' : 'planning';
  const next = await engine.set(t, { status, pause_reason: '', lease_until: 0 });
  if (status !== 'waiting_user') await engine.queue(t.id);
  return next;
}

/** What the person tells a task: the answer it waits for, a note for its next step, or a follow-up once it ended. */
async function chat(store: WorkspaceStore, engine: Engine, t: TaskRow, query: string): Promise<TaskRow> {
  const plan = planOf(t);
  const current = plan.findIndex((s) => s.status !== 'done' && s.status !== 'skipped');
  if (t.status === 'waiting_user') {
    await engine.say(t.id, { kind: 'user', content: query, step_index: current });
    const next = await engine.set(t, { status: 'running', question: '' });
    await engine.queue(t.id);
    return next;
  }
  const cfg = configOf(t);
  await engine.say(t.id, { kind: 'user', content: query, step_index: ENDED.includes(t.status) ? -1 : current });
  const notes = [...(cfg.notes ?? []), query].slice(-20);
  if (!ENDED.includes(t.status)) return engine.set(t, { config: JSON.stringify({ ...cfg, notes }) });
  // A follow-up: planned from what is done, then carried out.
  const next = await engine.set(t, {
    status: 'planning',
    config: JSON.stringify({ ...cfg, notes }),
    end_code: '',
    end_text: '',
    finished_at: '',
    updated_at: iso(),
  });
  await engine.queue(t.id);
  return next;
}
