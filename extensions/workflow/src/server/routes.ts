import { ApiError, ErrorCode, badRequest, conflict, imageRef } from '@tessera/sdk';
import {
  ErrorTexts,
  ResourceKinds,
  containsText,
  listResourcesOfTable,
  spaceOfTable,
  sameText,
  type ResourcePackage,
  type ServerContext,
  type SseStream,
} from '@tessera/sdk/server';
import { z } from 'zod';
import { TracesService } from '@tessera/ext-observability/shared';
import {
  Canvas,
  ExecuteMode,
  type CanvasNode as CanvasNodeT,
  type FieldDecl,
  type ValidationProblem,
  NodeTypes,
  OperateType,
  RunMode,
  RunStatus,
  WorkflowMode,
} from '../shared/index.ts';
import type { NodeTypeLookup } from './engine/validate.ts';
import { blocking, localsContext, validateCanvas } from './engine/validate.ts';
import { MigrationError, stampVersions, upgradeCanvas } from './engine/upgrade.ts';
import type { RunEvent, RunRow, RunService } from './runs.ts';
import { WorkflowStore, initialCanvas, metaView, nowIso, type MetaRow } from './store.ts';
import { registerVersionRoutes } from './versions.ts';
import { registerCompareRoutes } from './compare.ts';

const Id = z.string().min(1).max(32);
const base = '/api/workflow_api';
const inSpace = { space: { from: 'body' as const, field: 'space_id' } };
const inSpaceQuery = { space: { from: 'query' as const, field: 'space_id' } };
export const SchemaInput = z.union([z.string().max(20_000_000), z.record(z.string(), z.unknown())]);
const Inputs = z.union([z.string().max(5_000_000), z.record(z.string(), z.unknown())]).optional();

export function parseJsonish(v: unknown, what: string): unknown {
  if (typeof v !== 'string') return v ?? {};
  try {
    return JSON.parse(v);
  } catch {
    throw badRequest(`${what} is not valid JSON.`);
  }
}

export interface WorkflowApiDeps {
  store: WorkflowStore;
  runs: RunService;
  typeOf: NodeTypeLookup;
  enqueue(runId: string, resume?: { event_id: string; data: unknown }): Promise<void>;
}

/** Process view of a run: status, output, per-node results, the pending question. */
export async function processView(runs: RunService, row: RunRow) {
  const nodes = await runs.nodeResults(row.id);
  return {
    execute_id: row.id,
    workflow_id: row.workflow_id,
    execute_status: row.status,
    execute_mode: row.execute_mode,
    run_mode: row.run_mode,
    version: row.version,
    input: row.input,
    output: row.output,
    reason: row.error,
    interrupt: row.interrupt ? JSON.parse(row.interrupt) : null,
    log_id: row.log_id,
    create_time: Math.floor(Date.parse(row.created_at) / 1000),
    update_time: Math.floor(Date.parse(row.updated_at) / 1000),
    duration_ms: row.duration_ms,
    node_results: nodes.map((n) => ({
      node_id: n.node_id,
      node_type: n.node_type,
      node_title: n.title,
      node_status: n.status,
      input: n.inputs === undefined ? null : JSON.stringify(n.inputs),
      output: n.outputs === undefined ? null : JSON.stringify(n.outputs),
      error_info: n.error ?? null,
      branch: n.branch ?? null,
      duration_ms: n.duration_ms,
      tokens: n.tokens,
      logs: n.logs ?? [],
    })),
  };
}

/**
 * Writes run events as server-sent events, in the shape of the open API (Message, Interrupt, Error,
 * Done); `nodes` adds a Node event for each node that starts or ends (the studio's test runs).
 */
/**
 * Streams a run's events as server-sent events: Message, Interrupt, Error and Done (and Node for the
 * studio's test runs). `open` shapes the stream as Coze's open API does: a workflow whose End returns
 * variables sends them as a last Message before Done, and events carry the run's debug link.
 */
export function pipeRunToSse(
  runs: RunService,
  runId: string,
  sse: SseStream,
  opts: { nodes?: boolean; open?: { debugUrl: string } } = {},
): Promise<void> {
  let id = 0;
  const seqOf = new Map<string, number>();
  const nodeSeq = (nodeId: string) => {
    const n = seqOf.get(nodeId) ?? 0;
    seqOf.set(nodeId, n + 1);
    return String(n);
  };
  const debug = opts.open ? { debug_url: opts.open.debugUrl } : {};
  return new Promise<void>((resolve) => {
    const off = runs.subscribe(runId, (e: RunEvent) => {
      if (e.type === 'node' && opts.nodes) sse.send('Node', { execute_id: runId, ...e.record }, String(id++));
      if (e.type === 'message')
        sse.send(
          'Message',
          {
            content: e.content,
            content_type: 'text',
            node_title: e.node_title,
            node_seq_id: opts.open ? nodeSeq(e.node_id) : String(e.seq),
            node_is_finish: e.final,
            node_id: e.node_id,
          },
          String(id++),
        );
      if (e.type === 'interrupt')
        sse.send(
          'Interrupt',
          {
            interrupt_data: { event_id: e.event_id, type: e.interrupt_type, data: JSON.stringify(e.data) },
            node_title: e.node_title,
            node_id: e.node_id,
            ...debug,
          },
          String(id++),
        );
      if (e.type === 'done') {
        if (
          opts.open &&
          e.status === RunStatus.Success &&
          e.exit &&
          !seqOf.has(e.exit.node_id) &&
          e.output !== undefined
        ) {
          // End returned variables (it streamed no answer): they are the run's last message.
          sse.send(
            'Message',
            {
              content: JSON.stringify(e.output),
              content_type: 'text',
              node_title: e.exit.node_title,
              node_seq_id: nodeSeq(e.exit.node_id),
              node_is_finish: true,
              node_id: e.exit.node_id,
              node_type: 'End',
            },
            String(id++),
          );
        }
        if (e.status === RunStatus.Fail || e.status === RunStatus.Cancel)
          sse.send(
            'Error',
            {
              error_code: e.status === RunStatus.Cancel ? 4004 : 4000,
              error_message: e.error ?? 'The run failed.',
              ...debug,
            },
            String(id++),
          );
        sse.send('Done', { execute_id: runId, debug_url: opts.open?.debugUrl ?? '' }, String(id++));
        off();
        sse.close();
        resolve();
      }
    });
  });
}

