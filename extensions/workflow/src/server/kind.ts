// Workflows as a library resource kind: listed, deleted to the recycle bin, restored, purged, exported with the
// sub-workflows they call, imported and published from the library.
import { badRequest, conflict } from '@tessera/sdk';
import {
  ResourceKinds,
  listResourcesOfTable,
  sameText,
  spaceOfTable,
  type ResourcePackage,
  type ServerContext,
} from '@tessera/sdk/server';
import { Canvas, NodeTypes, WorkflowMode } from '../shared/index.ts';
import { removeWorkflows, workflowNames, type WorkflowApiDeps } from './common.ts';
import { stampVersions } from './engine/upgrade.ts';
import { nowIso, type MetaRow, workflowDb } from './store.ts';

type Publish = (
  meta: MetaRow,
  version: string,
  description: string,
  userId: string,
) => Promise<{ workflow_version: string }>;

export function registerWorkflowKind(ctx: ServerContext<unknown>, deps: WorkflowApiDeps, publishWorkflow: Publish) {
  const { store, typeOf } = deps;
  const { nameTaken } = workflowNames(ctx);
  const providerOf = (key: string) => ctx.registry(NodeTypes).ownerOf(key);
  const db = () => workflowDb(ctx);
  const remove = (spaceId: string, ids: string[]) => removeWorkflows(store, spaceId, ids);

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
      return store.insert({
        space_id: opts.spaceId,
        name,
        description: pkg.description ?? '',
        icon_uri: pkg.icon_uri ?? '',
        flow_mode: Number(data.flow_mode ?? WorkflowMode.Workflow),
        creator_id: opts.userId,
        canvas: stampVersions(canvas, typeOf, providerOf),
      });
    },
  });
}
