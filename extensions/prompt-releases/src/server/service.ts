// Release tasks: asked for, approved or rejected, run subtask by subtask (gray, then full; full; offline), cancelled,
// rolled back. Every change of what an environment serves happens in one transaction with the task's own row, and
// drops the environment from every process's memory (Servings).
import type { ServerContext } from '@tessera/sdk/server';
import { PromptsService } from '@tessera/ext-prompts/shared';
import { SpaceRoleType, SpacesService } from '@tessera/ext-spaces/shared';
import type { ApprovalConfig, Env, EnvState, GrayConfig, SubtaskKey, TaskView } from '../shared/api.ts';
import { Servings } from './gray.ts';
import { texts } from './texts.ts';
import {
  grayUsersOf,
  taskOf,
  type Before,
  type Db,
  ReleaseStore,
  type ResourceRow,
  type StateRow,
  type SubtaskRow,
  type Task,
  type TaskRow,
} from './store.ts';
import { ServerContextToken } from '@tessera/sdk/server';

export interface Caller {
  userId: string;
  /** The caller's role in the space ('owner', 'admin', 'member'). */
  role?: string;
}

/** The prompts and environments a change touched: [prompt id, environment]. */
type Touched = [string, string][];

const isAdmin = (c: Caller) => c.role === 'owner' || c.role === 'admin';

export class ReleaseService {
  static readonly inject = [ServerContextToken, ReleaseStore, Servings] as const;
  #ctx: ServerContext<unknown>;
  #store: ReleaseStore;
  #servings: Servings;

  constructor(ctx: ServerContext<unknown>, store: ReleaseStore, servings: Servings) {
    this.#ctx = ctx;
    this.#store = store;
    this.#servings = servings;
  }

