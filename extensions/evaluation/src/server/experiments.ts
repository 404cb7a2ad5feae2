// Experiments: a set version, a target with the mapping of its inputs to the set's columns, and evaluators
// (each with the columns it reads as input and reference). They run as a background job, items a few at once,
// with live progress; killed, retried (failed items again), cloned; results per item and aggregates; several
// compared side by side.
import { badRequest, parseStoredJson, describeError } from '@tessera/sdk';
import { JobQueueService, type ServerContext } from '@tessera/sdk/server';
import { z } from 'zod';
import { EvalTargets, Evaluators, ExperimentsService, type ExperimentDetail } from '../shared/index.ts';
import { inSpace, itemsOf, now, owned, readResults, secs, versionItems, type Score } from './common.ts';
import { freeze } from './sets.ts';
import { ExperimentView } from '../shared/answers.ts';
import {
  CloneExperiment,
  CompareExperiments,
  CreateBody,
  NewExperiment,
  GetExperiment,
  KillExperiment,
  ListExperiments,
  ListTargetChoices,
  ListTargetInputs,
  ListTargetKinds,
  RetryExperiment,
  type Target,
} from '../shared/api.ts';
import { evalDb, type ExperimentRow, type ResultRow } from './db.ts';

export const RUN_JOB = 'evaluation.experiment';

/** The evaluators an experiment runs, frozen at its start (their versions and settings). */
const FrozenList = z.array(
  z.object({
    evaluator_id: z.string(),
    name: z.string(),
    kind: z.string(),
    version: z.string(),
    settings: z.record(z.string(), z.unknown()),
    input_column: z.string().optional(),
    reference_column: z.string().optional(),
  }),
);
type Frozen = z.output<typeof FrozenList>[number];
const frozenOf = (e: { evaluators: string }): Frozen[] =>
  parseStoredJson(e.evaluators, "the experiment's evaluators", FrozenList);
const cell = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));

export function experimentView(e: ExperimentRow): z.output<typeof ExperimentView> {
  return {
    experiment_id: e.id,
    name: e.name,
    description: e.description,
    set_id: e.set_id,
    set_version: e.set_version,
    target: parseStoredJson(e.target, "The experiment's target", ExperimentView.shape.target),
    evaluators: frozenOf(e).map(({ settings: _s, ...x }) => x),
    item_concurrency: Number(e.item_concurrency),
    status: e.status,
    reason: e.reason,
    total: Number(e.total),
    finished: Number(e.finished),
    failed: Number(e.failed),
    create_time: secs(e.created_at),
    start_time: secs(e.started_at),
    end_time: secs(e.ended_at),
  };
}

/** Per evaluator: count, mean, min, max and a distribution over five equal buckets. */
export function aggregates(evaluators: { evaluator_id: string; name: string }[], results: { scores: Score[] }[]) {
  return evaluators.map((ev) => {
    const scores = results.flatMap((r) =>
      r.scores.filter((s) => s.evaluator_id === ev.evaluator_id && s.score !== null).map((s) => s.score!),
    );
    const min = scores.length ? Math.min(...scores) : 0;
    const max = scores.length ? Math.max(...scores) : 0;
    const width = (max - min) / 5 || 1;
    const buckets = Array.from({ length: 5 }, (_, i) => ({
      from: min + i * width,
      to: min + (i + 1) * width,
      count: 0,
    }));
    for (const s of scores) buckets[Math.min(4, Math.floor((s - min) / width))].count++;
    return {
      evaluator_id: ev.evaluator_id,
      name: ev.name,
      count: scores.length,
      mean: scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : null,
      min: scores.length ? min : null,
      max: scores.length ? max : null,
      distribution: max === min && scores.length ? [{ from: min, to: max, count: scores.length }] : buckets,
    };
  });
}

