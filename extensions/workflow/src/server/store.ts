import { notFound } from '@tessera/sdk';
import { LocalCache, type ServerContext, ServerContextToken } from '@tessera/sdk/server';
import type { Kysely } from 'kysely';
import type { RunRow } from './runs.ts';
import { Canvas, DevelopmentStatus, PublishStatus, WorkflowMode, type CanvasNode } from '../shared/index.ts';

export interface MetaRow {
  id: string;
  space_id: string;
  name: string;
  description: string;
  icon_uri: string;
  flow_mode: number;
  creator_id: string;
  draft_revision: number;
  tested_revision: number;
  submitted_revision: number;
  published_revision: number;
  latest_commit_id: string | null;
  latest_version: string | null;
  published_at: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

/** A workflow's draft canvas (one row a workflow). */
export interface DraftRow {
  workflow_id: string;
  canvas: string;
  revision: number;
  base_commit_id: string | null;
  updated_by: string;
  updated_at: string;
}
/** A saved state of a workflow's canvas: a submit, and a published version when `version` is set. */
export interface CommitRow {
  id: string;
  workflow_id: string;
  canvas: string;
  revision: number;
  description: string;
  version: string | null;
  version_description: string | null;
  created_by: string;
  created_at: string;
  published_at: string | null;
}
/** What was done to a workflow (submit, publish, revert ...), for its history. */
export interface OperationRow {
  id: string;
  workflow_id: string;
  type: number;
  commit_id: string | null;
  operator_id: string;
  description: string;
  created_at: string;
}
/** A node's execution in a run. */
export interface NodeExecRow {
  id: string;
  run_id: string;
  node_id: string;
  node_type: string;
  title: string;
  status: number;
  inputs: string | null;
  outputs: string | null;
  error: string | null;
  branch: string | null;
  started_at: string;
  duration_ms: number;
  tokens: number;
  logs: string | null;
}
/** A span of a run's trace (bigints: PostgreSQL answers them as text). */
export interface SpanRow {
  id: string;
  run_id: string;
  parent_id: string | null;
  name: string;
  start_ms: number | string;
  end_ms: number | string | null;
  status: string;
  attributes: string;
}
/** The workflow extension's tables (migrations.ts). */
export interface WorkflowDb {
  workflow_meta: MetaRow;
  workflow_draft: DraftRow;
  workflow_commit: CommitRow;
  workflow_operation: OperationRow;
  workflow_run: RunRow;
  workflow_node_exec: NodeExecRow;
  workflow_span: SpanRow;
}
/** The studio's database, typed by the workflow extension's tables. */
export const workflowDb = (ctx: Pick<ServerContext<unknown>, 'db'>): Kysely<WorkflowDb> => ctx.db as Kysely<WorkflowDb>;

export const nowIso = () => new Date().toISOString();

/** A new workflow starts with a Start and an End node linked together (ChatFlow's Start takes the user's message). */
/** A new workflow's canvas: Start and End, titled with their type's label in the creator's language. */
export function initialCanvas(
  flowMode: number,
  titleOf: (type: string, fallback: string) => string = (_t, f) => f,
): Canvas {
  const startOutputs =
    flowMode === WorkflowMode.ChatFlow
      ? [
          { name: 'USER_INPUT', type: 'string' as const, required: true },
          { name: 'CONVERSATION_NAME', type: 'string' as const },
        ]
      : [{ name: 'input', type: 'string' as const }];
  const nodes: CanvasNode[] = [
    {
      node_id: '100001',
      type: '1',
      node_param: { title: titleOf('1', 'Start'), inputs: [], outputs: startOutputs, settings: {} },
      layout: { x: 0, y: 0 },
    },
    {
      node_id: '900001',
      type: '2',
      node_param: {
        title: titleOf('2', 'End'),
        inputs: [],
        outputs: [],
        settings: { terminate_plan: 'return_variables' },
      },
      layout: { x: 600, y: 0 },
    },
  ];
  return { nodes, links: [{ from_node_id: '100001', to_node_id: '900001' }] };
}

export function developmentStatus(m: MetaRow): number {
  if (m.deleted_at) return DevelopmentStatus.Deleted;
  if (m.submitted_revision === m.draft_revision) return DevelopmentStatus.HadSubmit;
  return m.tested_revision === m.draft_revision ? DevelopmentStatus.CanSubmit : DevelopmentStatus.CanNotSubmit;
}

export function publishStatus(m: MetaRow): number {
  if (m.deleted_at) return PublishStatus.Deleted;
  if (m.published_revision === m.draft_revision) return PublishStatus.HadPublished;
  return m.tested_revision === m.draft_revision ? PublishStatus.CanPublish : PublishStatus.CanNotPublish;
}

export function metaView(m: MetaRow) {
  return {
    workflow_id: m.id,
    space_id: m.space_id,
    name: m.name,
    desc: m.description,
    icon_uri: m.icon_uri,
    flow_mode: Number(m.flow_mode),
    creator_id: m.creator_id,
    revision: Number(m.draft_revision),
    status: developmentStatus(m),
    publish_status: publishStatus(m),
    latest_version: m.latest_version,
    latest_commit_id: m.latest_commit_id,
    published_at: m.published_at,
    create_time: Math.floor(Date.parse(m.created_at) / 1000),
    update_time: Math.floor(Date.parse(m.updated_at) / 1000),
  };
}

export class WorkflowStore {
  static readonly inject = [ServerContextToken] as const;
  #ctx: ServerContext<unknown>;
  constructor(ctx: ServerContext<unknown>) {
    this.#ctx = ctx;
  }
  get db() {
    return workflowDb(this.#ctx);
  }

  async meta(workflowId: string, spaceId?: string): Promise<MetaRow> {
    let q = this.db
      .selectFrom('workflow_meta')
      .selectAll()
      .where('id', '=', workflowId)
      .where('deleted_at', 'is', null);
    if (spaceId) q = q.where('space_id', '=', spaceId);
    const m = await q.executeTakeFirst();
    if (!m) throw notFound('This workflow does not exist in the space (it may have been deleted).');
    return {
      ...m,
      draft_revision: Number(m.draft_revision),
      tested_revision: Number(m.tested_revision),
      submitted_revision: Number(m.submitted_revision),
      published_revision: Number(m.published_revision),
    };
  }

  async draft(workflowId: string): Promise<{ canvas: Canvas; revision: number }> {
    const d = await this.db
      .selectFrom('workflow_draft')
      .selectAll()
      .where('workflow_id', '=', workflowId)
      .executeTakeFirstOrThrow();
    return { canvas: JSON.parse(d.canvas), revision: Number(d.revision) };
  }

  /** The canvas of a published version (the latest one by default). */
  async published(
    workflowId: string,
    version?: string,
  ): Promise<{ canvas: Canvas; commit_id: string; version: string }> {
    let q = this.db
      .selectFrom('workflow_commit')
      .select(['id', 'version'])
      .where('workflow_id', '=', workflowId)
      .where('version', 'is not', null);
    if (version) q = q.where('version', '=', version);
    const c = await q.orderBy('published_at', 'desc').executeTakeFirst();
    if (!c)
      throw notFound(
        version
          ? `Version ${version} of this workflow does not exist.`
          : 'This workflow has no published version yet: publish it first.',
      );
    return { canvas: await this.commitCanvas(c.id), commit_id: c.id, version: c.version as string };
  }

  /** A commit's parsed canvas (commits never change, so it is kept). */
  async commitCanvas(commitId: string): Promise<Canvas> {
    return this.#commits.getOrLoad(
      commitId,
      async () =>
        JSON.parse(
          (
            await this.db
              .selectFrom('workflow_commit')
              .select('canvas')
              .where('id', '=', commitId)
              .executeTakeFirstOrThrow()
          ).canvas,
        ) as Canvas,
    );
  }
  #commits = new LocalCache<string, Canvas>({ max: 500 });

