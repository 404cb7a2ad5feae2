import { SpansRecorded, describeError } from '@tessera/sdk';
import { BulkWriterService, LocalCache, type ServerContext } from '@tessera/sdk/server';
import { VariablesService } from '@tessera/ext-variables/shared';
import { TracesService } from '@tessera/ext-observability/shared';
import {
  ExecuteMode,
  NodeExecStatus,
  RunStatus,
  WorkflowRunFinished,
  type Canvas,
  type NodeExecRecord,
} from '../shared/index.ts';

export type { NodeExecRecord };
import type { RunOutcome, RunState, WorkflowEngine } from './engine/engine.ts';
import type { NodeTypeLookup } from './engine/validate.ts';
import { RunTracer, studioSpans } from './tracer.ts';
import { workflowDb, type WorkflowDb } from './store.ts';
import type { Kysely } from 'kysely';

export type RunEvent =
  | { type: 'node'; record: NodeExecRecord }
  | { type: 'message'; node_id: string; node_title: string; content: string; final: boolean; seq: number }
  | {
      type: 'interrupt';
      node_id: string;
      node_title: string;
      event_id: string;
      interrupt_type: number;
      data: Record<string, unknown>;
    }
  | { type: 'done'; status: number; output?: unknown; error?: string; exit?: { node_id: string; node_title: string } };

interface LiveRun {
  controller: AbortController;
  nodes: Map<string, NodeExecRecord>;
  listeners: Set<(e: RunEvent) => void>;
  done: Promise<RunOutcome>;
}

export interface RunRow {
  id: string;
  workflow_id: string;
  space_id: string;
  user_id: string;
  execute_mode: number;
  run_mode: number;
  commit_id: string | null;
  version: string | null;
  canvas: string;
  status: number;
  input: string;
  output: string | null;
  error: string | null;
  state: string | null;
  interrupt: string | null;
  log_id: string;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
  duration_ms: number | null;
  draft_revision?: number | null;
  /** Open-API runs: the bot that ran the workflow, the channel (connector) and the end user in it. */
  bot_id?: string | null;
  connector_id?: string | null;
  connector_uid?: string | null;
  /** The queue job that last took the run (runs from the queue only). */
  job_id?: string | null;
  /** The first node not safe to repeat that started (runs from the queue only). */
  unrepeatable_node?: string | null;
  /** Model tokens the run used (the sum over its nodes). */
  input_tokens?: number;
  output_tokens?: number;
}

// A run stamps several moments (each node's start, the run's end): under load most fall in the same
// millisecond, and formatting a date costs more than the rest of a trivial node's bookkeeping.
let lastMs = 0;
let lastIso = '';
const now = () => {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
};
const json = (v: unknown) =>
  v === undefined ? null : JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x));

/** Creates, executes, persists, streams, cancels and recovers workflow runs. */
export class RunService {
  #live = new Map<string, LiveRun>();
  #ctx: ServerContext<unknown>;
  #engine: WorkflowEngine;
  #typeOf: NodeTypeLookup;

  #commitCanvas: (commitId: string) => Promise<Canvas>;

  constructor(
    ctx: ServerContext<unknown>,
    engine: WorkflowEngine,
    typeOf: NodeTypeLookup,
    commitCanvas: (commitId: string) => Promise<Canvas>,
  ) {
    this.#ctx = ctx;
    this.#engine = engine;
    this.#typeOf = typeOf;
    this.#commitCanvas = commitCanvas;
  }