  /**
   * Runs a change in one transaction, then tells every process which environments changed (after the commit, so no
   * process reads the old state back into its memory).
   */
  async #change(fn: (trx: Db, touched: Touched) => Promise<void>): Promise<void> {
    const touched: Touched = [];
    await this.#ctx.db.transaction().execute((trx: Db) => fn(trx, touched));
    for (const [promptId, env] of touched) this.#servings.changed(promptId, env);
  }

  async env(spaceId: string, key: string): Promise<{ env: Env; config: ApprovalConfig }> {
    const config = await this.#store.config(spaceId);
    const env = config.envs.find((e) => e.env === key);
    if (!env)
      throw texts.error(
        400,
        'noEnv',
        { env: key, envs: config.envs.map((e) => e.env).join(', ') },
        {
          detail: { field: 'env' },
        },
      );
    return { env, config };
  }

  async saveConfig(spaceId: string, config: ApprovalConfig, caller: Caller): Promise<ApprovalConfig> {
    if (!isAdmin(caller)) throw texts.error(403, 'adminsOnly');
    const spaces = this.#ctx.service(SpacesService);
    for (const id of config.approvers)
      if (!(await spaces.roleOf(spaceId, id)))
        throw texts.error(400, 'approverNotMember', { id }, { detail: { field: 'approvers' } });
    await this.#store.saveConfig(spaceId, config, caller.userId);
    return config;
  }

  /** Whether the caller may approve releases to an environment of the space. */
  async mayApprove(spaceId: string, config: ApprovalConfig, userId: string): Promise<boolean> {
    if (config.approvers.length) return config.approvers.includes(userId);
    const role = await this.#ctx.service(SpacesService).roleOf(spaceId, userId);
    return role === SpaceRoleType.Owner || role === SpaceRoleType.Admin;
  }

  async info(spaceId: string, promptId: string): Promise<{ prompt_key: string; versions: string[]; envs: EnvState[] }> {
    const p = await this.#prompt(spaceId, promptId);
    const [config, states, versions] = await Promise.all([
      this.#store.config(spaceId),
      this.#store.states(promptId),
      this.#ctx.service(PromptsService).versions(spaceId, p.prompt_key),
    ]);
    const envs = config.envs.map((e): EnvState => {
      const s = states.find((x) => x.env === e.env);
      return {
        env: e.env,
        name: e.name,
        need_approval: e.need_approval,
        version: s?.version ?? '',
        gray_release_config: s?.gray_version
          ? {
              version: s.gray_version,
              percentage: s.gray_percentage,
              user_ids: grayUsersOf(s),
              task_id: s.gray_task_id,
            }
          : null,
        previous_version: s?.previous_version ?? '',
        updated_by: s?.updated_by ?? '',
        updated_at: s?.updated_at ?? null,
      };
    });
    return { prompt_key: p.prompt_key, versions: versions?.versions.map((v) => v.version) ?? [], envs };
  }

  async #prompt(spaceId: string, promptId: string) {
    const p = await this.#ctx.service(PromptsService).byId(spaceId, promptId);
    if (!p) throw texts.error(404, 'noPrompt', { id: promptId });
    return p;
  }

  /** A new release task; it runs at once where the environment needs no approval. */
  async create(
    spaceId: string,
    input: {
      env: string;
      operation: 'release' | 'offline' | 'rollback';
      resources: { prompt_id: string; version: string }[];
      gray?: GrayConfig;
      comment: string;
    },
    caller: Caller,
  ): Promise<Task> {
    const { env, config } = await this.env(spaceId, input.env);
    if (new Set(input.resources.map((r) => r.prompt_id)).size !== input.resources.length)
      throw texts.error(400, 'twice', {}, { detail: { field: 'release_resources' } });
    if (input.operation === 'offline' && input.gray)
      throw texts.error(400, 'offlineGray', {}, { detail: { field: 'gray_release_config' } });
    const prompts = this.#ctx.service(PromptsService);
    const resources: ResourceRow[] = [];
    for (const r of input.resources) {
      const p = await this.#prompt(spaceId, r.prompt_id);
      if (input.operation === 'offline') {
        resources.push({ prompt_id: p.prompt_id, prompt_key: p.prompt_key, version: '' });
        continue;
      }
      if (!r.version)
        throw texts.error(400, 'chooseVersion', { key: p.prompt_key }, { detail: { field: 'release_resources' } });
      const versions = await prompts.versions(spaceId, p.prompt_key);
      if (!versions?.versions.some((v) => v.version === r.version))
        throw texts.error(
          400,
          'noVersion',
          { key: p.prompt_key, version: r.version },
          { detail: { field: 'release_resources' } },
        );
      resources.push({ prompt_id: p.prompt_id, prompt_key: p.prompt_key, version: r.version });
    }
    const now = Date.now();
    const keys: SubtaskKey[] = input.operation === 'offline' ? ['offline'] : input.gray ? ['gray', 'full'] : ['full'];
    // A roll back restores what was live: it waits for nobody.
    const needApproval = env.need_approval && input.operation !== 'rollback';
    const row: TaskRow = {
      id: this.#ctx.host.newId(),
      space_id: spaceId,
      env: env.env,
      operation: input.operation,
      resources: JSON.stringify(resources),
      gray: input.gray ? JSON.stringify({ percentage: input.gray.percentage, user_ids: input.gray.user_ids }) : null,
      comment: input.comment,
      status: needApproval ? 'waiting_approval' : 'in_gray',
      subtasks: JSON.stringify(keys.map((k) => ({ subtask_key: k, status: 'pending', finished_at: null }))),
      approvers: JSON.stringify(needApproval ? config.approvers : []),
      decisions: '[]',
      before: null,
      created_by: caller.userId,
      created_at: now,
      updated_at: now,
      finished_at: null,
    };
    await this.#change(async (trx, touched) => {
      await this.#store.insertTask(row, trx);
      if (!needApproval) await this.#runNext(taskOf(row), caller.userId, trx, touched);
    });
    return this.#reload(spaceId, row.id);
  }

  async #reload(spaceId: string, id: string): Promise<Task> {
    const t = await this.#store.task(spaceId, id);
    if (!t) throw texts.error(404, 'noTask', { id });
    return t;
  }

  async get(spaceId: string, id: string): Promise<Task> {
    return this.#reload(spaceId, id);
  }

  async decide(spaceId: string, id: string, approve: boolean, reason: string, caller: Caller): Promise<Task> {
    // Who may decide is read first: a statement outside the transaction inside it would wait for it (SQLite).
    const config = await this.#store.config(spaceId);
    const first = await this.#reload(spaceId, id);
    if (!(await this.mayApprove(spaceId, config, caller.userId))) throw texts.error(403, 'notApprover');
    if (first.row.created_by === caller.userId && !config.allow_self_approval) throw texts.error(403, 'fourEyes');
    if (!approve && !reason.trim()) throw texts.error(400, 'rejectWhy', {}, { detail: { field: 'reason' } });
    await this.#change(async (trx, touched) => {
      const t = (await this.#store.task(spaceId, id, trx))!;
      if (t.row.status !== 'waiting_approval') throw texts.error(409, 'notWaiting');
      t.decisions.push({ user_id: caller.userId, approve, reason: reason.trim(), decided_at: Date.now() });
      t.row.decisions = JSON.stringify(t.decisions);
      if (!approve) {
        t.row.status = 'rejected';
        t.row.finished_at = Date.now();
        t.row.updated_at = Date.now();
        await this.#store.updateTask(t.row, trx);
        return;
      }
      await this.#runNext(t, caller.userId, trx, touched);
    });
    return this.#reload(spaceId, id);
  }

  /** Runs the task's next pending subtask (the first after approval; 'full' after a gray one). */
  async #runNext(t: Task, userId: string, trx: Db, touched: Touched): Promise<void> {
    const next = t.subtasks.find((s) => s.status === 'pending');
    if (!next) return;
    const promptIds = t.resources.map((r) => r.prompt_id);
    const now = Date.now();
    // What the environment served before this task first changed it: what a roll back restores.
    if (!t.before) {
      const before: Before = [];
      for (const id of promptIds) {
        const s = await this.#store.state(id, t.row.env, trx);
        before.push({ prompt_id: id, state: s ? snapshot(s) : null });
      }
      t.before = before;
      t.row.before = JSON.stringify(before);
    }
    // A release of these prompts ends another task's gray release here (its callers get the new one).
    for (const other of await this.#store.grayTasks(t.row.space_id, t.row.env, promptIds, t.row.id, trx)) {
      other.row.status = 'cancelled';
      other.row.subtasks = JSON.stringify(other.subtasks.map((s) => (s.status === 'pending' ? cancel(s) : s)));
      other.row.finished_at = now;
      other.row.updated_at = now;
      await this.#store.updateTask(other.row, trx);
    }
    for (const r of t.resources) {
      const old = await this.#store.state(r.prompt_id, t.row.env, trx);
      const s: StateRow = old ?? emptyState(r.prompt_id, t.row.env, t.row.space_id);
      if (next.subtask_key === 'gray') {
        Object.assign(s, {
          gray_version: r.version,
          gray_percentage: t.gray!.percentage,
          gray_user_ids: JSON.stringify(t.gray!.user_ids),
          gray_task_id: t.row.id,
        });
      } else {
        const version = next.subtask_key === 'offline' ? '' : r.version;
        Object.assign(s, {
          previous_version: s.version && s.version !== version ? s.version : s.previous_version,
          version,
          task_id: t.row.id,
          ...NO_GRAY,
        });
      }
      s.updated_by = userId;
      s.updated_at = now;
      await this.#store.putState(s, trx);
      touched.push([r.prompt_id, t.row.env]);
    }
    next.status = 'done';
    next.finished_at = now;
    const pending = t.subtasks.some((x) => x.status === 'pending');
    t.row.subtasks = JSON.stringify(t.subtasks);
    t.row.status = pending ? 'in_gray' : 'done';
    t.row.finished_at = pending ? null : now;
    t.row.updated_at = now;
    await this.#store.updateTask(t.row, trx);
  }

  /** Changes a gray release's share or users, or releases it to everyone. */
  async trigger(spaceId: string, id: string, key: 'gray' | 'full', gray: GrayConfig | undefined, caller: Caller) {
    await this.#mustManage(spaceId, id, caller, 'mayNotChange');
    await this.#change(async (trx, touched) => {
      const t = (await this.#store.task(spaceId, id, trx))!;
      if (t.row.status !== 'in_gray') throw texts.error(409, 'notInGray');
      if (key === 'full') return this.#runNext(t, caller.userId, trx, touched);
      if (!gray) throw texts.error(400, 'grayWhat', {}, { detail: { field: 'gray_release_config' } });
      t.gray = { percentage: gray.percentage, user_ids: gray.user_ids };
      t.row.gray = JSON.stringify(t.gray);
      t.row.updated_at = Date.now();
      await this.#store.updateTask(t.row, trx);
      for (const r of t.resources) {
        const s = await this.#store.state(r.prompt_id, t.row.env, trx);
        if (!s || s.gray_task_id !== t.row.id) continue;
        s.gray_percentage = gray.percentage;
        s.gray_user_ids = JSON.stringify(gray.user_ids);
        s.updated_by = caller.userId;
        s.updated_at = Date.now();
        await this.#store.putState(s, trx);
        touched.push([r.prompt_id, t.row.env]);
      }
    });
    return this.#reload(spaceId, id);
  }

  /** Cancels a release waiting for approval, or a gray release (its gray share goes back to what it was). */
  async cancel(spaceId: string, id: string, caller: Caller): Promise<Task> {
    await this.#mustManage(spaceId, id, caller, 'mayNotCancel');
    await this.#change(async (trx, touched) => {
      const t = (await this.#store.task(spaceId, id, trx))!;
      if (t.row.status !== 'waiting_approval' && t.row.status !== 'in_gray') throw texts.error(409, 'notCancellable');
      if (t.row.status === 'in_gray') await this.#restore(t, caller.userId, trx, touched, 'gray');
      t.row.status = 'cancelled';
      t.row.subtasks = JSON.stringify(t.subtasks.map((s) => (s.status === 'pending' ? cancel(s) : s)));
      t.row.finished_at = Date.now();
      t.row.updated_at = Date.now();
      await this.#store.updateTask(t.row, trx);
    });
    return this.#reload(spaceId, id);
  }

  /** Undoes what a task set, while every environment it changed still serves that. */
  async rollback(spaceId: string, id: string, caller: Caller): Promise<Task> {
    await this.#mustManage(spaceId, id, caller, 'mayNotRollBack');
    await this.#change(async (trx, touched) => {
      const t = (await this.#store.task(spaceId, id, trx))!;
      if (t.row.status !== 'done' && t.row.status !== 'in_gray') throw texts.error(409, 'nothingToRollBack');
      await this.#restore(t, caller.userId, trx, touched, t.row.status === 'in_gray' ? 'gray' : 'all');
      t.row.status = 'rolled_back';
      t.row.subtasks = JSON.stringify(t.subtasks.map((s) => (s.status === 'pending' ? cancel(s) : s)));
      t.row.finished_at = Date.now();
      t.row.updated_at = Date.now();
      await this.#store.updateTask(t.row, trx);
    });
    return this.#reload(spaceId, id);
  }

  /** Who asked for a release, an approver or an administrator may cancel it or roll it back (checked before). */
  async #mustManage(
    spaceId: string,
    id: string,
    caller: Caller,
    refusal: 'mayNotCancel' | 'mayNotRollBack' | 'mayNotChange',
  ): Promise<void> {
    const t = await this.#reload(spaceId, id);
    const config = await this.#store.config(spaceId);
    if (!(await this.#mayManage(spaceId, config, t, caller))) throw texts.error(403, refusal);
  }

  /** Serves the version live before the current one again (a task of its own, done at once). */
  async rollbackEnv(spaceId: string, promptId: string, env: string, comment: string, caller: Caller) {
    const s = await this.#store.state(promptId, env);
    if (!s?.previous_version) throw texts.error(409, 'noPrevious', { env });
    return this.create(
      spaceId,
      { env, operation: 'rollback', resources: [{ prompt_id: promptId, version: s.previous_version }], comment },
      caller,
    );
  }

  /** Puts back what the task's environments served before it (the gray part only, or all), if still the task's. */
  async #restore(t: Task, userId: string, trx: Db, touched: Touched, part: 'gray' | 'all'): Promise<void> {
    for (const b of t.before ?? []) {
      const s = await this.#store.state(b.prompt_id, t.row.env, trx);
      if (!s) continue;
      const holds = part === 'gray' ? s.gray_task_id === t.row.id : s.task_id === t.row.id;
      if (holds && part === 'all' && s.gray_task_id && s.gray_task_id !== t.row.id)
        throw texts.error(409, 'grayOnTop', { env: t.row.env });
      if (!holds)
        throw texts.error(409, 'laterRelease', {
          env: t.row.env,
          key: t.resources.find((r) => r.prompt_id === b.prompt_id)?.prompt_key ?? b.prompt_id,
        });
      const prior = b.state ?? snapshot(emptyState(b.prompt_id, t.row.env, t.row.space_id));
      const restored: StateRow =
        part === 'gray'
          ? {
              ...s,
              gray_version: prior.gray_version,
              gray_percentage: prior.gray_percentage,
              gray_user_ids: prior.gray_user_ids,
              gray_task_id: prior.gray_task_id,
            }
          : { ...s, ...prior };
      restored.updated_by = userId;
      restored.updated_at = Date.now();
      await this.#store.putState(restored, trx);
      touched.push([b.prompt_id, t.row.env]);
    }
  }

  async #mayManage(spaceId: string, config: ApprovalConfig, t: Task, caller: Caller): Promise<boolean> {
    return (
      t.row.created_by === caller.userId || isAdmin(caller) || (await this.mayApprove(spaceId, config, caller.userId))
    );
  }

  /** A task as the caller sees it (with what they may do). */
  async view(t: Task, caller: Caller, config?: ApprovalConfig, isApprover?: boolean): Promise<TaskView> {
    const c = config ?? (await this.#store.config(t.row.space_id));
    const approver = isApprover ?? (await this.mayApprove(t.row.space_id, c, caller.userId));
    const mine = t.row.created_by === caller.userId;
    const manage = mine || isAdmin(caller) || approver;
    return {
      task_id: t.row.id,
      space_id: t.row.space_id,
      env: t.row.env,
      env_name: c.envs.find((e) => e.env === t.row.env)?.name ?? t.row.env,
      trigger_operation: t.row.operation,
      release_resources: t.resources,
      gray_release_config: t.gray,
      comment: t.row.comment,
      status: t.row.status,
      subtasks: t.subtasks,
      approvers: t.approvers,
      decisions: t.decisions,
      created_by: t.row.created_by,
      created_at: t.row.created_at,
      finished_at: t.row.finished_at,
      can_approve: t.row.status === 'waiting_approval' && approver && (!mine || c.allow_self_approval),
      can_cancel: manage && (t.row.status === 'waiting_approval' || t.row.status === 'in_gray'),
      can_rollback: manage && (t.row.status === 'done' || t.row.status === 'in_gray'),
    };
  }
}

const NO_GRAY = { gray_version: '', gray_percentage: 0, gray_user_ids: '[]', gray_task_id: '' };
const cancel = (s: SubtaskRow): SubtaskRow => ({ ...s, status: 'cancelled' });

function emptyState(promptId: string, env: string, spaceId: string): StateRow {
  return {
    prompt_id: promptId,
    env,
    space_id: spaceId,
    version: '',
    previous_version: '',
    task_id: '',
    ...NO_GRAY,
    updated_by: '',
    updated_at: 0,
  };
}

function snapshot(s: StateRow): NonNullable<Before[number]['state']> {
  return {
    version: s.version,
    previous_version: s.previous_version,
    task_id: s.task_id,
    gray_version: s.gray_version,
    gray_percentage: s.gray_percentage,
    gray_user_ids: s.gray_user_ids,
    gray_task_id: s.gray_task_id,
  };
}