export function registerWorkflowRoutes(ctx: ServerContext<unknown>, deps: WorkflowApiDeps) {
  const { store, runs, typeOf } = deps;
  // Submitting, publishing, versions and reverting (versions.ts).
  const { publishWorkflow } = registerVersionRoutes(ctx, deps);
  // Comparing versions and merging a save made from an older draft (compare.ts).
  registerCompareRoutes(ctx, deps);
  ctx.register(ErrorTexts, {
    key: 'workflow.nameTaken',
    texts: {
      'en-US': 'A workflow named "{{name}}" already exists in this space. Choose another name.',
      'zh-CN': '此空间中已有名为“{{name}}”的工作流，请换一个名称。',
    },
  });
  /** Workflows of a space have different names (ignoring case). */
  const nameTaken = async (spaceId: string, name: string, exceptId?: string) => {
    let q = ctx.db
      .selectFrom('workflow_meta')
      .select('id')
      .where('space_id', '=', spaceId)
      .where('deleted_at', 'is', null)
      .where(sameText('name', name));
    if (exceptId) q = q.where('id', '!=', exceptId);
    return !!(await q.executeTakeFirst());
  };
  const refuseTakenName = async (spaceId: string, name: string, exceptId?: string) => {
    if (await nameTaken(spaceId, name, exceptId))
      throw new ApiError(
        409,
        ErrorCode.CONFLICT,
        `A workflow named "${name}" already exists in this space. Choose another name.`,
        '',
        { detail: { field: 'name' }, text: { key: 'workflow.nameTaken', params: { name } } },
      );
  };
  const providerOf = (key: string) => ctx.registry(NodeTypes).ownerOf(key);
  const db = () => ctx.db;

  ctx.route({
    method: 'GET',
    path: `${base}/node_types`,
    auth: 'user',
    summary: 'The node catalogue (from the node-type registry)',
    handler: () => ({
      node_types: ctx
        .registry(NodeTypes)
        .list()
        .map((t) => ({
          key: t.key,
          code: t.code,
          type: String(t.code),
          version: t.version ?? 1,
          category: t.category,
          label: t.label,
          description: t.description ?? null,
          singleton: !!t.singleton,
          role: t.role ?? null,
          outputs: t.outputsOf ? 'computed' : 'declared',
          composite: !!t.localsOf,
        })),
    }),
  });

  ctx.route({
    method: 'POST',
    path: `${base}/create`,
    auth: inSpace,
    summary: 'Create a workflow (flow_mode 0 Workflow, 3 ChatFlow)',
    body: z.object({
      space_id: Id,
      name: z.string().trim().min(1).max(100),
      desc: z.string().max(2000).default(''),
      icon_uri: imageRef(2_000_000).default(''),
      flow_mode: z
        .union([z.literal(WorkflowMode.Workflow), z.literal(WorkflowMode.ChatFlow)])
        .default(WorkflowMode.Workflow),
    }),
    handler: async ({ body, caller, headers }) => {
      await refuseTakenName(body.space_id, body.name);
      // The studio sends the user's language: default node titles follow it.
      const language = String(headers['accept-language'] ?? '')
        .toLowerCase()
        .startsWith('zh')
        ? 'zh-CN'
        : 'en-US';
      const id = ctx.host.newId();
      const t = nowIso();
      await db()
        .transaction()
        .execute(async (trx) => {
          await trx
            .insertInto('workflow_meta')
            .values({
              id,
              space_id: body.space_id,
              name: body.name,
              description: body.desc,
              icon_uri: body.icon_uri,
              flow_mode: body.flow_mode,
              creator_id: caller!.userId,
              draft_revision: 1,
              tested_revision: 0,
              submitted_revision: 0,
              published_revision: 0,
              latest_commit_id: null,
              latest_version: null,
              published_at: null,
              created_at: t,
              updated_at: t,
              deleted_at: null,
            })
            .execute();
          await trx
            .insertInto('workflow_draft')
            .values({
              workflow_id: id,
              canvas: JSON.stringify(
                initialCanvas(body.flow_mode, (type, fallback) => typeOf(type)?.label[language] ?? fallback),
              ),
              revision: 1,
              base_commit_id: null,
              updated_by: caller!.userId,
              updated_at: t,
            })
            .execute();
        });
      await store.operation(id, OperateType.Draft, caller!.userId, null, 'created');
      return { workflow_id: id };
    },
  });

  ctx.route({
    method: 'POST',
    path: `${base}/save`,
    resource: { kind: 'workflow', id: 'workflow_id', write: true },
    auth: inSpace,
    summary: 'Save the draft canvas (base_revision detects a save made from an older draft)',
    body: z.object({
      space_id: Id,
      workflow_id: Id,
      schema: SchemaInput,
      base_revision: z.number().int().positive().optional(),
    }),
    handler: async ({ body, caller }) => {
      const meta = await store.meta(body.workflow_id, body.space_id);
      const parsed = Canvas.safeParse(parseJsonish(body.schema, 'schema'));
      if (!parsed.success)
        throw badRequest(
          `The canvas is not valid: ${parsed.error.issues
            .slice(0, 5)
            .map((i) => `${i.path.join('.')}: ${i.message}`)
            .join('; ')}`,
        );
      if (body.base_revision !== undefined && body.base_revision !== meta.draft_revision) {
        throw conflict(
          `The draft changed since you opened it (yours is revision ${body.base_revision}, the saved one is ${meta.draft_revision}). Load the latest draft and choose what to keep.`,
        );
      }
      const revision = meta.draft_revision + 1;
      await db()
        .transaction()
        .execute(async (trx) => {
          await trx
            .updateTable('workflow_draft')
            .set({
              canvas: JSON.stringify(stampVersions(parsed.data, typeOf, providerOf)),
              revision,
              updated_by: caller!.userId,
              updated_at: nowIso(),
            })
            .where('workflow_id', '=', meta.id)
            .execute();
          await trx
            .updateTable('workflow_meta')
            .set({ draft_revision: revision, updated_at: nowIso() })
            .where('id', '=', meta.id)
            .execute();
        });
      return metaView({ ...meta, draft_revision: revision });
    },
  });

  ctx.route({
    method: 'POST',
    path: `${base}/canvas`,
    auth: inSpace,
    summary: 'The draft canvas with the workflow meta and statuses',
    body: z.object({ space_id: Id, workflow_id: Id }),
    handler: async ({ body }) => {
      const meta = await store.meta(body.workflow_id, body.space_id);
      const draft = await store.draft(meta.id);
      // The editor works on the current versions of the node types (older nodes migrated as they load).
      let canvas = draft.canvas;
      try {
        canvas = upgradeCanvas(draft.canvas, typeOf);
      } catch {
        /* shown as the node's problem by validate_tree; the editor gets the canvas as saved */
      }
      return { workflow: { ...metaView(meta), schema_json: JSON.stringify(canvas) } };
    },
  });

  ctx.route({
    method: 'POST',
    path: `${base}/update_meta`,
    resource: { kind: 'workflow', id: 'workflow_id', write: true },
    auth: inSpace,
    summary: 'Rename, describe or change the icon',
    body: z.object({
      space_id: Id,
      workflow_id: Id,
      name: z.string().trim().min(1).max(100).optional(),
      desc: z.string().max(2000).optional(),
      icon_uri: imageRef(2_000_000).optional(),
    }),
    handler: async ({ body }) => {
      const meta = await store.meta(body.workflow_id, body.space_id);
      if (body.name) await refuseTakenName(meta.space_id, body.name, meta.id);
      await db()
        .updateTable('workflow_meta')
        .set({
          ...(body.name ? { name: body.name } : {}),
          ...(body.desc !== undefined ? { description: body.desc } : {}),
          ...(body.icon_uri !== undefined ? { icon_uri: body.icon_uri } : {}),
          updated_at: nowIso(),
        })
        .where('id', '=', meta.id)
        .execute();
      // Runs of its published versions are traced under its name: the new one from now on.
      if (body.name) store.forget([meta.id]);
      return metaView(await store.meta(meta.id));
    },
  });

  ctx.route({
    method: 'POST',
    path: `${base}/copy`,
    auth: inSpace,
    summary: 'Copy a workflow (its draft) in the same space',
    body: z.object({ space_id: Id, workflow_id: Id }),
    handler: async ({ body, caller }) => {
      const meta = await store.meta(body.workflow_id, body.space_id);
      const draft = await store.draft(meta.id);
      // "Name (copy)", else "Name (copy 2)" ...: names stay unique in the space.
      let name = '';
      for (let n = 1; n < 1000 && (!name || (await nameTaken(meta.space_id, name))); n++) {
        const suffix = n === 1 ? ' (copy)' : ` (copy ${n})`;
        name = `${meta.name.slice(0, 100 - suffix.length)}${suffix}`;
      }
      const id = ctx.host.newId();
      const t = nowIso();
      await db()
        .transaction()
        .execute(async (trx) => {
          await trx
            .insertInto('workflow_meta')
            .values({
              ...meta,
              id,
              name,
              creator_id: caller!.userId,
              draft_revision: 1,
              tested_revision: 0,
              submitted_revision: 0,
              published_revision: 0,
              latest_commit_id: null,
              latest_version: null,
              published_at: null,
              created_at: t,
              updated_at: t,
              deleted_at: null,
            })
            .execute();
          await trx
            .insertInto('workflow_draft')
            .values({
              workflow_id: id,
              canvas: JSON.stringify(draft.canvas),
              revision: 1,
              base_commit_id: null,
              updated_by: caller!.userId,
              updated_at: t,
            })
            .execute();
        });
      return { workflow_id: id };
    },
  });

  const references = async (spaceId: string, workflowId: string) => {
    const drafts = await db()
      .selectFrom('workflow_draft')
      .innerJoin('workflow_meta', 'workflow_meta.id', 'workflow_draft.workflow_id')
      .select(['workflow_meta.id as id', 'workflow_meta.name as name', 'workflow_draft.canvas as canvas'])
      .where('workflow_meta.space_id', '=', spaceId)
      .where('workflow_meta.deleted_at', 'is', null)
      .where('workflow_meta.id', '!=', workflowId)
      .execute();
    return drafts
      .filter((d) =>
        (JSON.parse(d.canvas as string) as Canvas).nodes.some(
          (n) => (n.node_param.settings as { workflow_id?: string })?.workflow_id === workflowId,
        ),
      )
      .map((d) => ({ workflow_id: d.id as string, name: d.name as string }));
  };

  ctx.route({
    method: 'POST',
    path: `${base}/workflow_references`,
    auth: inSpace,
    summary: 'Workflows of the space that use this one as a sub-workflow',
    body: z.object({ space_id: Id, workflow_id: Id }),
    handler: async ({ body }) => {
      await store.meta(body.workflow_id, body.space_id);
      return { workflow_list: await references(body.space_id, body.workflow_id) };
    },
  });

  const remove = async (spaceId: string, ids: string[]) => {
    await db()
      .updateTable('workflow_meta')
      .set({ deleted_at: nowIso(), updated_at: nowIso() })
      .where('space_id', '=', spaceId)
      .where('id', 'in', ids)
      .execute();
    store.forget(ids);
  };

  // Workflows in the library: deleted ones wait in the recycle bin, to be restored or deleted for good.
  const deleted = async (id: string, spaceId: string) => {
    const m = await db()
      .selectFrom('workflow_meta')
      .select(['id', 'name'])
      .where('id', '=', id)
      .where('space_id', '=', spaceId)
      .where('deleted_at', 'is not', null)
      .executeTakeFirst();
    if (!m) throw badRequest(`There is no deleted workflow ${id} in this space.`);
    return m;
  };
  ctx.register(ResourceKinds, {
    kind: 'workflow',
    spaceOf: (id) => spaceOfTable(db(), { table: 'workflow_meta', deletedAt: 'deleted_at' }, id),
    list: (q) =>
      listResourcesOfTable(
        db(),
        { kind: 'workflow', table: 'workflow_meta', deletedAt: 'deleted_at', published: 'latest_version' },
        q,
      ),
    remove: async (id, spaceId) => {
      await store.meta(id, spaceId);
      await remove(spaceId, [id]);
    },
    restore: async (id, spaceId) => {
      const m = await deleted(id, spaceId);
      const taken = await db()
        .selectFrom('workflow_meta')
        .select('id')
        .where('space_id', '=', spaceId)
        .where('deleted_at', 'is', null)
        .where(sameText('name', m.name))
        .executeTakeFirst();
      if (taken) throw conflict(`The space has another workflow named "${m.name}" now; rename that one first.`);
      await db()
        .updateTable('workflow_meta')
        .set({ deleted_at: null, updated_at: nowIso() })
        .where('id', '=', id)
        .execute();
      store.forget([id]);
    },
    purge: async (id, spaceId) => {
      await deleted(id, spaceId);
      await db()
        .transaction()
        .execute(async (trx) => {
          for (const table of ['workflow_draft', 'workflow_commit', 'workflow_operation'] as const)
            await trx.deleteFrom(table).where('workflow_id', '=', id).execute();
          await trx.deleteFrom('workflow_meta').where('id', '=', id).execute();
        });
      store.forget([id]);
    },
    // A workflow leaves its space with its draft canvas and every sub-workflow it calls (recursively).
    exportOf: async (id, spaceId) => {
      const out: ResourcePackage[] = [];
      const seen = new Set<string>();
      const visit = async (wid: string) => {
        if (seen.has(wid)) return;
        seen.add(wid);
        const meta = await store.meta(wid, spaceId).catch(() => {
          throw badRequest(`The workflow calls a sub-workflow ${wid} that is gone; fix it before exporting.`);
        });
        const canvas = (await store.draft(meta.id)).canvas;
        out.push({
          kind: 'workflow',
          id: meta.id,
          name: meta.name,
          description: meta.description,
          icon_uri: meta.icon_uri,
          data: { flow_mode: meta.flow_mode, canvas },
          requires: { node_types: [...new Set(canvas.nodes.map((n) => n.type))].sort() },
        });
        for (const n of canvas.nodes) {
          const sub = (n.node_param.settings as { workflow_id?: unknown })?.workflow_id;
          if (typeof sub === 'string' && sub) await visit(sub);
        }
      };
      await visit(id);
      return out;
    },
    missing: (pkg) =>
      (pkg.requires?.node_types ?? []).filter((code) => !typeOf(code)).map((code) => `node type ${code}`),
    // Projects publish their workflows with the next patch version.
    publish: async (id, spaceId, opts) => {
      const meta = await store.meta(id, spaceId);
      const next = meta.latest_version ? meta.latest_version.replace(/(\d+)$/, (d) => String(Number(d) + 1)) : 'v1.0.0';
      return { version: (await publishWorkflow(meta, next, opts.description, opts.userId)).workflow_version };
    },
    importInto: async (pkg, opts) => {
      const data = pkg.data as { flow_mode?: number; canvas?: Canvas };
      const parsed = Canvas.safeParse(data?.canvas);
      if (!parsed.success)
        throw badRequest(
          `"${pkg.name}" is not a workflow this studio reads: ${parsed.error.issues[0]?.message ?? 'bad canvas'}.`,
        );
      // Sub-workflows were imported first: point at them, and at their draft (a copy has no published version).
      const canvas = parsed.data;
      for (const n of canvas.nodes) {
        const st = n.node_param.settings as { workflow_id?: unknown; version?: unknown };
        if (typeof st?.workflow_id === 'string' && opts.ids.has(st.workflow_id))
          n.node_param.settings = { ...st, workflow_id: opts.ids.get(st.workflow_id), version: 'draft' };
      }
      const base = (opts.name ?? pkg.name).slice(0, 100);
      let name = base;
      for (let n = 2; n < 1000 && (await nameTaken(opts.spaceId, name)); n++)
        name = `${base.slice(0, 100 - ` (${n})`.length)} (${n})`;
      const id = ctx.host.newId();
      const t = nowIso();
      await db()
        .transaction()
        .execute(async (trx) => {
          await trx
            .insertInto('workflow_meta')
            .values({
              id,
              space_id: opts.spaceId,
              name,
              description: pkg.description ?? '',
              icon_uri: pkg.icon_uri ?? '',
              flow_mode: Number(data.flow_mode ?? WorkflowMode.Workflow),
              creator_id: opts.userId,
              draft_revision: 1,
              tested_revision: 0,
              submitted_revision: 0,
              published_revision: 0,
              latest_commit_id: null,
              latest_version: null,
              published_at: null,
              created_at: t,
              updated_at: t,
              deleted_at: null,
            })
            .execute();
          await trx
            .insertInto('workflow_draft')
            .values({
              workflow_id: id,
              canvas: JSON.stringify(stampVersions(canvas, typeOf, providerOf)),
              revision: 1,
              base_commit_id: null,
              updated_by: opts.userId,
              updated_at: t,
            })
            .execute();
        });
      return id;
    },
  });

  ctx.route({
    method: 'POST',
    path: `${base}/delete`,
    resource: { kind: 'workflow', id: 'workflow_id', write: true },
    auth: inSpace,
    summary: 'Delete a workflow; the answer says whether it could (delete check) and who used it',
    body: z.object({ space_id: Id, workflow_id: Id, action: z.number().int().optional() }),
    handler: async ({ body }) => {
      await store.meta(body.workflow_id, body.space_id);
      const refs = await references(body.space_id, body.workflow_id);
      await remove(body.space_id, [body.workflow_id]);
      return { status: 0, references: refs };
    },
  });

  ctx.route({
    method: 'POST',
    path: `${base}/batch_delete`,
    auth: inSpace,
    summary: 'Delete several workflows',
    body: z.object({ space_id: Id, workflow_id_list: z.array(Id).min(1).max(100) }),
    handler: async ({ body }) => {
      await remove(body.space_id, body.workflow_id_list);
      return null;
    },
  });

  ctx.route({
    method: 'POST',
    path: `${base}/workflow_list`,
    auth: inSpace,
    summary: 'Workflows of a space: paging, name, flow mode and status filters, order and direction',
    body: z.object({
      space_id: Id,
      page: z.number().int().min(1).default(1),
      size: z.number().int().min(1).max(100).default(20),
      name: z.string().max(100).optional(),
      flow_mode: z.number().int().optional(),
      status: z.number().int().min(1).max(2).optional(),
      order_by: z.number().int().min(0).max(4).default(1),
      sort_type: z.number().int().min(1).max(2).default(2),
      login_user_create: z.boolean().optional(),
      workflow_ids: z.array(Id).max(100).optional(),
    }),
    handler: async ({ body, caller }) => {
      let q = db().selectFrom('workflow_meta').where('space_id', '=', body.space_id).where('deleted_at', 'is', null);
      if (body.name) q = q.where(containsText('name', body.name));
      if (body.flow_mode !== undefined && body.flow_mode !== WorkflowMode.All)
        q = q.where('flow_mode', '=', body.flow_mode);
      if (body.status === 1) q = q.where('latest_version', 'is', null);
      if (body.status === 2) q = q.where('latest_version', 'is not', null);
      if (body.login_user_create) q = q.where('creator_id', '=', caller!.userId);
      if (body.workflow_ids?.length) q = q.where('id', 'in', body.workflow_ids);
      const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
      const col = ({ 0: 'created_at', 1: 'updated_at', 2: 'published_at', 3: 'updated_at', 4: 'id' } as const)[
        body.order_by as 0 | 1 | 2 | 3 | 4
      ];
      const rows = (await q
        .selectAll()
        .orderBy(col, body.sort_type === 1 ? 'asc' : 'desc')
        .orderBy('id', 'desc')
        .limit(body.size)
        .offset((body.page - 1) * body.size)
        .execute()) as MetaRow[];
      return {
        workflow_list: rows.map((r) =>
          metaView({
            ...r,
            draft_revision: Number(r.draft_revision),
            tested_revision: Number(r.tested_revision),
            submitted_revision: Number(r.submitted_revision),
            published_revision: Number(r.published_revision),
          }),
        ),
        total,
        has_more: body.page * body.size < total,
      };
    },
  });

  ctx.route({
    method: 'POST',
    path: `${base}/workflow_detail`,
    auth: inSpace,
    summary: 'Details of workflows by id',
    body: z.object({ space_id: Id, workflow_ids: z.array(Id).min(1).max(100) }),
    handler: async ({ body }) => {
      const out = [];
      for (const id of body.workflow_ids) {
        const meta = await store.meta(id, body.space_id).catch(() => undefined);
        if (meta)
          out.push({
            ...metaView(meta),
            inputs:
              (await store.draft(id)).canvas.nodes.find((n) => typeOf(n.type)?.role === 'entry')?.node_param.outputs ??
              [],
          });
      }
      return out;
    },
  });

  ctx.route({
    method: 'POST',
    path: `${base}/signature`,
    auth: inSpace,
    summary:
      "A workflow's inputs (its entry node's fields) and outputs (what its exit node returns), of the draft or a published version",
    body: z.object({ space_id: Id, workflow_id: Id, version: z.string().max(40).optional() }),
    handler: async ({ body }) => {
      await store.meta(body.workflow_id, body.space_id);
      const canvas =
        body.version && body.version !== 'draft'
          ? (await store.published(body.workflow_id, body.version)).canvas
          : (await store.draft(body.workflow_id)).canvas;
      const entry = canvas.nodes.find((n) => !n.parent_id && typeOf(n.type)?.role === 'entry');
      const exit = canvas.nodes.find((n) => !n.parent_id && typeOf(n.type)?.role === 'exit');
      const outputsOf = (n: CanvasNodeT | undefined) =>
        n ? (typeOf(n.type)?.outputsOf?.(n) ?? n.node_param.outputs) : [];
      return { inputs: entry?.node_param.outputs ?? [], outputs: outputsOf(exit) };
    },
  });

  for (const path of ['validate_tree', 'validate']) {
    ctx.route({
      method: 'POST',
      path: `${base}/${path}`,
      auth: inSpace,
      summary: 'Every problem of the draft (or a given schema) at once: node, path and concurrent-path errors',
      body: z.object({ space_id: Id, workflow_id: Id, schema: SchemaInput.optional() }),
      handler: async ({ body }) => {
        await store.meta(body.workflow_id, body.space_id);
        // A canvas the editor sends follows the current node-type versions (new nodes have none yet); a
        // stored one is migrated as a run would migrate it.
        let canvas =
          body.schema !== undefined
            ? parseJsonish(body.schema, 'schema')
            : (await store.draft(body.workflow_id)).canvas;
        const migration: ValidationProblem[] = [];
        const given = Canvas.safeParse(canvas);
        if (given.success) {
          try {
            // Nodes the editor just added have no version (they follow the installed one); any node saved with
            // an older version is migrated, and one newer than the installed type is a problem, as a run finds it.
            canvas = upgradeCanvas(body.schema !== undefined ? stampVersions(given.data, typeOf) : given.data, typeOf);
          } catch (e) {
            if (!(e instanceof MigrationError)) throw e;
            migration.push({ type: 1, node_id: e.nodeId, field: 'version', message: e.message });
          }
        }
        const problems = [...migration, ...validateCanvas(canvas, typeOf)];
        // What each node gives the nodes after it (and a composite to its body), for reference pickers.
        const node_outputs: Record<string, FieldDecl[]> = {};
        const node_locals: Record<string, FieldDecl[]> = {};
        const parsed = Canvas.safeParse(canvas);
        const nodes = parsed.success ? parsed.data.nodes : [];
        for (const n of nodes) {
          const def = typeOf(n.type);
          try {
            node_outputs[n.node_id] = def?.outputsOf?.(n) ?? n.node_param.outputs;
            if (def?.localsOf) node_locals[n.node_id] = def.localsOf(n, localsContext(n, nodes, typeOf));
          } catch {
            node_outputs[n.node_id] = n.node_param.outputs;
          }
        }
        return { valid: blocking(problems).length === 0, errors: problems, node_outputs, node_locals };
      },
    });
  }

  // ---------------------------------------------------------------- runs

  const runInput = (v: unknown) => {
    const x = parseJsonish(v, 'input');
    if (!x || typeof x !== 'object' || Array.isArray(x))
      throw badRequest('input must be an object of the Start node fields.');
    return x as Record<string, unknown>;
  };

  ctx.route({
    method: 'POST',
    path: `${base}/test_run`,
    auth: inSpace,
    summary: 'Run the draft: run_mode 0 sync (the result), 1 stream (SSE), 2 async (execute_id; poll get_process)',
    body: z.object({
      space_id: Id,
      workflow_id: Id,
      input: Inputs,
      run_mode: z.number().int().min(0).max(2).default(RunMode.Async),
    }),
    handler: async ({ body, caller, logId }, reply) => {
      const meta = await store.meta(body.workflow_id, body.space_id);
      const saved = await store.draft(meta.id);
      // The draft as a run of it executes: every node brought to its type's installed version first.
      let draft: typeof saved;
      try {
        draft = { ...saved, canvas: upgradeCanvas(saved.canvas, typeOf) };
      } catch (e) {
        if (!(e instanceof MigrationError)) throw e;
        throw badRequest(e.message, { errors: [{ type: 1, node_id: e.nodeId, field: 'version', message: e.message }] });
      }
      const problems = blocking(validateCanvas(draft.canvas, typeOf));
      if (problems.length) {
        // Named by the nodes' titles, as the user sees them on the canvas.
        const titleOf = (id: string) => draft.canvas.nodes.find((n) => n.node_id === id)?.node_param.title || id;
        throw badRequest(
          `The workflow has ${problems.length} problem(s): ${problems
            .slice(0, 3)
            .map((p) => `${p.node_id ? `${titleOf(p.node_id)}: ` : ''}${p.message}`)
            .join(' ')}`,
          { errors: problems },
        );
      }
      const row = await runs.create({
        workflow_id: meta.id,
        name: meta.name,
        space_id: meta.space_id,
        user_id: caller!.userId,
        execute_mode: ExecuteMode.TestRun,
        run_mode: body.run_mode,
        draft_revision: draft.revision,
        canvas: draft.canvas,
        input: runInput(body.input),
        log_id: logId,
      });
      if (body.run_mode === RunMode.Stream) {
        const sse = reply.sse();
        const running = runs.execute(row.id);
        const piped = pipeRunToSse(runs, row.id, sse, { nodes: true });
        void running;
        await piped;
        return null;
      }
      if (body.run_mode === RunMode.Sync) {
        await runs.execute(row.id);
        return processView(runs, (await runs.get(row.id))!);
      }
      await deps.enqueue(row.id);
      return { execute_id: row.id };
    },
  });

  ctx.route({
    method: 'POST',
    path: `${base}/test_resume`,
    auth: inSpace,
    summary: 'Answer the question a run waits on and continue it',
    body: z.object({
      space_id: Id,
      workflow_id: Id,
      execute_id: Id,
      event_id: z.string().min(1),
      data: z.unknown(),
      run_mode: z.number().int().min(0).max(2).default(RunMode.Async),
    }),
    handler: async ({ body }, reply) => {
      const row = await runs.get(body.execute_id);
      if (!row || row.workflow_id !== body.workflow_id || row.space_id !== body.space_id)
        throw badRequest('No such run of this workflow.');
      if (row.status !== RunStatus.Running || !row.interrupt) throw conflict('This run is not waiting for an answer.');
      if (JSON.parse(row.interrupt).event_id !== body.event_id)
        throw conflict('This run waits on another question (event_id does not match).');
      if (body.run_mode === RunMode.Stream) {
        const sse = reply.sse();
        const running = runs.execute(row.id, { event_id: body.event_id, data: body.data });
        const piped = pipeRunToSse(runs, row.id, sse, { nodes: true });
        void running;
        await piped;
        return null;
      }
      if (body.run_mode === RunMode.Sync) {
        await runs.execute(row.id, { event_id: body.event_id, data: body.data });
        return processView(runs, (await runs.get(row.id))!);
      }
      await deps.enqueue(row.id, { event_id: body.event_id, data: body.data });
      return { execute_id: row.id };
    },
  });

  ctx.route({
    method: 'POST',
    path: `${base}/cancel`,
    auth: inSpace,
    summary: 'Cancel a run',
    body: z.object({ space_id: Id, workflow_id: Id, execute_id: Id }),
    handler: async ({ body }) => {
      const row = await runs.get(body.execute_id);
      if (!row || row.space_id !== body.space_id) throw badRequest('No such run in this space.');
      if (row.status !== RunStatus.Running) return { execute_status: row.status };
      if (!runs.cancel(row.id)) {
        // Waiting on a question (or queued): cancel it in the store.
        await db()
          .updateTable('workflow_run')
          .set({
            status: RunStatus.Cancel,
            error: 'Cancelled.',
            state: null,
            finished_at: nowIso(),
            updated_at: nowIso(),
          })
          .where('id', '=', row.id)
          .execute();
      } else await runs.settled(row.id);
      return { execute_status: (await runs.get(row.id))!.status };
    },
  });

  ctx.route({
    method: 'GET',
    path: `${base}/get_process`,
    auth: inSpaceQuery,
    summary: 'A run: status, output, per-node results, the question it waits on',
    query: z.object({ space_id: Id, workflow_id: Id, execute_id: Id }),
    handler: async ({ query }) => {
      const row = await runs.get(query.execute_id);
      if (!row || row.workflow_id !== query.workflow_id || row.space_id !== query.space_id)
        throw badRequest('No such run of this workflow.');
      return processView(runs, row);
    },
  });

  ctx.route({
    method: 'POST',
    path: `${base}/get_node_execute_history`,
    auth: inSpace,
    summary: 'Executions of one node (latest first)',
    body: z.object({
      space_id: Id,
      workflow_id: Id,
      node_id: z.string().min(1),
      execute_id: Id.optional(),
      limit: z.number().int().min(1).max(50).default(10),
    }),
    handler: async ({ body }) => {
      let q = db()
        .selectFrom('workflow_node_exec')
        .innerJoin('workflow_run', 'workflow_run.id', 'workflow_node_exec.run_id')
        .selectAll('workflow_node_exec')
        .where('workflow_run.workflow_id', '=', body.workflow_id)
        .where('workflow_run.space_id', '=', body.space_id)
        .where('workflow_node_exec.node_id', '=', body.node_id);
      if (body.execute_id) q = q.where('workflow_node_exec.run_id', '=', body.execute_id);
      const rows = await q.orderBy('workflow_node_exec.started_at', 'desc').limit(body.limit).execute();
      return {
        executions: rows.map((r) => ({
          execute_id: r.run_id,
          node_id: r.node_id,
          node_status: Number(r.status),
          input: r.inputs,
          output: r.outputs,
          error_info: r.error,
          duration_ms: Number(r.duration_ms),
          started_at: r.started_at,
        })),
      };
    },
  });

  ctx.route({
    method: 'POST',
    path: `${base}/get_execute_history_list`,
    auth: inSpace,
    summary: "A workflow's runs, newest first (test runs, debug runs and API runs)",
    body: z.object({
      space_id: Id,
      workflow_id: Id,
      execute_mode: z.number().int().optional(),
      limit: z.number().int().min(1).max(100).default(20),
      before_id: Id.optional(),
    }),
    handler: async ({ body }) => {
      await store.meta(body.workflow_id, body.space_id);
      await runs.flush();
      let q = db()
        .selectFrom('workflow_run')
        .select([
          'id',
          'status',
          'execute_mode',
          'run_mode',
          'version',
          'error',
          'created_at',
          'duration_ms',
          'user_id',
        ])
        .where('workflow_id', '=', body.workflow_id)
        .where('space_id', '=', body.space_id);
      if (body.execute_mode !== undefined) q = q.where('execute_mode', '=', body.execute_mode);
      if (body.before_id) q = q.where('id', '<', body.before_id);
      const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(body.limit).execute();
      return {
        runs: rows.map((r) => ({
          execute_id: r.id,
          execute_status: Number(r.status),
          execute_mode: Number(r.execute_mode),
          run_mode: Number(r.run_mode),
          version: r.version,
          reason: r.error,
          user_id: r.user_id,
          create_time: Math.floor(Date.parse(r.created_at as string) / 1000),
          duration_ms: r.duration_ms === null ? null : Number(r.duration_ms),
        })),
        has_more: rows.length === body.limit,
      };
    },
  });

  ctx.route({
    method: 'POST',
    path: `${base}/nodeDebug`,
    auth: inSpace,
    summary: 'Run one node of the draft with given inputs',
    body: z.object({ space_id: Id, workflow_id: Id, node_id: z.string().min(1), input: Inputs }),
    handler: async ({ body, caller, logId }) => {
      const meta = await store.meta(body.workflow_id, body.space_id);
      const draft = await store.draft(meta.id);
      if (!draft.canvas.nodes.some((n) => n.node_id === body.node_id))
        throw badRequest(`No node ${body.node_id} in the draft.`);
      const row = await runs.create({
        workflow_id: meta.id,
        name: meta.name,
        space_id: meta.space_id,
        user_id: caller!.userId,
        execute_mode: ExecuteMode.NodeDebug,
        run_mode: RunMode.Sync,
        canvas: draft.canvas,
        input: {},
        log_id: logId,
      });
      await runs.execute(row.id, undefined, { node_id: body.node_id, inputs: runInput(body.input) });
      return processView(runs, (await runs.get(row.id))!);
    },
  });

  ctx.route({
    method: 'GET',
    path: `${base}/trace`,
    auth: inSpaceQuery,
    summary: 'The spans of a run (run, nodes, inner calls)',
    query: z.object({ space_id: Id, execute_id: Id }),
    handler: async ({ query }) => {
      const row = await runs.get(query.execute_id);
      if (!row || row.space_id !== query.space_id) throw badRequest('No such run in this space.');
      // While observability keeps the studio's traces the run's spans are there (runs from before it ran are in the run's own table).
      const kept = (await ctx.optionalService(TracesService)?.spans(row.space_id, row.id)) ?? [];
      if (kept.length)
        return {
          spans: kept.map((s) => ({
            id: s.span_id,
            run_id: row.id,
            parent_id: s.parent_span_id || null,
            name: s.name,
            start_ms: s.start_us / 1000,
            end_ms: (s.start_us + s.duration_us) / 1000,
            status: s.status === 2 ? 'error' : 'ok',
            attributes: s.attributes,
          })),
        };
      const spans = await db()
        .selectFrom('workflow_span')
        .selectAll()
        .where('run_id', '=', row.id)
        .orderBy('start_ms')
        .execute();
      return {
        spans: spans.map((s) => ({
          ...s,
          start_ms: Number(s.start_ms),
          end_ms: s.end_ms === null ? null : Number(s.end_ms),
          attributes: JSON.parse(s.attributes as string),
        })),
      };
    },
  });
}