  /**
   * Sync runs of the open API are written behind: the run, its node executions and spans are stored
   * together shortly after it ends (one transaction for many runs), not before and after it.
   */
  #pending = new Map<string, { row: RunRow; canvas: Canvas }>();
  /**
   * The workflow's name of a run created here and not yet executed: its trace is named after it. Bounded: a run
   * queued for another process (the scale-out engine) is executed there and never taken out here.
   */
  #names = new LocalCache<string, string>({ max: 10_000 });
  #queue: { runs: Record<string, unknown>[]; nodes: Record<string, unknown>[]; spans: Record<string, unknown>[] } = {
    runs: [],
    nodes: [],
    spans: [],
  };
  #flushTimer: ReturnType<typeof setTimeout> | undefined;
  #flushing: Promise<void> = Promise.resolve();

  async create(
    r: {
      workflow_id: string;
      space_id: string;
      user_id: string;
      execute_mode: number;
      run_mode: number;
      name?: string;
      commit_id?: string | null;
      version?: string | null;
      draft_revision?: number;
      canvas: Canvas;
      input: Record<string, unknown>;
      log_id: string;
      bot_id?: string | null;
      connector_id?: string | null;
      connector_uid?: string | null;
    },
    opts: { writeBehind?: boolean } = {},
  ): Promise<RunRow> {
    const row: RunRow = {
      id: this.#ctx.host.newId(),
      workflow_id: r.workflow_id,
      space_id: r.space_id,
      user_id: r.user_id,
      execute_mode: r.execute_mode,
      run_mode: r.run_mode,
      commit_id: r.commit_id ?? null,
      version: r.version ?? null,
      // A run of a commit (a published version) reads the commit's canvas; a draft run keeps its own copy.
      canvas: r.commit_id ? '' : JSON.stringify(r.canvas),
      status: RunStatus.Running,
      input: JSON.stringify(r.input),
      output: null,
      error: null,
      state: null,
      interrupt: null,
      log_id: r.log_id,
      created_at: now(),
      updated_at: now(),
      finished_at: null,
      duration_ms: null,
      draft_revision: r.draft_revision ?? null,
      bot_id: r.bot_id ?? null,
      connector_id: r.connector_id ?? null,
      connector_uid: r.connector_uid ?? null,
      input_tokens: 0,
      output_tokens: 0,
    };
    if (r.name) this.#names.set(row.id, r.name);
    if (opts.writeBehind) this.#pending.set(row.id, { row, canvas: r.canvas });
    else await workflowDb(this.#ctx).insertInto('workflow_run').values(row).execute();
    return row;
  }

  /** Writes everything written behind so far (at stop, and in tests): a few multi-row inserts. */
  async flush(): Promise<void> {
    clearTimeout(this.#flushTimer);
    this.#flushTimer = undefined;
    const batch = this.#queue;
    if (batch.runs.length) {
      this.#queue = { runs: [], nodes: [], spans: [] };
      // One transaction, off the request path (the host's bulk writer: a worker thread on SQLite).
      this.#flushing = this.#flushing.then(() =>
        this.#ctx
          .service(BulkWriterService)
          .insert([
            { table: 'workflow_node_exec', rows: batch.nodes },
            { table: 'workflow_span', rows: batch.spans },
            { table: 'workflow_run', rows: batch.runs },
          ])
          .then(() => batch.runs.forEach((r) => this.#pending.delete(r.id as string)))
          .catch((e) => this.#ctx.report(e, { what: 'writing workflow runs' })),
      );
    }
    await this.#flushing;
  }

  #later(rows: { run: Record<string, unknown>; nodes: Record<string, unknown>[]; spans: Record<string, unknown>[] }) {
    this.#queue.runs.push(rows.run);
    this.#queue.nodes.push(...rows.nodes);
    this.#queue.spans.push(...rows.spans);
    if (this.#queue.runs.length >= 100) void this.flush();
    else this.#flushTimer ??= setTimeout(() => void this.flush(), 20);
  }

  async get(runId: string): Promise<RunRow | undefined> {
    const pending = this.#pending.get(runId);
    if (pending) return pending.row;
    return await workflowDb(this.#ctx)
      .selectFrom('workflow_run')
      .selectAll()
      .where('id', '=', runId)
      .executeTakeFirst();
  }

  isLive(runId: string): boolean {
    return this.#live.has(runId);
  }

  /** Listens to a run's events; returns the unsubscribe function. */
  subscribe(runId: string, fn: (e: RunEvent) => void): () => void {
    const live = this.#live.get(runId);
    if (!live) return () => undefined;
    live.listeners.add(fn);
    return () => live.listeners.delete(fn);
  }

  /** A line a node logged (ctx.log) while it runs: kept with its result. */
  log(runId: string, nodeId: string, message: string): void {
    const rec = this.#live.get(runId)?.nodes.get(nodeId);
    if (!rec || rec.status !== NodeExecStatus.Running) return;
    rec.logs = [...(rec.logs ?? []), message.slice(0, 2000)].slice(-100);
  }

  /** Node results so far: live ones for a running run, stored ones otherwise. */
  async nodeResults(runId: string): Promise<NodeExecRecord[]> {
    const stored = (
      await workflowDb(this.#ctx)
        .selectFrom('workflow_node_exec')
        .selectAll()
        .where('run_id', '=', runId)
        .orderBy('started_at')
        .execute()
    ).map((r): NodeExecRecord => ({
      ...(r as unknown as NodeExecRecord),
      inputs: parse(r.inputs),
      outputs: parse(r.outputs),
      error: r.error ?? undefined,
      branch: r.branch ?? undefined,
      logs: (parse(r.logs) as string[] | undefined) ?? undefined,
    }));
    const live = this.#live.get(runId);
    if (!live) return stored;
    const byNode = new Map(stored.map((s) => [s.node_id, s]));
    for (const r of live.nodes.values()) byNode.set(r.node_id, r);
    return [...byNode.values()];
  }

  cancel(runId: string): boolean {
    const live = this.#live.get(runId);
    if (!live) return false;
    live.controller.abort();
    return true;
  }

  /** Runs (or resumes) a stored run to its end or its next interrupt. */
  execute(
    runId: string,
    resume?: { event_id: string; data: unknown },
    debugNode?: { node_id: string; inputs: Record<string, unknown> },
  ): Promise<RunOutcome> {
    const existing = this.#live.get(runId);
    if (existing) return existing.done;
    const live: LiveRun = {
      controller: new AbortController(),
      nodes: new Map(),
      listeners: new Set(),
      done: undefined as unknown as Promise<RunOutcome>,
    };
    this.#live.set(runId, live);
    live.done = this.#execute(runId, live, resume, debugNode).finally(() => this.#live.delete(runId));
    return live.done;
  }

  /** Waits for a run that is executing (or returns at once). */
  async settled(runId: string): Promise<void> {
    await this.#live.get(runId)?.done.catch(() => undefined);
  }

  async #execute(
    runId: string,
    live: LiveRun,
    resume?: { event_id: string; data: unknown },
    debugNode?: { node_id: string; inputs: Record<string, unknown> },
  ): Promise<RunOutcome> {
    const pending = this.#pending.get(runId);
    const row = pending?.row ?? (await this.get(runId));
    if (!row) throw new Error(`run ${runId} does not exist`);
    const began = Date.now();
    const canvas =
      pending?.canvas ?? (row.canvas ? (JSON.parse(row.canvas) as Canvas) : await this.#commitCanvas(row.commit_id!));
    const emit = (e: RunEvent) => live.listeners.forEach((fn) => fn(e));
    const tracer = new RunTracer(() => this.#ctx.host.newId());
    // The trace is named after the workflow (a run resumed after a restart looks the name up).
    const name = this.#names.get(runId) ?? (await this.#workflowName(row.workflow_id));
    this.#names.delete(runId);
    const runSpan = tracer.start(name, {
      workflow_id: row.workflow_id,
      execute_id: row.id,
      execute_mode: row.execute_mode,
      resumed: !!resume,
    });
    const titles = new Map(canvas.nodes.map((n) => [n.node_id, n.node_param.title ?? n.node_id]));
    const finished: NodeExecRecord[] = [];
    // Tokens add up across the resumptions of a run.
    const usage = { input_tokens: row.input_tokens ?? 0, output_tokens: row.output_tokens ?? 0 };
    let seq = 0;
    const record = (node_id: string, patch: Partial<NodeExecRecord> & { node_type: string }) => {
      // A node that runs again (a loop or batch body) gets a record of its own for each execution.
      const existing = live.nodes.get(node_id);
      const prev = existing && existing.status === NodeExecStatus.Running ? existing : undefined;
      const rec: NodeExecRecord = {
        id: prev?.id ?? this.#ctx.host.newId(),
        node_id,
        title: titles.get(node_id) ?? node_id,
        status: NodeExecStatus.Running,
        started_at: prev?.started_at ?? now(),
        duration_ms: 0,
        tokens: 0,
        ...prev,
        ...patch,
      };
      live.nodes.set(node_id, rec);
      return rec;
    };
    let outcome: RunOutcome;
    let marked = !!row.unrepeatable_node;
    try {
      outcome = await this.#engine.run({
        canvas,
        input: JSON.parse(row.input),
        runId: row.id,
        workflowId: row.workflow_id,
        spaceId: row.space_id,
        userId: row.user_id,
        endUserId: row.connector_uid ?? row.user_id,
        executeMode: row.execute_mode,
        signal: live.controller.signal,
        state: row.state ? (JSON.parse(row.state) as RunState) : undefined,
        resume,
        spanId: runSpan.id,
        tracer,
        debugNode,
        variables: await this.#variables(row, canvas),
        hooks: {
          nodeStarted: ({ node, type, inputs }) =>
            emit({
              type: 'node',
              record: record(node.node_id, {
                node_type: type.key,
                status: NodeExecStatus.Running,
                inputs,
                started_at: now(),
              }),
            }),
          nodeFinished: ({ node, type, status, inputs, outputs, error, durationMs, branch, tokens, usage: used }) => {
            if (status === 'skipped') return;
            if (used) {
              usage.input_tokens += used.input_tokens;
              usage.output_tokens += used.output_tokens;
            }
            const rec = record(node.node_id, {
              node_type: type.key,
              status:
                status === 'success'
                  ? NodeExecStatus.Success
                  : status === 'fail'
                    ? NodeExecStatus.Fail
                    : NodeExecStatus.Running,
              inputs,
              outputs,
              error,
              branch,
              duration_ms: Math.round(durationMs),
              tokens: tokens ?? 0,
            });
            if (status !== 'interrupted') finished.push({ ...rec });
            emit({ type: 'node', record: rec });
          },
          // Runs from the queue note the first node that is not safe to repeat before it starts: if the worker
          // stops, the run is not run again from the start (claimDelivery).
          beforeUnrepeatable: row.job_id
            ? async ({ node }) => {
                if (marked) return;
                marked = true;
                await workflowDb(this.#ctx)
                  .updateTable('workflow_run')
                  .set({ unrepeatable_node: node.node_id })
                  .where('id', '=', row.id)
                  .where('unrepeatable_node', 'is', null)
                  .execute();
              }
            : undefined,
          streamed: ({ node, content, final }) =>
            emit({
              type: 'message',
              node_id: node.node_id,
              node_title: titles.get(node.node_id) ?? node.node_id,
              content,
              final,
              seq: seq++,
            }),
        },
      });
    } catch (e) {
      outcome = { status: 'fail', state: { nodes: {} }, error: { message: describeError(e) } };
    }
    runSpan.end(outcome.status === 'success' || outcome.status === 'interrupted' ? 'ok' : 'error', {
      status: outcome.status,
    });

    const status =
      outcome.status === 'success'
        ? RunStatus.Success
        : outcome.status === 'cancel'
          ? RunStatus.Cancel
          : outcome.status === 'interrupted'
            ? RunStatus.Running
            : RunStatus.Fail;
    const duration = Date.now() - began + (row.duration_ms ?? 0);
    const final = {
      status,
      output: outcome.output !== undefined ? json(outcome.output) : null,
      error: outcome.error ? outcome.error.message : null,
      state: outcome.status === 'interrupted' ? JSON.stringify(outcome.state) : null,
      interrupt: outcome.interrupt ? JSON.stringify(outcome.interrupt) : null,
      updated_at: now(),
      finished_at: status === RunStatus.Running ? null : now(),
      duration_ms: duration,
      input_tokens: usage.input_tokens,
      output_tokens: usage.output_tokens,
    };
    const nodeRows = finished.map((r) => ({
      id: r.id,
      run_id: row.id,
      node_id: r.node_id,
      node_type: r.node_type,
      title: r.title,
      status: r.status,
      inputs: json(r.inputs),
      outputs: json(r.outputs),
      error: r.error ?? null,
      branch: r.branch ?? null,
      started_at: r.started_at,
      duration_ms: r.duration_ms,
      tokens: r.tokens,
      logs: r.logs?.length ? JSON.stringify(r.logs) : null,
    }));
    // While observability keeps the studio's traces, the run's spans go there only (the trace route reads them back).
    const spanRows = this.#ctx.optionalService(TracesService)
      ? []
      : tracer.spans.map((s) => ({
          id: s.id,
          run_id: row.id,
          parent_id: s.parent_id,
          name: s.name,
          start_ms: s.start_ms,
          end_ms: s.end_ms,
          status: s.status,
          attributes: JSON.stringify(s.attributes),
        }));
    // A successful test run of the current draft lets it be submitted and published. It is recorded no later
    // than the run's success, so whoever sees the run succeed sees the workflow tested.
    const tested = status === RunStatus.Success && row.execute_mode === ExecuteMode.TestRun ? row.draft_revision : null;
    const markTested = (db: Kysely<WorkflowDb>, revision: number) =>
      db
        .updateTable('workflow_meta')
        .set({ tested_revision: revision })
        .where('id', '=', row.workflow_id)
        .where('draft_revision', '=', revision)
        .execute();
    if (pending && status !== RunStatus.Running) {
      if (tested) await markTested(workflowDb(this.#ctx), tested);
      Object.assign(row, final);
      this.#later({ run: { ...row }, nodes: nodeRows, spans: spanRows });
    } else {
      await workflowDb(this.#ctx)
        .transaction()
        .execute(async (trx) => {
          if (pending) {
            // A run written behind that now waits on a question is stored at once (it must survive a restart).
            this.#pending.delete(row.id);
            await trx
              .insertInto('workflow_run')
              .values({ ...row, ...final })
              .execute();
          } else await trx.updateTable('workflow_run').set(final).where('id', '=', row.id).execute();
          if (tested) await markTested(trx, tested);
          if (nodeRows.length)
            await trx
              .deleteFrom('workflow_node_exec')
              .where(
                'id',
                'in',
                nodeRows.map((r) => r.id),
              )
              .execute();
          for (let i = 0; i < nodeRows.length; i += 40)
            await trx
              .insertInto('workflow_node_exec')
              .values(nodeRows.slice(i, i + 40))
              .execute();
          for (let i = 0; i < spanRows.length; i += 40)
            await trx
              .insertInto('workflow_span')
              .values(spanRows.slice(i, i + 40))
              .execute();
        });
      Object.assign(row, final);
    }
    if (outcome.interrupt) {
      emit({
        type: 'interrupt',
        node_id: outcome.interrupt.node_id,
        node_title: titles.get(outcome.interrupt.node_id) ?? '',
        event_id: outcome.interrupt.event_id,
        interrupt_type: outcome.interrupt.type,
        data: outcome.interrupt.data,
      });
    }
    const exit = canvas.nodes.find((n) => !n.parent_id && this.#typeOf(n.type)?.role === 'exit');
    emit({
      type: 'done',
      status,
      output: outcome.output,
      error: outcome.error?.message,
      exit: exit && { node_id: exit.node_id, node_title: titles.get(exit.node_id) ?? exit.node_id },
    });
    if (status !== RunStatus.Running)
      this.#ctx.emit(WorkflowRunFinished, {
        execute_id: row.id,
        workflow_id: row.workflow_id,
        space_id: row.space_id,
        status,
        duration_ms: duration,
        execute_mode: row.execute_mode,
        user_id: row.user_id,
        connector_id: row.connector_id ?? '',
        connector_uid: row.connector_uid ?? '',
        bot_id: row.bot_id ?? '',
        input_tokens: usage.input_tokens,
        output_tokens: usage.output_tokens,
      });
    // The run's spans for whoever keeps traces (a run resumed after a question adds its own to the same trace).
    this.#ctx.emit(SpansRecorded, {
      space_id: row.space_id,
      source: 'workflow',
      spans: studioSpans(row, tracer.spans, nodeRows),
    });
    return outcome;
  }

  /** The variables a run sees: system facts, and the app and user variables when the variables extension runs. */
  async #workflowName(workflowId: string): Promise<string> {
    const meta = await workflowDb(this.#ctx)
      .selectFrom('workflow_meta')
      .select('name')
      .where('id', '=', workflowId)
      .executeTakeFirst();
    return meta?.name || 'workflow run';
  }

  async #variables(row: RunRow, canvas: Canvas) {
    const store = usesStoredVariables(canvas) ? this.#ctx.optionalService(VariablesService) : undefined;
    const [app, user] = store
      ? await Promise.all([
          store.all({ scope: 'app', spaceId: row.space_id }),
          store.all({ scope: 'user', spaceId: row.space_id, userId: row.user_id }),
        ])
      : [{}, {}];
    return {
      system: { user_id: row.user_id, space_id: row.space_id, execute_id: row.id, workflow_id: row.workflow_id },
      app,
      user,
    };
  }

  /**
   * A queue job is about to run `runId`. The first delivery of a job runs it. The same job delivered again
   * means the worker that had it stopped: a run already ended (failed by the recovery sweep) is left alone,
   * one where a node that is not safe to repeat had started is failed with the reason, and any other is run
   * again from the start.
   */
  async claimDelivery(runId: string, jobId: string): Promise<boolean> {
    const db = workflowDb(this.#ctx);
    const first = await db
      .updateTable('workflow_run')
      .set({ job_id: jobId })
      .where('id', '=', runId)
      .where((eb) => eb.or([eb('job_id', 'is', null), eb('job_id', '<>', jobId)]))
      .executeTakeFirst();
    if (Number(first.numUpdatedRows) === 1) return true;
    const row = await db
      .selectFrom('workflow_run')
      .select(['status', 'unrepeatable_node', 'interrupt'])
      .where('id', '=', runId)
      .executeTakeFirst();
    if (!row || Number(row.status) !== RunStatus.Running || this.#live.has(runId)) return false;
    if (row.unrepeatable_node) {
      await db
        .updateTable('workflow_run')
        .set({
          status: RunStatus.Fail,
          error: `The worker running this run stopped after node ${row.unrepeatable_node} had started, and that node is not safe to run twice (it may have sent a request or written data). The run was failed rather than run again; run the workflow again if that is what you want.`,
          finished_at: now(),
          updated_at: now(),
        })
        .where('id', '=', runId)
        .where('status', '=', RunStatus.Running)
        .execute();
      this.#ctx.logger.warn(
        `run ${runId}: its worker stopped after node ${row.unrepeatable_node} (not safe to repeat) had started; failed instead of run again`,
      );
      return false;
    }
    this.#ctx.logger.warn(
      `run ${runId}: its worker stopped; running it again from the start (every node it had started is safe to repeat)`,
    );
    return true;
  }

  /** Live runs say they are alive: their updated_at moves every 15 s (other processes judge staleness by it). */
  async heartbeat(): Promise<void> {
    const ids = [...this.#live.keys()].filter((id) => !this.#pending.has(id));
    if (ids.length)
      await workflowDb(this.#ctx)
        .updateTable('workflow_run')
        .set({ updated_at: now() })
        .where('id', 'in', ids)
        .execute();
  }

  /**
   * Runs left "Running" by a process that stopped are failed with a reason (runs waiting for an answer
   * keep waiting). Alone (no shared queue), every such run at start is orphaned; with several processes,
   * only runs whose heartbeat stopped more than `staleAfterMs` ago (the recovery window).
   */
  async recoverOrphans({
    staleOnly,
    staleAfterMs = 120_000,
  }: {
    staleOnly: boolean;
    staleAfterMs?: number;
  }): Promise<number> {
    let q = workflowDb(this.#ctx)
      .updateTable('workflow_run')
      .set({
        status: RunStatus.Fail,
        error: 'The server stopped while this run was in progress. Run the workflow again.',
        finished_at: now(),
        updated_at: now(),
      })
      .where('status', '=', RunStatus.Running)
      .where('interrupt', 'is', null);
    if (staleOnly) q = q.where('updated_at', '<', new Date(Date.now() - staleAfterMs).toISOString());
    const live = [...this.#live.keys()];
    if (live.length) q = q.where('id', 'not in', live);
    const r = await q.executeTakeFirst();
    return Number(r.numUpdatedRows ?? 0);
  }
}

function parse(s: string | null): unknown {
  if (s === null || s === undefined) return undefined;
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

const usage = new WeakMap<Canvas, boolean>();
/** Whether a canvas reads or writes app or user variables (most do not: their runs skip loading them). */
function usesStoredVariables(canvas: Canvas): boolean {
  let uses = usage.get(canvas);
  if (uses === undefined) {
    uses = canvas.nodes.some(
      (n) =>
        n.type === '40' ||
        n.type === 'assign_variable' ||
        n.node_param.inputs.some(
          (i) =>
            (i.value.kind === 'var' && i.value.scope !== 'system') ||
            (i.value.kind === 'template' && /\{\{\s*(app|user)\./.test(i.value.template)),
        ) ||
        /\{\{\s*(app|user)\./.test(JSON.stringify(n.node_param.settings ?? {})),
    );
    usage.set(canvas, uses);
  }
  return uses;
}
