// Batch tasks: drafts kept here; a submitted one runs as an evaluation experiment (its questions a set, each dimension
// an LLM judge, the bot the target), and its status, progress and overall score follow the experiment until it ends.
import { badRequest, conflict, notFound, parseStoredJson } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { BotsService } from '@tessera/ext-bots/shared';
import {
  EvaluationSetsService,
  EvaluatorRunsService,
  ExperimentsService,
  type ExperimentDetail,
} from '@tessera/ext-evaluation/shared';
import { ModelsService } from '@tessera/ext-models/shared';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import {
  BatchTaskDashboard,
  CloneBatchTask,
  CreateBatchTask,
  CreditsCheck,
  GetBatchTask,
  KillBatchTask,
  ListBatchTasks,
  RetryBatchTask,
  SubmitBatchTask,
  UpdateBatchTask,
  SCENES,
  type BatchTaskView,
  type DimensionInput,
  type Row,
} from '../shared/api.ts';

/** A task's JSON columns as stored (written from the checked bodies; read back without the body's refinements). */
const StoredRows = z.array(z.object({ question: z.string(), reference: z.string().default('') }));
const StoredDimensions = z.array(z.object({ key: z.string(), name: z.string(), prompt: z.string() }));
const StoredProgress = z.object({ total: z.number(), finished: z.number(), failed: z.number() });
const StoredEvaluators = z.array(z.object({ key: z.string(), evaluator_id: z.string() }));
const rowsOf = (t: { rows: string }): Row[] => parseStoredJson(t.rows, "a batch task's questions", StoredRows);
const dimensionsOf = (t: { dimensions: string }): DimensionInput[] =>
  parseStoredJson(t.dimensions, "a batch task's dimensions", StoredDimensions);

interface TaskRow {
  id: string;
  space_id: string;
  name: string;
  bot_id: string;
  scene_id: string;
  judge_model_id: string;
  rows: string;
  dimensions: string;
  status: BatchTaskView['status'];
  reason: string;
  experiment_id: string;
  /** [{ key, evaluator_id }] once submitted. */
  evaluators: string;
  progress: string;
  overall: number | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}
const inSpace = { space: { from: 'body' as const, field: 'space_id' } };
const now = () => new Date().toISOString();
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

/** A scene's template as a task keeps it (names in the caller's language). */
export function template(sceneId: string, lang: 'en-US' | 'zh-CN'): DimensionInput[] {
  const scene = SCENES.find((s) => s.scene_id === sceneId);
  if (!scene)
    throw badRequest(`There is no scene ${sceneId} (there are ${SCENES.map((s) => s.scene_id).join(', ')}).`, {
      field: 'scene_id',
    });
  return scene.dimensions.map((d) => ({ key: d.key, name: d.name[lang], prompt: d.prompt }));
}

