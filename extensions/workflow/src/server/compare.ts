// A workflow's versions compared, and a save made from an older draft merged with the one saved meanwhile (spec 000
// §4: diff, merge): nodes added, removed, moved and changed field by field, links; conflicts listed for the person.
import { badRequest, parseStoredJson } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { Canvas } from '@tessera/workflow-sdk';
import { DiffVersions, Merge3Way } from '../shared/api.ts';
import { upgradeCanvas } from './engine/upgrade.ts';
import { parseJsonish, type WorkflowApiDeps } from './common.ts';
import type { MetaRow } from './store.ts';

export function registerCompareRoutes(ctx: ServerContext<unknown>, deps: WorkflowApiDeps) {
  const { store, typeOf } = deps;
  const inSpace = { space: { from: 'body' as const, field: 'space_id' } };
  const canvasOf = (value: unknown, what: string): Canvas => {
    const parsed = Canvas.safeParse(parseJsonish(value, what));
    if (!parsed.success)
      throw badRequest(`The canvas ${what} is not valid: ${parsed.error.issues[0]?.message ?? 'invalid'}`, {
        field: what,
      });
    return parsed.data;
  };
  /** The draft as the editor sees it (older nodes upgraded), or a commit's canvas. */
  const side = async (meta: MetaRow, commitId: string): Promise<Canvas> => {
    const canvas = commitId
      ? parseStoredJson((await store.commit(commitId, meta.id)).canvas, "the version's canvas", Canvas)
      : (await store.draft(meta.id)).canvas;
    try {
      return upgradeCanvas(canvas, typeOf);
    } catch {
      return canvas;
    }
  };

  ctx.route({
    ...DiffVersions,
    auth: inSpace,
    handler: async ({ body }) => {
      const meta = await store.meta(body.workflow_id, body.space_id);
      // The diff and merge code loads with the first comparison.
      const [{ diffCanvas }, { pathKey }] = await Promise.all([
        import('@tessera/workflow-sdk/merge'),
        import('@tessera/sdk/merge'),
      ]);
      const d = diffCanvas(await side(meta, body.left_commit_id), await side(meta, body.right_commit_id));
      return { diff: d.map((e) => ({ ...e, key: pathKey(e.path) })) };
    },
  });

  ctx.route({
    ...Merge3Way,
    auth: inSpace,
    handler: async ({ body }) => {
      const meta = await store.meta(body.workflow_id, body.space_id);
      const [{ mergeCanvas }, { pathKey }] = await Promise.all([
        import('@tessera/workflow-sdk/merge'),
        import('@tessera/sdk/merge'),
      ]);
      const r = mergeCanvas(canvasOf(body.base, 'base'), canvasOf(body.ours, 'ours'), await side(meta, ''));
      return {
        merged: r.merged,
        conflicts: r.conflicts.map((c) => ({ ...c, key: pathKey(c.path) })),
        dropped: r.dropped,
        theirs_revision: meta.draft_revision,
      };
    },
  });
}
