// A workflow's commits and versions (Coze's /api/workflow_api/submit, publish, version_list, operate_list,
// history_schema, revert): the draft committed with a description, published as a version greater than the
// last, listed, compared and made the draft again.
import { badRequest, conflict } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import {
  HistorySchema,
  ListOperations,
  ListVersions,
  PublishWorkflow,
  RevertDraft,
  SubmitDraft,
} from '../shared/api.ts';
import { OperateType, WorkflowPublished } from '../shared/index.ts';
import { blocking, validateCanvas } from './engine/validate.ts';
import type { WorkflowApiDeps } from './common.ts';
import { nowIso, workflowDb } from './store.ts';

const inSpace = { space: { from: 'body' as const, field: 'space_id' } };
const cmpVersion = (a: string, b: string) => {
  const pa = a.slice(1).split('.').map(Number);
  const pb = b.slice(1).split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
};

export function registerVersionRoutes(ctx: ServerContext<unknown>, deps: WorkflowApiDeps) {
  const { store, typeOf } = deps;
  const db = () => workflowDb(ctx);

  ctx.route({
    ...SubmitDraft,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const meta = await store.meta(body.workflow_id, body.space_id);
      if (meta.submitted_revision === meta.draft_revision)
        throw conflict('Nothing to submit: the draft has not changed since the last submit.');
      if (!body.force && meta.tested_revision !== meta.draft_revision)
        throw badRequest('Run a successful test run of the current draft before submitting (or submit with force).');
      const draft = await store.draft(meta.id);
      const problems = blocking(validateCanvas(draft.canvas, typeOf));
      if (problems.length)
        throw badRequest(`The draft has ${problems.length} problem(s); fix them first (validate_tree lists them).`);
      const id = ctx.host.newId();
      await db()
        .insertInto('workflow_commit')
        .values({
          id,
          workflow_id: meta.id,
          canvas: JSON.stringify(draft.canvas),
          revision: draft.revision,
          description: body.desc,
          version: null,
          version_description: null,
          created_by: caller!.userId,
          created_at: nowIso(),
          published_at: null,
        })
        .execute();
      await db()
        .updateTable('workflow_meta')
        .set({ submitted_revision: draft.revision, latest_commit_id: id, updated_at: nowIso() })
        .where('id', '=', meta.id)
        .execute();
      await store.operation(meta.id, OperateType.Submit, caller!.userId, id, body.desc);
      return { commit_id: id };
    },
  });

  ctx.route({
    ...PublishWorkflow,
    resource: { kind: 'workflow', id: 'workflow_id', write: true },
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const meta = await store.meta(body.workflow_id, body.space_id);
      if (!body.force && meta.tested_revision !== meta.draft_revision)
        throw badRequest('Run a successful test run of the current draft before publishing (or publish with force).');
      return publishWorkflow(meta, body.workflow_version, body.version_description, caller!.userId);
    },
  });

  /** Publishes the draft as `version` (greater than the last one), when it has no blocking problems. */
  async function publishWorkflow(
    meta: Awaited<ReturnType<typeof store.meta>>,
    version: string,
    description: string,
    userId: string,
  ) {
    if (meta.latest_version && cmpVersion(version, meta.latest_version) <= 0)
      throw badRequest(`The version must be greater than the published ${meta.latest_version}.`);
    const draft = await store.draft(meta.id);
    const problems = blocking(validateCanvas(draft.canvas, typeOf));
    if (problems.length)
      throw badRequest(`The draft has ${problems.length} problem(s); fix them first (validate_tree lists them).`);
    const id = ctx.host.newId();
    const t = nowIso();
    await db()
      .insertInto('workflow_commit')
      .values({
        id,
        workflow_id: meta.id,
        canvas: JSON.stringify(draft.canvas),
        revision: draft.revision,
        description: description,
        version: version,
        version_description: description,
        created_by: userId,
        created_at: t,
        published_at: t,
      })
      .execute();
    await db()
      .updateTable('workflow_meta')
      .set({
        published_revision: draft.revision,
        submitted_revision: draft.revision,
        latest_commit_id: id,
        latest_version: version,
        published_at: t,
        updated_at: t,
      })
      .where('id', '=', meta.id)
      .execute();
    store.forget([meta.id]);
    await store.operation(meta.id, OperateType.Publish, userId, id, description);
    ctx.emit(WorkflowPublished, { workflow_id: meta.id, space_id: meta.space_id, version: version });
    return { workflow_id: meta.id, commit_id: id, workflow_version: version };
  }

  ctx.route({
    ...ListVersions,
    auth: inSpace,
    handler: async ({ body }) => {
      await store.meta(body.workflow_id, body.space_id);
      const rows = await db()
        .selectFrom('workflow_commit')
        .select(['id', 'version', 'version_description', 'created_by', 'published_at'])
        .where('workflow_id', '=', body.workflow_id)
        .where('version', 'is not', null)
        .orderBy('published_at', 'desc')
        .limit(body.size)
        .offset((body.page - 1) * body.size)
        .execute();
      return {
        version_list: rows.map((r) => ({
          commit_id: r.id,
          version: r.version ?? '',
          version_description: r.version_description ?? '',
          creator_id: r.created_by,
          publish_time: Math.floor(Date.parse(r.published_at as string) / 1000),
        })),
      };
    },
  });

  ctx.route({
    ...ListOperations,
    auth: inSpace,
    handler: async ({ body }) => {
      await store.meta(body.workflow_id, body.space_id);
      let q = db().selectFrom('workflow_operation').selectAll().where('workflow_id', '=', body.workflow_id);
      if (body.type !== undefined) q = q.where('type', '=', body.type);
      if (body.last_commit_id) q = q.where('id', '<', body.last_commit_id);
      const rows = await q.orderBy('id', 'desc').limit(body.limit).execute();
      return {
        operate_list: rows.map((r) => ({
          id: r.id,
          type: Number(r.type),
          commit_id: r.commit_id,
          operator_id: r.operator_id,
          desc: r.description,
          create_time: Math.floor(Date.parse(r.created_at) / 1000),
        })),
        has_more: rows.length === body.limit,
      };
    },
  });

  ctx.route({
    ...HistorySchema,
    auth: inSpace,
    handler: async ({ body }) => {
      const meta = await store.meta(body.workflow_id, body.space_id);
      const c = await store.commit(body.commit_id, meta.id);
      return {
        commit_id: c.id,
        version: c.version ?? null,
        description: c.description,
        schema_json: c.canvas,
        create_time: Math.floor(Date.parse(c.created_at) / 1000),
      };
    },
  });

  ctx.route({
    ...RevertDraft,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const meta = await store.meta(body.workflow_id, body.space_id);
      const commit = await store.commit(body.commit_id, meta.id);
      const revision = meta.draft_revision + 1;
      await db()
        .updateTable('workflow_draft')
        .set({
          canvas: commit.canvas,
          revision,
          base_commit_id: commit.id,
          updated_by: caller!.userId,
          updated_at: nowIso(),
        })
        .where('workflow_id', '=', meta.id)
        .execute();
      await db()
        .updateTable('workflow_meta')
        .set({ draft_revision: revision, updated_at: nowIso() })
        .where('id', '=', meta.id)
        .execute();
      await store.operation(
        meta.id,
        OperateType.Draft,
        caller!.userId,
        commit.id,
        `reverted to ${commit.version ?? commit.id}`,
      );
      return { revision };
    },
  });

  return { publishWorkflow };
}
