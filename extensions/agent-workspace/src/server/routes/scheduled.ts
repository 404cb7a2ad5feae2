// Scheduled tasks (/api/agent_space/scheduled_task/..., /api/task_api/...): a task run on a cron by the host's
// scheduler (SchedulesService), with the plan each run follows or none (each run plans for itself); a try run now;
// the runs are tasks (task_type scheduled) listed with it. A scheduled task is its creator's, as tasks are.
import { describeError } from '@tessera/sdk';
import { SchedulesService, type ScheduledFiring, type ServerContext, ServerContextToken } from '@tessera/sdk/server';
import {
  CreateScheduled,
  DeleteScheduled,
  ListScheduled,
  ScheduledRuns,
  SetScheduledStatus,
  TaskInput,
  TryRunScheduled,
  UpdateScheduled,
  type ScheduledView,
} from '../../shared/api.ts';
import { Engine } from '../engine.ts';
import { iso, json, type ScheduledRow, WorkspaceStore } from '../store.ts';
import { texts } from '../texts.ts';
import { checkInput, inputFiles } from './tasks.ts';

export const SCHEDULED_JOB = 'agent-workspace.scheduled';
const key = (id: string) => `agent-workspace:${id}`;
const secs = (v: string) => Math.floor(Date.parse(v) / 1000);
type PlanInput = { title: string; detail: string; expert_id: string };

export class Scheduled {
  static readonly inject = [ServerContextToken, WorkspaceStore, Engine] as const;
  readonly #ctx: ServerContext;
  readonly #store: WorkspaceStore;
  readonly #engine: Engine;
  constructor(ctx: ServerContext, store: WorkspaceStore, engine: Engine) {
    this.#ctx = ctx;
    this.#store = store;
    this.#engine = engine;
  }
  async row(id: string): Promise<ScheduledRow> {
    const r = await this.#store.db
      .selectFrom('agent_scheduled_task')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!r) throw texts.error(404, 'noScheduled', { id });
    return r;
  }
  /** A scheduled task of the caller's (others' are not there for them). */
  async mine(id: string, userId: string): Promise<ScheduledRow> {
    const r = await this.row(id);
    if (r.creator_id !== userId) throw texts.error(404, 'noScheduled', { id });
    return r;
  }
  async view(r: ScheduledRow): Promise<ScheduledView> {
    const state = r.status === 'enabled' ? await this.#ctx.service(SchedulesService).get(key(r.id)) : undefined;
    return {
      scheduled_task_id: r.id,
      space_id: r.space_id,
      scheduled_task_name: r.name,
      status: r.status,
      trigger: { cron: r.cron, time_zone: r.time_zone },
      task: TaskInput.parse(json(r.task, {})),
      task_plan: json<PlanInput[]>(r.task_plan, []),
      next_run_at: state?.nextRunAt ?? null,
      last_run_at: r.last_run_at || null,
      runs: Number(r.runs),
      created_at: secs(r.created_at),
    };
  }
  /** Keeps the host's time-table in step with the row (a bad cron or time zone is refused with a 400). */
  async sync(r: ScheduledRow): Promise<void> {
    const schedules = this.#ctx.service(SchedulesService);
    if (r.status === 'enabled')
      await schedules.save({
        key: key(r.id),
        job: SCHEDULED_JOB,
        payload: { scheduled_task_id: r.id },
        cron: r.cron,
        timeZone: r.time_zone,
      });
    else await schedules.remove(key(r.id));
  }
  /** A run: a task made from the scheduled one (with its plan, when it has one), carried out as any other. */
  async run(r: ScheduledRow): Promise<string> {
    const input = TaskInput.parse(json(r.task, {}));
    const plan = json<PlanInput[]>(r.task_plan, []).map((s) => ({
      ...s,
      step_id: this.#store.newId(),
      status: 'pending' as const,
      result: '',
    }));
    const row = this.#store.newTask(r.space_id, r.creator_id, input, {
      task_type: 'scheduled',
      scheduled_task_id: r.id,
      plan,
    });
    const files = await inputFiles(this.#ctx, r.space_id, input.file_uri_list);
    await this.#store.db.insertInto('agent_task').values(row).execute();
    for (const f of files) await this.#store.putFile(row.id, { ...f, origin: 'input' });
    await this.#engine.say(row.id, { kind: 'user', content: input.query });
    if (plan.length)
      await this.#engine.say(row.id, { kind: 'plan', content: plan.map((s, i) => `${i + 1}. ${s.title}`).join('\n') });
    await this.#store.db
      .updateTable('agent_scheduled_task')
      .set((eb) => ({ runs: eb('runs', '+', 1), last_run_at: iso() }))
      .where('id', '=', r.id)
      .execute();
    await this.#engine.queue(row.id);
    return row.id;
  }
  async onFiring(firing: ScheduledFiring<{ scheduled_task_id: string }>): Promise<void> {
    const r = await this.#store.db
      .selectFrom('agent_scheduled_task')
      .selectAll()
      .where('id', '=', firing.payload.scheduled_task_id)
      .executeTakeFirst();
    if (!r) return void (await this.#ctx.service(SchedulesService).remove(firing.key));
    if (r.status !== 'enabled') return;
    try {
      await this.run(r);
    } catch (e) {
      this.#ctx.logger.warn(`scheduled task ${r.id} could not run: ${describeError(e)}`);
    }
  }
}

