import { ApiError, badRequest, ErrorCode, isRecord, OpenApiCode, parseCallerJson, parseStoredJson } from '@tessera/sdk';
import { LocalCache, type ServerContext } from '@tessera/sdk/server';
import { z } from 'zod';
import { ExecuteMode, RunMode, RunStatus } from '../shared/index.ts';
import { RunAnswer, RunHistoryAnswer, VersionPage, WorkflowInfo, WorkflowPage } from '../shared/open-api.ts';
import type { WorkflowApiDeps } from './common.ts';
import { pipeRunToSse } from './run-stream.ts';
import type { RunRow } from './runs.ts';
import { workflowDb } from './store.ts';

const Interrupt = z.object({ event_id: z.string() }).loose();

/** The channel (connector) of runs started through the open API, as Coze names its API channel. */
export const API_CONNECTOR_ID = '1024';

/** Not found, answered with the open API's code for a missing or unpublished workflow (4200). */
const missing = (msg: string) => new ApiError(404, ErrorCode.NOT_FOUND, msg, '', { openCode: OpenApiCode.NOT_FOUND });

const STATUS_NAMES: Record<number, string> = {
  [RunStatus.Running]: 'Running',
  [RunStatus.Success]: 'Success',
  [RunStatus.Fail]: 'Fail',
  [RunStatus.Cancel]: 'Cancel',
};

