// A workflow's versions compared, and a save made from an older draft merged with the one saved meanwhile (spec 000
// §4: diff, merge): nodes added, removed, moved and changed field by field, links; conflicts listed for the person.
import { badRequest } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { Canvas } from '@tessera/workflow-sdk';
import { z } from 'zod';
import { upgradeCanvas } from './engine/upgrade.ts';
import { parseJsonish, SchemaInput, type WorkflowApiDeps } from './routes.ts';
import type { MetaRow } from './store.ts';

const Id = z.string().min(1).max(32);

export function registerCompareRoutes(ctx: ServerContext<unknown>, deps: WorkflowApiDeps) {
  const { store, typeOf } = deps;
  const base = '/api/workflow_api';
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
      ? (JSON.parse((await store.commit(commitId, meta.id)).canvas as string) as Canvas)
      : (await store.draft(meta.id)).canvas;
    try {
      return upgradeCanvas(canvas, typeOf);
    } catch {
      return canvas;
    }
  };

  ctx.route({
    method: 'POST',
    path: `${base}/diff`,
    auth: inSpace,
    summary:
      'What changed between two versions of a workflow (a commit id, or empty for the draft): nodes added, removed, moved and changed field by field, links',
    body: z.object({
      space_id: Id,
      workflow_id: Id,
      left_commit_id: z.string().max(32).default(''),
      right_commit_id: z.string().max(32).default(''),
    }),
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
    method: 'POST',
    path: `${base}/merge_3way`,
    auth: inSpace,
    summary:
      'Merge what the person changed (ours, from the canvas they opened: base) with the draft saved meanwhile: the merged canvas, the conflicts, links dropped, the revision to save it over',
    body: z.object({ space_id: Id, workflow_id: Id, base: SchemaInput, ours: SchemaInput }),
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