export function registerScheduledRoutes(ctx: ServerContext, store: WorkspaceStore, scheduled: Scheduled): void {
  const ofScheduled = {
    space: async (r: { body: { scheduled_task_id?: unknown } }) =>
      (await scheduled.row(String(r.body?.scheduled_task_id ?? ''))).space_id,
  };
  const check = async (spaceId: string, body: { trigger: { cron: string; time_zone: string }; task: TaskInput }) => {
    await checkInput(ctx, spaceId, TaskInput.parse(body.task));
    await ctx.service(SchedulesService).preview({ cron: body.trigger.cron, timeZone: body.trigger.time_zone }, 1);
  };
  ctx.route({
    ...CreateScheduled,
    auth: { space: { from: 'body', field: 'space_id' } },
    handler: async ({ body, caller }) => {
      await check(body.space_id, body);
      const row: ScheduledRow = {
        id: store.newId(),
        space_id: body.space_id,
        creator_id: caller!.userId,
        name: body.scheduled_task_name,
        status: 'enabled',
        cron: body.trigger.cron,
        time_zone: body.trigger.time_zone,
        task: JSON.stringify(body.task),
        task_plan: JSON.stringify(body.task_plan),
        runs: 0,
        last_run_at: '',
        created_at: iso(),
      };
      await scheduled.sync(row);
      await store.db.insertInto('agent_scheduled_task').values(row).execute();
      return { scheduled: await scheduled.view(row) };
    },
  });
  ctx.route({
    ...UpdateScheduled,
    auth: ofScheduled,
    handler: async ({ body, caller }) => {
      const was = await scheduled.mine(body.scheduled_task_id, caller!.userId);
      await check(was.space_id, body);
      const row: ScheduledRow = {
        ...was,
        name: body.scheduled_task_name,
        cron: body.trigger.cron,
        time_zone: body.trigger.time_zone,
        task: JSON.stringify(body.task),
        task_plan: JSON.stringify(body.task_plan),
      };
      await scheduled.sync(row);
      await store.db.updateTable('agent_scheduled_task').set(row).where('id', '=', row.id).execute();
      return { scheduled: await scheduled.view(row) };
    },
  });
  ctx.route({
    ...DeleteScheduled,
    auth: ofScheduled,
    handler: async ({ body, caller }) => {
      const r = await scheduled.mine(body.scheduled_task_id, caller!.userId);
      await scheduled.sync({ ...r, status: 'disabled' });
      await store.db.deleteFrom('agent_scheduled_task').where('id', '=', r.id).execute();
      return {};
    },
  });
  ctx.route({
    ...ListScheduled,
    auth: { space: { from: 'body', field: 'space_id' } },
    handler: async ({ body, caller }) => {
      const rows = await store.db
        .selectFrom('agent_scheduled_task')
        .selectAll()
        .where('space_id', '=', body.space_id)
        .where('creator_id', '=', caller!.userId)
        .orderBy('created_at', 'desc')
        .execute();
      return { scheduled: await Promise.all(rows.map((r) => scheduled.view(r))) };
    },
  });
  ctx.route({
    ...SetScheduledStatus,
    auth: ofScheduled,
    handler: async ({ body, caller }) => {
      const row = { ...(await scheduled.mine(body.scheduled_task_id, caller!.userId)), status: body.status };
      await scheduled.sync(row);
      await store.db
        .updateTable('agent_scheduled_task')
        .set({ status: body.status })
        .where('id', '=', row.id)
        .execute();
      return { scheduled: await scheduled.view(row) };
    },
  });
  ctx.route({
    ...ScheduledRuns,
    auth: ofScheduled,
    handler: async ({ body, caller, headers }) => {
      await scheduled.mine(body.scheduled_task_id, caller!.userId);
      const rows = await store.db
        .selectFrom('agent_task')
        .selectAll()
        .where('scheduled_task_id', '=', body.scheduled_task_id)
        .orderBy('created_at', 'desc')
        .limit(body.size)
        .execute();
      return { tasks: rows.map((t) => store.view(t, headers['accept-language'])) };
    },
  });
  ctx.route({
    ...TryRunScheduled,
    auth: ofScheduled,
    handler: async ({ body, caller, headers }) => {
      const id = await scheduled.run(await scheduled.mine(body.scheduled_task_id, caller!.userId));
      return { task: store.view(await store.task(id), headers['accept-language']) };
    },
  });
}
