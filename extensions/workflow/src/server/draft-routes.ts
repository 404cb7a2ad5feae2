// The studio's workflow calls on drafts: the node catalogue, create, save, the canvas, rename, copy, references,
// delete, the list, details, a workflow's signature and validation. Versions are in versions.ts, comparing and
// merging in compare.ts, runs in run-routes.ts.
import { badRequest, conflict } from '@tessera/sdk';
import { containsText, type ServerContext } from '@tessera/sdk/server';
import {
  BatchDelete,
  CopyWorkflow,
  CreateWorkflow,
  DeleteWorkflow,
  GetCanvas,
  GetSignature,
  ListNodeTypes,
  ListReferences,
  ListWorkflows,
  SaveDraft,
  UpdateMeta,
  Validate,
  ValidateTree,
  WorkflowDetail,
} from '../shared/api.ts';
import {
  Canvas,
  type CanvasNode as CanvasNodeT,
  type FieldDecl,
  type ValidationProblem,
  NodeTypes,
  OperateType,
  WorkflowMode,
} from '../shared/index.ts';
import {
  inSpace,
  parseJsonish,
  referencesTo,
  registerWorkflowTexts,
  removeWorkflows,
  workflowNames,
  type WorkflowApiDeps,
} from './common.ts';
import { localsContext, blocking, validateCanvas } from './engine/validate.ts';
import { MigrationError, stampVersions, upgradeCanvas } from './engine/upgrade.ts';
import { registerWorkflowKind } from './kind.ts';
import { registerRunRoutes } from './run-routes.ts';
import { initialCanvas, metaView, nowIso, type MetaRow, workflowDb } from './store.ts';
import { registerCompareRoutes } from './compare.ts';
import { registerVersionRoutes } from './versions.ts';

export function registerWorkflowRoutes(ctx: ServerContext<unknown>, deps: WorkflowApiDeps) {
  const { store, typeOf } = deps;
  // Submitting, publishing, versions and reverting (versions.ts).
  const { publishWorkflow } = registerVersionRoutes(ctx, deps);
  // Comparing versions and merging a save made from an older draft (compare.ts).
  registerCompareRoutes(ctx, deps);
  // Test runs, a run's process and trace, the run history (run-routes.ts).
  registerRunRoutes(ctx, deps);
  // Workflows in the library (kind.ts).
  registerWorkflowKind(ctx, deps, publishWorkflow);
  registerWorkflowTexts(ctx);
  const { nameTaken, refuseTakenName } = workflowNames(ctx);
  const providerOf = (key: string) => ctx.registry(NodeTypes).ownerOf(key);
  const db = () => workflowDb(ctx);
  const references = (spaceId: string, workflowId: string) => referencesTo(store, spaceId, workflowId);
  const remove = (spaceId: string, ids: string[]) => removeWorkflows(store, spaceId, ids);

  ctx.route({
    ...ListNodeTypes,
    auth: 'user',
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
          outputs: t.outputsOf ? ('computed' as const) : ('declared' as const),
          composite: !!t.localsOf,
        })),
    }),
  });

  ctx.route({
    ...CreateWorkflow,
    auth: inSpace,
    handler: async ({ body, caller, headers }) => {
      await refuseTakenName(body.space_id, body.name);
      // The studio sends the user's language: default node titles follow it.
      const language = String(headers['accept-language'] ?? '')
        .toLowerCase()
        .startsWith('zh')
        ? 'zh-CN'
        : 'en-US';
      const id = await store.insert({
        space_id: body.space_id,
        name: body.name,
        description: body.desc,
        icon_uri: body.icon_uri,
        flow_mode: body.flow_mode,
        creator_id: caller!.userId,
        canvas: initialCanvas(body.flow_mode, (type, fallback) => typeOf(type)?.label[language] ?? fallback),
      });
      await store.operation(id, OperateType.Draft, caller!.userId, null, 'created');
      return { workflow_id: id };
    },
  });

  ctx.route({
    ...SaveDraft,
    resource: { kind: 'workflow', id: 'workflow_id', write: true },
    auth: inSpace,
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
    ...GetCanvas,
    auth: inSpace,
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
    ...UpdateMeta,
    resource: { kind: 'workflow', id: 'workflow_id', write: true },
    auth: inSpace,
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
    ...CopyWorkflow,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const meta = await store.meta(body.workflow_id, body.space_id);
      const draft = await store.draft(meta.id);
      // "Name (copy)", else "Name (copy 2)" ...: names stay unique in the space.
      let name = '';
      for (let n = 1; n < 1000 && (!name || (await nameTaken(meta.space_id, name))); n++) {
        const suffix = n === 1 ? ' (copy)' : ` (copy ${n})`;
        name = `${meta.name.slice(0, 100 - suffix.length)}${suffix}`;
      }
      const id = await store.insert({
        space_id: meta.space_id,
        name,
        description: meta.description,
        icon_uri: meta.icon_uri,
        flow_mode: meta.flow_mode,
        creator_id: caller!.userId,
        canvas: draft.canvas,
      });
      return { workflow_id: id };
    },
  });

  ctx.route({
    ...ListReferences,
    auth: inSpace,
    handler: async ({ body }) => {
      await store.meta(body.workflow_id, body.space_id);
      return { workflow_list: await references(body.space_id, body.workflow_id) };
    },
  });

  ctx.route({
    ...DeleteWorkflow,
    resource: { kind: 'workflow', id: 'workflow_id', write: true },
    auth: inSpace,
    handler: async ({ body }) => {
      await store.meta(body.workflow_id, body.space_id);
      const refs = await references(body.space_id, body.workflow_id);
      await remove(body.space_id, [body.workflow_id]);
      return { status: 0, references: refs };
    },
  });

  ctx.route({
    ...BatchDelete,
    auth: inSpace,
    handler: async ({ body }) => {
      await remove(body.space_id, body.workflow_id_list);
      return null;
    },
  });

  ctx.route({
    ...ListWorkflows,
    auth: inSpace,
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
    ...WorkflowDetail,
    auth: inSpace,
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
    ...GetSignature,
    auth: inSpace,
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

  for (const endpoint of [ValidateTree, Validate]) {
    ctx.route({
      ...endpoint,
      auth: inSpace,
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
}
