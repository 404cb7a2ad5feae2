// The observation tasks' calls (/api/observability/v1/tasks): named handlers over the task store; the sampler is
// told when a space's tasks change, the scorer when a paused task resumes.
import { badRequest, conflict } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { EvaluatorRunsService } from '@tessera/ext-evaluation/shared';
import { TracesService } from '@tessera/ext-observability/shared';
import { sql } from 'kysely';
import {
  CheckTaskName,
  CreateTask,
  GetTask,
  ListTaskEvaluators,
  ListTasks,
  PreviewTask,
  TaskResults,
  UpdateTask,
  type ResultItem,
} from '../shared/api.ts';
import { matches, sampled } from './rule.ts';
import type { Sampler } from './sampler.ts';
import type { Scorer } from './scorer.ts';
import type { FrozenEvaluator, TaskStore } from './store.ts';

const inBody = { space: { from: 'body' as const, field: 'workspace_id' } };
const inQuery = { space: { from: 'query' as const, field: 'workspace_id' } };
const BUCKETS = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

export function registerRoutes(ctx: ServerContext<unknown>, store: TaskStore, sampler: Sampler, scorer: Scorer) {
  const db = store.db;
  const nameTaken = async (spaceId: string, name: string) =>
    !!(await db
      .selectFrom('online_eval_task')
      .select('id')
      .where('space_id', '=', spaceId)
      .where('name', '=', name.trim())
      .executeTakeFirst());

  ctx.route({
    ...CheckTaskName,
    auth: inQuery,
    handler: async ({ query }) =>
      (await nameTaken(query.workspace_id, query.name))
        ? { pass: false, message: `A task of this space is already called ${query.name.trim()}.` }
        : { pass: true, message: '' },
  });

  ctx.route({
    ...ListTaskEvaluators,
    auth: inQuery,
    handler: async ({ query }) => ({ evaluators: await ctx.service(EvaluatorRunsService).list(query.workspace_id) }),
  });

  ctx.route({
    ...CreateTask,
    auth: { space: (r) => (r.body as { task?: { workspace_id?: string } } | undefined)?.task?.workspace_id },
    handler: async ({ body, caller }) => {
      const t = body.task;
      if (await nameTaken(t.workspace_id, t.name))
        throw conflict(`A task of this space is already called ${t.name}: choose another name.`, { field: 'name' });
      const { start_at = Date.now(), end_at = 0 } = t.rule.effective_time;
      if (end_at && end_at <= start_at)
        throw badRequest('The task ends before it starts: choose an end after the start.', { field: 'effective_time' });
      const frozen: FrozenEvaluator[] = [];
      for (const c of t.task_config.auto_evaluate_configs) {
        if (frozen.some((f) => f.evaluator_id === c.evaluator_id))
          throw badRequest('An evaluator is chosen twice.', { field: 'task_config' });
        const ref = await ctx
          .service(EvaluatorRunsService)
          .resolve(t.workspace_id, c.evaluator_id, c.evaluator_version);
        frozen.push({
          evaluator_id: ref.evaluator_id,
          evaluator_version: ref.version,
          evaluator_name: ref.name,
          kind: ref.kind,
          settings: ref.settings,
          field_mappings: c.field_mappings,
        });
      }
      const id = ctx.host.newId();
      const at = new Date().toISOString();
      await db
        .insertInto('online_eval_task')
        .values({
          id,
          space_id: t.workspace_id,
          name: t.name,
          description: t.description,
          status: 'running',
          span_list_type: t.rule.span_filters.span_list_type,
          filters: JSON.stringify(t.rule.span_filters.filters.filter_fields),
          sample_rate: t.rule.sampler.sample_rate,
          sample_size: t.rule.sampler.sample_size,
          start_at,
          end_at,
          evaluators: JSON.stringify(frozen),
          sampled: 0,
          created_by: caller!.userId,
          created_at: at,
          updated_at: at,
        })
        .execute();
      sampler.forget(t.workspace_id);
      return { task_id: id };
    },
  });

  ctx.route({
    ...UpdateTask,
    auth: inBody,
    handler: async ({ params, body }) => {
      const t = await store.get(body.workspace_id, params.task_id);
      const start_at = body.effective_time?.start_at ?? Number(t.start_at);
      const end_at = body.effective_time?.end_at ?? Number(t.end_at);
      if (end_at && end_at <= start_at)
        throw badRequest('The task ends before it starts: choose an end after the start.', { field: 'effective_time' });
      await db
        .updateTable('online_eval_task')
        .set({
          ...(body.task_status ? { status: body.task_status } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(body.sample_rate !== undefined ? { sample_rate: body.sample_rate } : {}),
          start_at,
          end_at,
          updated_at: new Date().toISOString(),
        })
        .where('id', '=', t.id)
        .execute();
      sampler.forget(t.space_id);
      if (body.task_status === 'running') scorer.kick(t.id);
      return {};
    },
  });

  ctx.route({
    ...ListTasks,
    auth: inBody,
    handler: async ({ body }) => {
      let q = db.selectFrom('online_eval_task').where('space_id', '=', body.workspace_id);
      if (body.task_filters.name) q = q.where('name', 'like', `%${body.task_filters.name.replace(/[%_]/g, '')}%`);
      const rows = await q
        .selectAll()
        .orderBy('created_at', body.order_by === 1 ? 'asc' : 'desc')
        .execute();
      const counts = await store.counts(rows.map((r) => r.id));
      let tasks = rows.map((r) => store.view(r, counts.get(r.id)!));
      if (body.task_filters.task_status) tasks = tasks.filter((t) => t.task_status === body.task_filters.task_status);
      return { tasks: tasks.slice(body.offset, body.offset + body.limit), total: tasks.length };
    },
  });

  ctx.route({
    ...GetTask,
    auth: inQuery,
    handler: async ({ params, query }) => {
      const t = await store.get(query.workspace_id, params.task_id);
      return { task: store.view(t, (await store.counts([t.id])).get(t.id)!) };
    },
  });

  ctx.route({
    ...TaskResults,
    auth: inBody,
    handler: async ({ params, body }) => {
      const t = await store.get(body.workspace_id, params.task_id);
      const to = body.end_time ?? Date.now();
      const from = body.start_time ?? to - 86_400_000;
      if (from >= to) throw badRequest('The start time is after the end time.', { field: 'start_time' });
      const span = to - from;
      const bucket =
        BUCKETS[body.bucket ?? (span <= 2 * 3_600_000 ? 'minute' : span <= 3 * 86_400_000 ? 'hour' : 'day')];
      if (span / bucket > 2000) throw badRequest('Too many points: choose a larger bucket or a shorter range.');
      const rows = await db
        .selectFrom('online_eval_item')
        .where('task_id', '=', t.id)
        .where('finished_at', '>=', from)
        .where('finished_at', '<=', to)
        .where('status', 'in', ['done', 'failed'])
        .select([
          'evaluator_id',
          sql<number>`(finished_at / ${sql.lit(bucket)}) * ${sql.lit(bucket)}`.as('bucket'),
          sql<number>`count(*)`.as('n'),
          sql<number>`sum(case when status = 'failed' then 1 else 0 end)`.as('failed'),
          sql<number | null>`avg(score)`.as('avg'),
        ])
        .groupBy(['evaluator_id', sql`2`])
        .orderBy(sql`2`)
        .execute();
      const items = await db
        .selectFrom('online_eval_item')
        .select(['trace_id', 'span_id', 'evaluator_id', 'status', 'score', 'reason', 'input', 'output', 'finished_at'])
        .where('task_id', '=', t.id)
        .where('status', 'in', ['done', 'failed'])
        .orderBy('finished_at', 'desc')
        .limit(body.page_size)
        .execute();
      return {
        bucket_ms: bucket,
        series: rows.map((r) => ({
          time_ms: Number(r.bucket),
          evaluator_id: r.evaluator_id,
          count: Number(r.n),
          failed: Number(r.failed),
          avg_score: r.avg === null ? null : Math.round(Number(r.avg) * 1e4) / 1e4,
        })),
        items: items.map((i): ResultItem => ({
          ...i,
          score: i.score === null ? null : Number(i.score),
          input: i.input.slice(0, 300),
          output: i.output.slice(0, 300),
          finished_at: Number(i.finished_at),
        })),
      };
    },
  });

  ctx.route({
    ...PreviewTask,
    auth: inBody,
    handler: async ({ body }) => {
      const to = Date.now();
      const spans = await ctx
        .service(TracesService)
        .search({ spaceId: body.workspace_id, from: to - 86_400_000, to, limit: 5000 });
      const rule = {
        span_list_type: body.rule.span_filters.span_list_type,
        filter_fields: body.rule.span_filters.filters.filter_fields,
        sample_rate: body.rule.sampler.sample_rate,
      };
      const matched = spans.filter((s) => matches(rule, s));
      const picked = matched.filter((s) => sampled(rule, 'preview', s));
      return {
        scanned: spans.length,
        matched: matched.length,
        sampled: picked.length,
        spans: picked.slice(0, 10).map((s) => ({
          trace_id: s.trace_id,
          span_id: s.span_id,
          name: s.name,
          input: s.input.slice(0, 300),
          output: s.output.slice(0, 300),
        })),
      };
    },
  });
}
