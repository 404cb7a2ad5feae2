// What the workflow's route modules share: the deps they are built on, JSON-or-text inputs, names unique in a
// space, deleting to the recycle bin, and the workflows that call another as a sub-workflow.
import { ApiError, ErrorCode, badRequest, parseStoredJson } from '@tessera/sdk';
import { ErrorTexts, sameText, type ServerContext } from '@tessera/sdk/server';
import { Canvas } from '../shared/index.ts';
import type { NodeTypeLookup } from './engine/validate.ts';
import type { RunService } from './runs.ts';
import { nowIso, type WorkflowStore, workflowDb } from './store.ts';

export const inSpace = { space: { from: 'body' as const, field: 'space_id' } };
export const inSpaceQuery = { space: { from: 'query' as const, field: 'space_id' } };

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

/** The texts of the workflow's errors, in the reader's language. */
export function registerWorkflowTexts(ctx: ServerContext<unknown>) {
  ctx.register(ErrorTexts, {
    key: 'workflow.nameTaken',
    texts: {
      'en-US': 'A workflow named "{{name}}" already exists in this space. Choose another name.',
      'zh-CN': '此空间中已有名为“{{name}}”的工作流，请换一个名称。',
    },
  });
}

/** Workflow names: unique in a space (ignoring case); a taken one is a 409 naming the field. */
export function workflowNames(ctx: ServerContext<unknown>) {
  /** Workflows of a space have different names (ignoring case). */
  const nameTaken = async (spaceId: string, name: string, exceptId?: string) => {
    let q = workflowDb(ctx)
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
  return { nameTaken, refuseTakenName };
}

/** Deletes workflows of a space to the recycle bin. */
export async function removeWorkflows(store: WorkflowStore, spaceId: string, ids: string[]) {
  await store.db
    .updateTable('workflow_meta')
    .set({ deleted_at: nowIso(), updated_at: nowIso() })
    .where('space_id', '=', spaceId)
    .where('id', 'in', ids)
    .execute();
  store.forget(ids);
}

/** Workflows of the space whose draft calls this one as a sub-workflow. */
export async function referencesTo(store: WorkflowStore, spaceId: string, workflowId: string) {
  const drafts = await store.db
    .selectFrom('workflow_draft')
    .innerJoin('workflow_meta', 'workflow_meta.id', 'workflow_draft.workflow_id')
    .select(['workflow_meta.id as id', 'workflow_meta.name as name', 'workflow_draft.canvas as canvas'])
    .where('workflow_meta.space_id', '=', spaceId)
    .where('workflow_meta.deleted_at', 'is', null)
    .where('workflow_meta.id', '!=', workflowId)
    .execute();
  return drafts
    .filter((d) =>
      parseStoredJson(d.canvas, `the draft of ${d.name}`, Canvas).nodes.some(
        (n) => (n.node_param.settings as { workflow_id?: string })?.workflow_id === workflowId,
      ),
    )
    .map((d) => ({ workflow_id: d.id, name: d.name }));
}