  /**
   * What the open API runs: a live workflow's space and a published version, in one call. Kept in
   * memory (every run asks); publishing or deleting the workflow drops it (see forget).
   */
  async runnable(
    workflowId: string,
    version?: string,
  ): Promise<{ id: string; space_id: string; name: string; canvas: Canvas; commit_id: string; version: string }> {
    const key = `${workflowId}@${version ?? ''}`;
    const hit = this.#runnable.get(key);
    if (hit) return hit;
    const meta = await this.meta(workflowId);
    const v = await this.published(meta.id, version);
    return this.#runnable.set(key, { id: meta.id, space_id: meta.space_id, name: meta.name, ...v });
  }
  #runnableCache:
    | LocalCache<
        string,
        { id: string; space_id: string; name: string; canvas: Canvas; commit_id: string; version: string }
      >
    | undefined;
  get #runnable() {
    // With several processes another one may publish or delete: then every run reads the database.
    return (this.#runnableCache ??= new LocalCache({ max: 5000, enabled: !this.#ctx.host.distributed }));
  }

  /** Drops what is kept of these workflows (after a publish or a delete). */
  forget(workflowIds: string[]): void {
    const ids = new Set(workflowIds);
    this.#runnable.clear((key) => ids.has(key.slice(0, key.indexOf('@'))));
  }

  async commit(commitId: string, workflowId: string) {
    const c = await this.db
      .selectFrom('workflow_commit')
      .selectAll()
      .where('id', '=', commitId)
      .where('workflow_id', '=', workflowId)
      .executeTakeFirst();
    if (!c) throw notFound('No such commit of this workflow.');
    return c;
  }

  /** A new workflow of a space with its first draft (created, copied or imported): never tested, submitted or published. */
  async insert(w: {
    space_id: string;
    name: string;
    description: string;
    icon_uri: string;
    flow_mode: number;
    creator_id: string;
    canvas: Canvas;
  }): Promise<string> {
    const id = this.#ctx.host.newId();
    const t = nowIso();
    const { canvas, ...meta } = w;
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('workflow_meta')
        .values({
          ...meta,
          id,
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
          canvas: JSON.stringify(canvas),
          revision: 1,
          base_commit_id: null,
          updated_by: w.creator_id,
          updated_at: t,
        })
        .execute();
    });
    return id;
  }

  async operation(workflowId: string, type: number, operatorId: string, commitId: string | null, description = '') {
    await this.db
      .insertInto('workflow_operation')
      .values({
        id: this.#ctx.host.newId(),
        workflow_id: workflowId,
        type,
        commit_id: commitId,
        operator_id: operatorId,
        description,
        created_at: nowIso(),
      })
      .execute();
  }
}