/** The public workflow API, shaped like Coze's OpenAPI (so its SDK works with a personal access token). */
export function registerOpenApi(ctx: ServerContext<unknown>, deps: WorkflowApiDeps) {
  const { store, runs } = deps;
  // A workflow never moves to another space: its space is looked up once.
  const spaces = new LocalCache<string, string>({ max: 10_000 });
  const spaceOf = async (workflowId: unknown) => {
    if (typeof workflowId !== 'string' || !workflowId) throw badRequest('workflow_id is required.');
    return spaces.getOrLoad(workflowId, async () => (await store.meta(workflowId).catch(notFoundAs4200)).space_id);
  };
  /** A link that opens the run in the studio: the workflow's editor with the run's results and trace. */
  const debugUrl = (r: { workflow_id: string; space_id: string; id: string }) =>
    `${ctx.host.publicUrl.replace(/\/$/, '')}/workflows/${r.workflow_id}?space_id=${r.space_id}&execute_id=${r.id}`;
  const usageOf = (r: RunRow) => ({
    input_count: r.input_tokens ?? 0,
    output_count: r.output_tokens ?? 0,
    token_count: (r.input_tokens ?? 0) + (r.output_tokens ?? 0),
  });
  const byBody = { space: (r: { body: any }) => spaceOf(r.body?.workflow_id) };
  const byQuery = { space: (r: { query: any }) => spaceOf(r.query?.workflow_id) };
  const byParams = { space: (r: { params: any }) => spaceOf(r.params?.workflow_id) };

  const published = (workflowId: string, version?: string) => store.published(workflowId, version);

  const RunBody = z.object({
    workflow_id: z.string().min(1),
    parameters: z.union([z.record(z.string(), z.unknown()), z.string()]).optional(),
    version: z.string().optional(),
    is_async: z.boolean().optional(),
    bot_id: z.string().optional(),
    app_id: z.string().optional(),
    ext: z.record(z.string(), z.unknown()).optional(),
  });
  const params = (p: unknown) => {
    if (typeof p !== 'string') return (p ?? {}) as Record<string, unknown>;
    const v = parseCallerJson(p, 'parameters');
    if (!isRecord(v)) throw badRequest("parameters must be a JSON object of the Start node's inputs.");
    return v;
  };
  const start = async (body: z.infer<typeof RunBody>, userId: string, logId: string, mode: number): Promise<RunRow> => {
    const input = params(body.parameters);
    const v = await store.runnable(body.workflow_id, body.version).catch(notFoundAs4200);
    const endUser = body.ext?.user_id;
    return runs.create(
      {
        workflow_id: v.id,
        name: v.name,
        space_id: v.space_id,
        user_id: userId,
        execute_mode: ExecuteMode.Run,
        run_mode: mode,
        commit_id: v.commit_id,
        version: v.version,
        canvas: v.canvas,
        input,
        log_id: logId,
        bot_id: body.bot_id ?? null,
        connector_id: API_CONNECTOR_ID,
        connector_uid: typeof endUser === 'string' || typeof endUser === 'number' ? String(endUser) : userId,
      },
      { writeBehind: mode === RunMode.Sync || mode === RunMode.Stream },
    );
  };

  ctx.route({
    method: 'POST',
    path: '/v1/workflow/run',
    response: RunAnswer,
    auth: byBody,
    permission: 'workflow.run',
    rawResponse: true,
    summary: 'Run the published workflow and wait for its result (or start it with is_async)',
    body: RunBody,
    handler: async ({ body, caller, logId }) => {
      const row = await start(body, caller!.userId, logId, body.is_async ? RunMode.Async : RunMode.Sync);
      if (body.is_async) {
        await deps.enqueue(row.id);
        return { code: 0, msg: '', execute_id: row.id, debug_url: debugUrl(row) };
      }
      const outcome = await runs.execute(row.id);
      if (outcome.status === 'interrupted')
        throw badRequest(
          'The workflow asks a question (Question or Input node); run it with /v1/workflow/stream_run to answer it.',
          { execute_id: row.id, debug_url: debugUrl(row) },
        );
      if (outcome.status !== 'success')
        throw badRequest(
          `The workflow run failed${outcome.error?.node_id ? ` at node ${outcome.error.node_id}` : ''}: ${outcome.error?.message ?? 'unknown error'}`,
          { execute_id: row.id, debug_url: debugUrl(row) },
        );
      const usage = usageOf(row);
      return {
        code: 0,
        msg: '',
        data: JSON.stringify(outcome.output ?? {}),
        execute_id: row.id,
        debug_url: debugUrl(row),
        token: usage.token_count,
        cost: '0',
        usage,
      };
    },
  });

  ctx.route({
    method: 'POST',
    path: '/v1/workflow/stream_run',
    auth: byBody,
    permission: 'workflow.run',
    stream: true,
    summary: 'Run the published workflow and stream its events (Message, Interrupt, Error, Done)',
    body: RunBody,
    handler: async ({ body, caller, logId }, reply) => {
      const row = await start(body, caller!.userId, logId, RunMode.Stream);
      const sse = reply.sse();
      const running = runs.execute(row.id);
      const piped = pipeRunToSse(runs, row.id, sse, { open: { debugUrl: debugUrl(row) } });
      void running;
      await piped;
      return null;
    },
  });

  ctx.route({
    method: 'POST',
    path: '/v1/workflow/stream_resume',
    auth: byBody,
    permission: 'workflow.run',
    stream: true,
    summary: 'Answer an interrupt and stream the rest of the run',
    body: z.object({
      workflow_id: z.string().min(1),
      event_id: z.string().min(1),
      interrupt_type: z.number().int().optional(),
      resume_data: z.unknown(),
    }),
    handler: async ({ body }, reply) => {
      const runId = body.event_id.split('-')[0];
      const row = await runs.get(runId);
      if (!row || row.workflow_id !== body.workflow_id) throw missing('No run of this workflow waits on that event.');
      if (
        row.status !== RunStatus.Running ||
        !row.interrupt ||
        parseStoredJson(row.interrupt, "the run's question", Interrupt).event_id !== body.event_id
      )
        throw badRequest('This run is not waiting on that event.');
      const sse = reply.sse();
      const running = runs.execute(row.id, { event_id: body.event_id, data: body.resume_data });
      const piped = pipeRunToSse(runs, row.id, sse, { open: { debugUrl: debugUrl(row) } });
      void running;
      await piped;
      return null;
    },
  });

  // A run as Coze's run history answers it: `output` wraps the End node's JSON as {"Output": "..."}.
  const history = (r: RunRow) => {
    const usage = usageOf(r);
    return {
      execute_id: r.id,
      execute_status: STATUS_NAMES[r.status] ?? 'Running',
      bot_id: r.bot_id ?? '0',
      connector_id: r.connector_id ?? API_CONNECTOR_ID,
      connector_uid: r.connector_uid ?? r.user_id,
      run_mode: r.run_mode,
      logid: r.log_id,
      create_time: Math.floor(Date.parse(r.created_at) / 1000),
      update_time: Math.floor(Date.parse(r.updated_at) / 1000),
      output: r.output === null ? '' : JSON.stringify({ Output: r.output }),
      token: String(usage.token_count),
      usage,
      cost: '0',
      error_code:
        r.status === RunStatus.Fail ? String(OpenApiCode.BAD_PARAMS) : r.status === RunStatus.Cancel ? '4004' : '0',
      error_message: r.error ?? '',
      debug_url: debugUrl(r),
      interrupt_data: r.interrupt ? parseStoredJson(r.interrupt, "the run's question") : null,
    };
  };

  ctx.route({
    method: 'GET',
    path: '/v1/workflow/get_run_history',
    response: RunHistoryAnswer,
    auth: byQuery,
    permission: 'workflow.read',
    rawResponse: true,
    summary: 'A run (by execute_id) or the latest runs of a workflow',
    query: z.object({ workflow_id: z.string().min(1), execute_id: z.string().optional() }),
    handler: async ({ query }) => {
      await runs.flush(); // runs written behind become visible
      let q = workflowDb(ctx).selectFrom('workflow_run').selectAll().where('workflow_id', '=', query.workflow_id);
      if (query.execute_id) q = q.where('id', '=', query.execute_id);
      const rows = (await q.orderBy('created_at', 'desc').limit(20).execute()) as RunRow[];
      if (query.execute_id && !rows.length) throw missing('No run with this execute_id.');
      return { code: 0, msg: '', data: rows.map(history) };
    },
  });
  ctx.route({
    method: 'GET',
    path: '/v1/workflows/:workflow_id/run_histories/:execute_id',
    response: RunHistoryAnswer,
    auth: byParams,
    permission: 'workflow.read',
    rawResponse: true,
    summary: 'One run (the path the official SDK uses)',
    params: z.object({ workflow_id: z.string().min(1), execute_id: z.string().min(1) }),
    handler: async ({ params }) => {
      await runs.flush();
      const r = (await workflowDb(ctx)
        .selectFrom('workflow_run')
        .selectAll()
        .where('workflow_id', '=', params.workflow_id)
        .where('id', '=', params.execute_id)
        .executeTakeFirst()) as RunRow | undefined;
      if (!r) throw missing('No run with this execute_id.');
      return { code: 0, msg: '', data: [history(r)] };
    },
  });

  const detail = async (id: string) => {
    const m = await store.meta(id);
    return {
      workflow_id: m.id,
      workflow_name: m.name,
      description: m.description,
      icon_url: m.icon_uri,
      app_id: '',
      created_at: String(Math.floor(Date.parse(m.created_at) / 1000)),
      updated_at: String(Math.floor(Date.parse(m.updated_at) / 1000)),
      creator: { id: m.creator_id },
      flow_mode: Number(m.flow_mode),
      latest_version: m.latest_version,
    };
  };

  ctx.route({
    method: 'GET',
    path: '/v1/workflows/:workflow_id',
    response: WorkflowInfo,
    auth: byParams,
    permission: 'workflow.read',
    summary: 'A workflow and the inputs of its published version',
    params: z.object({ workflow_id: z.string().min(1) }),
    handler: async ({ params: p }) => {
      const d = await detail(p.workflow_id).catch(notFoundAs4200);
      const v = await published(p.workflow_id).catch(() => undefined);
      const startNode = v?.canvas.nodes.find((n) => n.type === '1' || n.type === 'start');
      return {
        workflow_detail: d,
        input: {
          parameters: Object.fromEntries(
            (startNode?.node_param.outputs ?? []).map((f) => [
              f.name,
              {
                type: f.type,
                required: !!f.required,
                description: f.description ?? '',
                default_value: f.default ?? null,
              },
            ]),
          ),
        },
      };
    },
  });

  ctx.route({
    method: 'GET',
    path: '/v1/workflows',
    response: WorkflowPage,
    auth: { space: { from: 'query', field: 'workspace_id' } },
    permission: 'workflow.read',
    summary: 'Workflows of a workspace',
    query: z.object({
      workspace_id: z.string().min(1),
      page_num: z.coerce.number().int().min(1).default(1),
      page_size: z.coerce.number().int().min(1).max(100).default(20),
      publish_status: z.enum(['all', 'published_online', 'unpublished_draft']).default('all'),
    }),
    handler: async ({ query }) => {
      let q = workflowDb(ctx)
        .selectFrom('workflow_meta')
        .select('id')
        .where('space_id', '=', query.workspace_id)
        .where('deleted_at', 'is', null);
      if (query.publish_status === 'published_online') q = q.where('latest_version', 'is not', null);
      if (query.publish_status === 'unpublished_draft') q = q.where('latest_version', 'is', null);
      const rows = await q
        .orderBy('updated_at', 'desc')
        .limit(query.page_size + 1)
        .offset((query.page_num - 1) * query.page_size)
        .execute();
      const items = await Promise.all(rows.slice(0, query.page_size).map((r) => detail(r.id)));
      return { items, has_more: rows.length > query.page_size };
    },
  });

  ctx.route({
    method: 'GET',
    path: '/v1/workflows/:workflow_id/versions',
    response: VersionPage,
    auth: byParams,
    permission: 'workflow.read',
    summary: 'Published versions of a workflow',
    params: z.object({ workflow_id: z.string().min(1) }),
    query: z.object({
      page_num: z.coerce.number().int().min(1).default(1),
      page_size: z.coerce.number().int().min(1).max(100).default(20),
    }),
    handler: async ({ params: p, query }) => {
      const rows = await workflowDb(ctx)
        .selectFrom('workflow_commit')
        .selectAll()
        .where('workflow_id', '=', p.workflow_id)
        .where('version', 'is not', null)
        .orderBy('published_at', 'desc')
        .limit(query.page_size + 1)
        .offset((query.page_num - 1) * query.page_size)
        .execute();
      return {
        items: rows.slice(0, query.page_size).map((c) => ({
          version: c.version,
          description: c.version_description ?? '',
          created_at: String(Math.floor(Date.parse(c.published_at as string) / 1000)),
          commit_id: c.id,
          creator: { id: c.created_by },
        })),
        has_more: rows.length > query.page_size,
      };
    },
  });
}

/** A studio "not found" (a deleted or unknown workflow, no published version) as the open API's 4200. */
function notFoundAs4200(e: unknown): never {
  if (ApiError.is(e) && e.status === 404) throw missing(e.msg);
  throw e;
}