export function registerExperiments(ctx: ServerContext<unknown>) {
  const get = (spaceId: string, id: string) => owned(ctx, 'eval_experiment', id, spaceId, 'experiment');
  const results = (id: string) => readResults(ctx, id);
  /** Marks an experiment that is not running as running: of two starts at once, the second is told it runs. */
  const claim = async (id: string) => {
    const { numUpdatedRows } = await evalDb(ctx)
      .updateTable('eval_experiment')
      .set({ status: 'running', reason: '', started_at: now(), ended_at: null })
      .where('id', '=', id)
      .where('status', '!=', 'running')
      .executeTakeFirst();
    if (!numUpdatedRows) throw badRequest('The experiment is running.');
  };
  const start = async (id: string) => {
    await claim(id);
    await ctx.service(JobQueueService).enqueue(RUN_JOB, { experiment_id: id });
  };

  /**
   * Experiments this process is running: a stop aborts what is in flight here and waits for the run to end, so what
   * the stop answers is final (a run in another process notices the stop before its next item and its next write).
   */
  const runningHere = new Map<string, { abort: AbortController; ended: Promise<void> }>();

  /** Runs the items without a result yet, a few at once; stops when the experiment is killed. */
  ctx.job({
    name: RUN_JOB,
    concurrency: 2,
    attempts: 1,
    async handler(p: { experiment_id: string }) {
      const e = await evalDb(ctx)
        .selectFrom('eval_experiment')
        .selectAll()
        .where('id', '=', p.experiment_id)
        .executeTakeFirst();
      if (!e || e.status !== 'running') return;
      const abort = new AbortController();
      let ended!: () => void;
      runningHere.set(e.id, { abort, ended: new Promise<void>((r) => (ended = r)) });
      try {
        const version = await evalDb(ctx)
          .selectFrom('eval_set_version')
          .select('items')
          .where('set_id', '=', e.set_id)
          .where('version', '=', e.set_version)
          .executeTakeFirst();
        if (!version) throw new Error(`Version ${e.set_version} of the set is gone.`);
        const items = itemsOf(version).map((it, position) => ({ ...it, position }));
        const done = new Set(
          (
            await evalDb(ctx).selectFrom('eval_result').select('item_id').where('experiment_id', '=', e.id).execute()
          ).map((r) => r.item_id),
        );
        const todo = items.filter((it) => !done.has(it.item_id));
        const target = JSON.parse(e.target) as Target;
        const kind = ctx.registry(EvalTargets).get(target.kind);
        if (!kind) throw new Error(`The target kind ${target.kind} is not in this studio any more.`);
        const evaluators = frozenOf(e);
        const stopped = async () =>
          (await evalDb(ctx).selectFrom('eval_experiment').select('status').where('id', '=', e.id).executeTakeFirst())
            ?.status !== 'running';
        let next = 0;
        const worker = async () => {
          for (let i = next++; i < todo.length; i = next++) {
            if (await stopped()) return abort.abort();
            const it = todo[i];
            const inputs = Object.fromEntries(
              Object.entries(target.mapping).map(([input, column]) => [input, it.data[column]]),
            );
            const started = performance.now();
            let row: Partial<ResultRow> & Pick<ResultRow, 'status'>;
            try {
              const out = await kind.run({
                spaceId: e.space_id,
                userId: e.creator_id,
                settings: target.settings,
                inputs,
                signal: abort.signal,
              });
              const latency = Math.round(performance.now() - started);
              const scores: Score[] = await Promise.all(
                evaluators.map(async (ev) => {
                  const k = ctx.registry(Evaluators).get(ev.kind);
                  if (!k)
                    return {
                      evaluator_id: ev.evaluator_id,
                      score: null,
                      reason: '',
                      error: `The evaluator kind ${ev.kind} is not in this studio.`,
                    };
                  try {
                    const r = await k.evaluate({
                      spaceId: e.space_id,
                      settings: ev.settings,
                      input: cell(ev.input_column ? it.data[ev.input_column] : inputs[Object.keys(inputs)[0]]),
                      output: out.output,
                      reference: cell(ev.reference_column ? it.data[ev.reference_column] : ''),
                      item: it.data,
                      signal: abort.signal,
                    });
                    return { evaluator_id: ev.evaluator_id, score: r.score, reason: r.reason };
                  } catch (err) {
                    return {
                      evaluator_id: ev.evaluator_id,
                      score: null,
                      reason: '',
                      error: describeError(err).slice(0, 500),
                    };
                  }
                }),
              );
              row = {
                status: 'done',
                output: out.output.slice(0, 100_000),
                scores: JSON.stringify(scores),
                latency_ms: latency,
                input_tokens: out.input_tokens ?? 0,
                output_tokens: out.output_tokens ?? 0,
                trace_id: out.trace_id ?? '',
              };
            } catch (err) {
              row = {
                status: 'failed',
                error: describeError(err).slice(0, 2000),
                latency_ms: Math.round(performance.now() - started),
              };
            }
            if (abort.signal.aborted || (await stopped())) return abort.abort();
            await evalDb(ctx)
              .insertInto('eval_result')
              .values({
                experiment_id: e.id,
                item_id: it.item_id,
                position: it.position,
                output: '',
                error: '',
                scores: '[]',
                latency_ms: 0,
                input_tokens: 0,
                output_tokens: 0,
                trace_id: '',
                created_at: now(),
                ...row,
              })
              .onConflict((oc) => oc.columns(['experiment_id', 'item_id']).doNothing())
              .execute();
            await evalDb(ctx)
              .updateTable('eval_experiment')
              .set((eb) => ({
                finished: eb('finished', '+', 1),
                ...(row.status === 'failed' ? { failed: eb('failed', '+', 1) } : {}),
              }))
              .where('id', '=', e.id)
              .execute();
          }
        };
        await Promise.all(Array.from({ length: Math.max(1, Number(e.item_concurrency)) }, worker));
        if (await stopped()) return;
        const failed = Number(
          (
            await evalDb(ctx)
              .selectFrom('eval_result')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('experiment_id', '=', e.id)
              .where('status', '=', 'failed')
              .executeTakeFirst()
          )?.n ?? 0,
        );
        await evalDb(ctx)
          .updateTable('eval_experiment')
          .set({
            status: failed === items.length && items.length ? 'failed' : 'success',
            reason: failed === items.length && items.length ? 'Every item failed: see their errors.' : '',
            ended_at: now(),
          })
          .where('id', '=', e.id)
          .where('status', '=', 'running')
          .execute();
      } catch (err) {
        await evalDb(ctx)
          .updateTable('eval_experiment')
          .set({ status: 'failed', reason: describeError(err).slice(0, 2000), ended_at: now() })
          .where('id', '=', e.id)
          .where('status', '=', 'running')
          .execute();
      } finally {
        runningHere.delete(e.id);
        ended();
      }
    },
  });

  /** An experiment with its results and aggregates (the route's and ExperimentsService's). */
  const detail = async (spaceId: string, experimentId: string) => {
    const e = await get(spaceId, experimentId);
    const rs = await results(e.id);
    const items = await versionItems(ctx, e.set_id, e.set_version);
    // The experiment's evaluators, then the manual metrics people gave.
    const evs: { evaluator_id: string; name: string }[] = frozenOf(e);
    for (const r of rs)
      for (const s of r.scores)
        if (s.evaluator_id.startsWith('manual:') && !evs.some((x) => x.evaluator_id === s.evaluator_id))
          evs.push({ evaluator_id: s.evaluator_id, name: s.name ?? s.evaluator_id.slice(7) });
    return {
      experiment: experimentView(e),
      results: rs.map((r) => ({ ...r, item: items.get(r.item_id) ?? {} })),
      aggregates: aggregates(
        evs,
        rs.filter((r) => r.status === 'done'),
      ),
    };
  };
  const kill = async (spaceId: string, experimentId: string) => {
    const e = await get(spaceId, experimentId);
    if (e.status !== 'running' && e.status !== 'pending')
      throw badRequest(`The experiment is ${e.status}, not running.`);
    // Only from pending or running: a run that ended meanwhile keeps its outcome, and the stop says so.
    const { numUpdatedRows } = await evalDb(ctx)
      .updateTable('eval_experiment')
      .set({ status: 'killed', reason: 'Stopped by a person.', ended_at: now() })
      .where('id', '=', e.id)
      .where('status', 'in', ['running', 'pending'])
      .executeTakeFirst();
    if (!numUpdatedRows)
      throw badRequest(`The experiment is ${(await get(spaceId, experimentId)).status}, not running.`);
    // Running here: what is in flight is dropped now, and the answer waits (a while at most) for the run to end.
    const here = runningHere.get(e.id);
    if (here) {
      here.abort.abort();
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([here.ended, new Promise((r) => (timer = setTimeout(r, 10_000)))]);
      clearTimeout(timer);
    }
    return {};
  };
  const retry = async (spaceId: string, experimentId: string) => {
    const e = await get(spaceId, experimentId);
    await claim(e.id);
    const failed = Number(
      (
        await evalDb(ctx)
          .deleteFrom('eval_result')
          .where('experiment_id', '=', e.id)
          .where('status', '=', 'failed')
          .executeTakeFirst()
      ).numDeletedRows ?? 0,
    );
    await evalDb(ctx)
      .updateTable('eval_experiment')
      .set((eb) => ({ finished: eb('finished', '-', failed), failed: 0 }))
      .where('id', '=', e.id)
      .execute();
    await ctx.service(JobQueueService).enqueue(RUN_JOB, { experiment_id: e.id });
    return {};
  };
  /** Checks and starts an experiment (the route's and other extensions' through ExperimentsService). */
  const create = async (userId: string, body: z.output<typeof CreateBody>) => {
    const set = await owned(ctx, 'eval_set', body.set_id, body.space_id, 'evaluation set');
    const columns = (JSON.parse(set.columns) as { name: string }[]).map((c) => c.name);
    const kind = ctx.registry(EvalTargets).get(body.target.kind);
    if (!kind) throw badRequest(`There is no target kind ${body.target.kind}.`, { field: 'target' });
    await kind.check(body.space_id, body.target.settings);
    const inputs = await kind.inputs(body.space_id, body.target.settings);
    for (const [input, column] of Object.entries(body.target.mapping)) {
      if (!inputs.includes(input))
        throw badRequest(`The target has no input ${input} (it has ${inputs.join(', ') || 'none'}).`, {
          field: 'target',
        });
      if (!columns.includes(column)) throw badRequest(`The set has no column ${column}.`, { field: 'target' });
    }
    const frozen: Frozen[] = [];
    for (const ref of body.evaluators) {
      const ev = await owned(ctx, 'eval_evaluator', ref.evaluator_id, body.space_id, 'evaluator');
      const version = ref.version ?? ev.latest_version;
      const v = await evalDb(ctx)
        .selectFrom('eval_evaluator_version')
        .select('settings')
        .where('evaluator_id', '=', ev.id)
        .where('version', '=', version)
        .executeTakeFirst();
      if (!v) throw badRequest(`The evaluator ${ev.name} has no version ${version}.`, { field: 'evaluators' });
      for (const c of [ref.input_column, ref.reference_column])
        if (c && !columns.includes(c)) throw badRequest(`The set has no column ${c}.`, { field: 'evaluators' });
      frozen.push({
        evaluator_id: ev.id,
        name: ev.name,
        kind: ev.kind,
        version,
        settings: JSON.parse(v.settings),
        input_column: ref.input_column,
        reference_column: ref.reference_column,
      });
    }
    let setVersion = body.set_version;
    if (!setVersion) setVersion = await freeze(ctx, set, undefined, `For the experiment ${body.name}`);
    const sv = await evalDb(ctx)
      .selectFrom('eval_set_version')
      .select('item_count')
      .where('set_id', '=', set.id)
      .where('version', '=', setVersion)
      .executeTakeFirst();
    if (!sv) throw badRequest(`The set has no version ${setVersion}.`, { field: 'set_version' });
    const id = ctx.host.newId();
    const t = now();
    await evalDb(ctx)
      .insertInto('eval_experiment')
      .values({
        id,
        space_id: body.space_id,
        name: body.name,
        description: body.description,
        creator_id: userId,
        set_id: set.id,
        set_version: setVersion,
        target: JSON.stringify(body.target),
        evaluators: JSON.stringify(frozen),
        item_concurrency: body.item_concurrency,
        status: 'pending',
        reason: '',
        total: Number(sv.item_count),
        finished: 0,
        failed: 0,
        created_at: t,
        updated_at: t,
        started_at: null,
        ended_at: null,
      })
      .execute();
    await start(id);
    return { experiment_id: id };
  };
  ctx.provide(ExperimentsService, {
    create: async (o) => ({
      experimentId: (
        await create(
          o.userId,
          CreateBody.parse({
            space_id: o.spaceId,
            name: o.name,
            set_id: o.setId,
            set_version: o.setVersion,
            target: o.target,
            evaluators: o.evaluators,
            item_concurrency: o.itemConcurrency,
          }),
        )
      ).experiment_id,
    }),
    get: (spaceId, id) => detail(spaceId, id) as Promise<ExperimentDetail>,
    kill: async (spaceId, id) => void (await kill(spaceId, id)),
    retry: async (spaceId, id) => void (await retry(spaceId, id)),
  });
  ctx.route({
    ...NewExperiment,
    auth: inSpace,
    handler: ({ body, caller }) => create(caller!.userId, body),
  });
  ctx.route({
    ...ListTargetKinds,
    auth: 'user',
    handler: () => ({
      targets: ctx
        .registry(EvalTargets)
        .list()
        .map((t) => ({ kind: t.kind, label: t.label })),
    }),
  });
  ctx.route({
    ...ListTargetInputs,
    auth: inSpace,
    handler: async ({ body }) => {
      const kind = ctx.registry(EvalTargets).get(body.kind);
      if (!kind) throw badRequest(`There is no target kind ${body.kind}.`, { field: 'kind' });
      return { inputs: await kind.inputs(body.space_id, body.settings) };
    },
  });
  ctx.route({
    ...ListTargetChoices,
    auth: inSpace,
    handler: async ({ body }) => {
      const kind = ctx.registry(EvalTargets).get(body.kind);
      if (!kind) throw badRequest(`There is no target kind ${body.kind}.`, { field: 'kind' });
      return { choices: (await kind.choices?.(body.space_id, body.settings)) ?? [] };
    },
  });
  ctx.route({
    ...ListExperiments,
    auth: inSpace,
    handler: async ({ body }) => {
      let q = evalDb(ctx).selectFrom('eval_experiment').selectAll().where('space_id', '=', body.space_id);
      if (body.set_id) q = q.where('set_id', '=', body.set_id);
      return {
        experiments: (await q.orderBy('created_at', 'desc').limit(200).execute()).map(experimentView),
      };
    },
  });
  ctx.route({
    ...GetExperiment,
    auth: inSpace,
    handler: ({ body }) => detail(body.space_id, body.experiment_id),
  });
  ctx.route({
    ...KillExperiment,
    auth: inSpace,
    handler: ({ body }) => kill(body.space_id, body.experiment_id),
  });
  ctx.route({
    ...RetryExperiment,
    auth: inSpace,
    handler: ({ body }) => retry(body.space_id, body.experiment_id),
  });
  ctx.route({
    ...CloneExperiment,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const e = await get(body.space_id, body.experiment_id);
      const id = ctx.host.newId();
      const t = now();
      await evalDb(ctx)
        .insertInto('eval_experiment')
        .values({
          ...e,
          id,
          name: body.name ?? `${e.name} (copy)`.slice(0, 100),
          creator_id: caller!.userId,
          status: 'pending',
          reason: '',
          finished: 0,
          failed: 0,
          created_at: t,
          updated_at: t,
          started_at: null,
          ended_at: null,
        })
        .execute();
      await start(id);
      return { experiment_id: id };
    },
  });
  ctx.route({
    ...CompareExperiments,
    auth: inSpace,
    handler: async ({ body }) => {
      const exps = await Promise.all(body.experiment_ids.map((id) => get(body.space_id, id)));
      const all = await Promise.all(exps.map((e) => results(e.id)));
      const names = new Map<string, string>();
      for (const e of exps) for (const ev of frozenOf(e)) names.set(ev.evaluator_id, ev.name);
      const evs = [...names].map(([evaluator_id, name]) => ({ evaluator_id, name }));
      const aggs = all.map((rs) =>
        aggregates(
          evs,
          rs.filter((r) => r.status === 'done'),
        ),
      );
      const metrics = evs.map((ev, i) => {
        const means = aggs.map((a) => a[i].mean);
        return {
          evaluator_id: ev.evaluator_id,
          name: ev.name,
          means,
          deltas: means.map((m) => (m === null || means[0] === null ? null : m - means[0])),
        };
      });
      const sameSet = exps.every((e) => e.set_id === exps[0].set_id);
      const keys = [...new Set(all.flatMap((rs) => rs.map((r) => (sameSet ? r.item_id : String(r.position)))))];
      const rows = keys.map((k) => ({
        key: k,
        cells: all
          .map((rs) => rs.find((r) => (sameSet ? r.item_id : String(r.position)) === k))
          .map((r) => (r ? { output: r.output.slice(0, 2000), status: r.status, scores: r.scores } : null)),
      }));
      return { experiments: exps.map(experimentView), metrics, rows };
    },
  });
}

/** Experiments a stopped process left running: picked up again (the items without a result run). */
export async function resumeExperiments(ctx: ServerContext<unknown>) {
  const left = await evalDb(ctx).selectFrom('eval_experiment').select('id').where('status', '=', 'running').execute();
  for (const e of left) await ctx.service(JobQueueService).enqueue(RUN_JOB, { experiment_id: e.id });
  return left.length;
}