export function registerTasks(ctx: ServerContext<unknown>) {
  const db = () => ctx.db as Kysely<{ bot_eval_task: TaskRow }>;
  const get = async (spaceId: string, id: string) => {
    const t = await db()
      .selectFrom('bot_eval_task')
      .selectAll()
      .where('id', '=', id)
      .where('space_id', '=', spaceId)
      .executeTakeFirst();
    if (!t) throw notFound(`There is no batch task ${id} in this space.`);
    return t;
  };
  /** A new draft with these settings (a task made, or a copy of one). */
  const draft = (
    src: Pick<TaskRow, 'space_id' | 'name' | 'bot_id' | 'scene_id' | 'judge_model_id' | 'rows' | 'dimensions'>,
    userId: string,
  ): TaskRow => {
    const at = now();
    return {
      id: ctx.host.newId(),
      space_id: src.space_id,
      name: src.name,
      bot_id: src.bot_id,
      scene_id: src.scene_id,
      judge_model_id: src.judge_model_id,
      rows: src.rows,
      dimensions: src.dimensions,
      status: 'draft',
      reason: '',
      experiment_id: '',
      evaluators: '[]',
      progress: JSON.stringify({ total: rowsOf(src).length, finished: 0, failed: 0 }),
      overall: null,
      created_by: userId,
      created_at: at,
      updated_at: at,
    };
  };
  const overallOf = (d: ExperimentDetail) =>
    mean(d.aggregates.map((a) => a.mean).filter((m): m is number => m !== null));
  /** A running task read again from its experiment; what has ended is kept on the task. */
  const follow = async (t: TaskRow): Promise<{ t: TaskRow; detail?: ExperimentDetail }> => {
    if (!t.experiment_id || t.status === 'draft') return { t };
    const detail = await ctx.service(ExperimentsService).get(t.space_id, t.experiment_id);
    const e = detail.experiment;
    const status: TaskRow['status'] = e.status === 'pending' ? 'running' : e.status;
    const patch = {
      status,
      reason: e.reason,
      progress: JSON.stringify({ total: e.total, finished: e.finished, failed: e.failed }),
      overall: overallOf(detail),
    };
    if (status !== t.status || patch.progress !== t.progress || patch.overall !== t.overall)
      await db().updateTable('bot_eval_task').set(patch).where('id', '=', t.id).execute();
    return { t: { ...t, ...patch }, detail };
  };
  const view = async (t: TaskRow): Promise<BatchTaskView> => ({
    batch_task_id: t.id,
    name: t.name,
    bot_id: t.bot_id,
    bot_name: (await ctx.service(BotsService).get(t.bot_id))?.name ?? '',
    scene_id: t.scene_id,
    judge_model_id: t.judge_model_id,
    rows: rowsOf(t),
    dimensions: dimensionsOf(t),
    status: t.status,
    reason: t.reason,
    experiment_id: t.experiment_id,
    progress: parseStoredJson(t.progress, "a batch task's progress", StoredProgress),
    overall: t.overall === null ? null : Number(t.overall),
    update_time: Math.floor(Date.parse(t.updated_at) / 1000),
  });
  const checked = async (
    b: { space_id: string; bot_id: string; scene_id: string; judge_model_id: string; dimensions?: DimensionInput[] },
    lang: 'en-US' | 'zh-CN',
  ) => {
    const bot = await ctx.service(BotsService).get(b.bot_id);
    if (!bot || bot.space_id !== b.space_id) throw notFound(`There is no bot ${b.bot_id} in this space.`);
    await ctx.service(ModelsService).get(b.space_id, b.judge_model_id);
    const dims = b.dimensions ?? template(b.scene_id, lang);
    if (new Set(dims.map((d) => d.key)).size !== dims.length)
      throw badRequest('Two dimensions have the same key.', { field: 'dimensions' });
    template(b.scene_id, lang);
    return dims;
  };
  const langOf = (headers: Record<string, unknown>): 'en-US' | 'zh-CN' =>
    String(headers['accept-language'] ?? '')
      .toLowerCase()
      .startsWith('zh')
      ? 'zh-CN'
      : 'en-US';

  /** What a person edits of a draft task, as stored. */
  const editable = (
    body: { name: string; bot_id: string; scene_id: string; judge_model_id: string; rows: unknown[] },
    dims: unknown,
  ) => ({
    name: body.name,
    bot_id: body.bot_id,
    scene_id: body.scene_id,
    judge_model_id: body.judge_model_id,
    rows: JSON.stringify(body.rows),
    dimensions: JSON.stringify(dims),
  });

  ctx.route({
    ...CreateBatchTask,
    auth: inSpace,
    handler: async ({ body, caller, headers }) => {
      const dims = await checked(body, langOf(headers));
      const row = draft({ space_id: body.space_id, ...editable(body, dims) }, caller!.userId);
      await db().insertInto('bot_eval_task').values(row).execute();
      return { batch_task: await view(row) };
    },
  });
  ctx.route({
    ...UpdateBatchTask,
    auth: inSpace,
    handler: async ({ body, headers }) => {
      const t = await get(body.space_id, body.batch_task_id);
      if (t.status !== 'draft') throw conflict('The batch task has run: clone it to change it.');
      const dims = await checked(body, langOf(headers));
      const patch = {
        ...editable(body, dims),
        progress: JSON.stringify({ total: body.rows.length, finished: 0, failed: 0 }),
        updated_at: now(),
      };
      await db().updateTable('bot_eval_task').set(patch).where('id', '=', t.id).execute();
      return { batch_task: await view({ ...t, ...patch }) };
    },
  });
  ctx.route({
    ...ListBatchTasks,
    auth: inSpace,
    handler: async ({ body }) => {
      const rows = await db()
        .selectFrom('bot_eval_task')
        .selectAll()
        .where('space_id', '=', body.space_id)
        .orderBy('created_at', 'desc')
        .limit(100)
        .execute();
      return {
        batch_tasks: await Promise.all(rows.map(async (r) => view(r.status === 'running' ? (await follow(r)).t : r))),
      };
    },
  });
  ctx.route({
    ...GetBatchTask,
    auth: inSpace,
    handler: async ({ body }) => ({
      batch_task: await view((await follow(await get(body.space_id, body.batch_task_id))).t),
    }),
  });
  ctx.route({
    ...SubmitBatchTask,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const t = await get(body.space_id, body.batch_task_id);
      // Claimed first (only from draft): of two submits at once, one runs it.
      const claimed = await db()
        .updateTable('bot_eval_task')
        .set({ status: 'running', updated_at: now() })
        .where('id', '=', t.id)
        .where('status', '=', 'draft')
        .executeTakeFirst();
      if (t.status !== 'draft' || !Number(claimed.numUpdatedRows))
        throw conflict('The batch task has run already: clone it to run it again.');
      try {
        return { batch_task: await submit(t, caller!.userId) };
      } catch (e) {
        await db().updateTable('bot_eval_task').set({ status: 'draft' }).where('id', '=', t.id).execute();
        throw e;
      }
    },
  });
  /** Makes the batch task's question set, its judges and the experiment, and follows the experiment. */
  const submit = async (t: TaskRow, userId: string) => {
    const rows = rowsOf(t);
    const dims = dimensionsOf(t);
    const set = await ctx.service(EvaluationSetsService).create({
      spaceId: t.space_id,
      userId,
      name: `${t.name} · questions`.slice(0, 100),
      description: `The test questions of the bot evaluation ${t.name}.`,
      columns: [
        { name: 'query', type: 'string' },
        { name: 'reference', type: 'string' },
      ],
      items: rows.map((r) => ({ query: r.question, reference: r.reference })),
    });
    const evaluators: { key: string; evaluator_id: string }[] = [];
    for (const d of dims) {
      const e = await ctx.service(EvaluatorRunsService).create(t.space_id, userId, {
        name: `${t.name} · ${d.name}`.slice(0, 100),
        description: `A dimension of the bot evaluation ${t.name}.`,
        kind: 'llm_judge',
        settings: { prompt: d.prompt, model_id: t.judge_model_id, score_min: 0, score_max: 1 },
      });
      evaluators.push({ key: d.key, evaluator_id: e.evaluator_id });
    }
    const { experimentId } = await ctx.service(ExperimentsService).create({
      spaceId: t.space_id,
      userId,
      name: t.name,
      setId: set.setId,
      setVersion: set.version,
      target: { kind: 'bot', settings: { bot_id: t.bot_id }, mapping: { query: 'query' } },
      evaluators: evaluators.map((e) => ({
        evaluator_id: e.evaluator_id,
        input_column: 'query',
        reference_column: 'reference',
      })),
      itemConcurrency: 4,
    });
    const patch = {
      status: 'running' as const,
      experiment_id: experimentId,
      evaluators: JSON.stringify(evaluators),
      updated_at: now(),
    };
    await db().updateTable('bot_eval_task').set(patch).where('id', '=', t.id).execute();
    return view({ ...t, ...patch });
  };
  ctx.route({
    ...KillBatchTask,
    auth: inSpace,
    handler: async ({ body }) => {
      const t = await get(body.space_id, body.batch_task_id);
      if (t.status !== 'running') throw badRequest(`The batch task is ${t.status}, not running.`);
      await ctx.service(ExperimentsService).kill(t.space_id, t.experiment_id);
      return { batch_task: await view((await follow(t)).t) };
    },
  });
  ctx.route({
    ...RetryBatchTask,
    auth: inSpace,
    handler: async ({ body }) => {
      const t = await get(body.space_id, body.batch_task_id);
      if (!t.experiment_id || t.status === 'running')
        throw badRequest(`The batch task is ${t.status}: only an ended one is retried.`);
      await ctx.service(ExperimentsService).retry(t.space_id, t.experiment_id);
      await db().updateTable('bot_eval_task').set({ status: 'running' }).where('id', '=', t.id).execute();
      return { batch_task: await view((await follow({ ...t, status: 'running' })).t) };
    },
  });
  ctx.route({
    ...CloneBatchTask,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const t = await get(body.space_id, body.batch_task_id);
      const row = draft({ ...t, name: `${t.name} (copy)`.slice(0, 100) }, caller!.userId);
      await db().insertInto('bot_eval_task').values(row).execute();
      return { batch_task: await view(row) };
    },
  });
  ctx.route({
    ...BatchTaskDashboard,
    auth: inSpace,
    handler: async ({ body }) => {
      const { t, detail } = await follow(await get(body.space_id, body.batch_task_id));
      const dims = dimensionsOf(t);
      const evs = parseStoredJson(t.evaluators, "a batch task's judges", StoredEvaluators);
      const keyOf = new Map(evs.map((e) => [e.evaluator_id, e.key]));
      return {
        batch_task: await view(t),
        dimensions: dims.map((d) => {
          const a = detail?.aggregates.find((x) => keyOf.get(x.evaluator_id) === d.key);
          return { key: d.key, name: d.name, mean: a?.mean ?? null, count: a?.count ?? 0 };
        }),
        rows: (detail?.results ?? []).map((r) => ({
          question: String(r.item.query ?? ''),
          reference: String(r.item.reference ?? ''),
          answer: r.output,
          error: r.error,
          scores: r.scores.map((s) => ({
            key: keyOf.get(s.evaluator_id) ?? s.evaluator_id,
            score: s.score,
            reason: s.error ?? s.reason,
          })),
          latency_ms: r.latency_ms,
          trace_id: r.trace_id,
        })),
      };
    },
  });
  ctx.route({
    ...CreditsCheck,
    auth: { space: { from: 'query', field: 'space_id' } },
    // No credits are charged in this studio: what a task costs is told in model calls.
    handler: ({ query }) => ({ enough: true, model_calls: query.rows * (1 + query.dimensions) }),
  });
}
