// The tasks and their sampled items, typed; a task's row as the calls show it.
import type { ServerContext } from '@tessera/sdk/server';
import type { Kysely } from 'kysely';
import { notFound } from '@tessera/sdk';
import type { FieldMapping, FilterField, TaskStatus, TaskView } from '../shared/api.ts';
import type { Rule } from './rule.ts';
import { ServerContextToken } from '@tessera/sdk/server';

export interface FrozenEvaluator {
  evaluator_id: string;
  evaluator_version: string;
  evaluator_name: string;
  kind: string;
  settings: Record<string, unknown>;
  field_mappings: FieldMapping[];
}

export interface TaskRow {
  id: string;
  space_id: string;
  name: string;
  description: string;
  /** running, pending (paused), disabled or failed; unstarted and success are read from the times and counts. */
  status: string;
  span_list_type: Rule['span_list_type'];
  filters: string;
  sample_rate: number;
  sample_size: number;
  start_at: number;
  end_at: number;
  evaluators: string;
  sampled: number;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export interface ItemRow {
  id: string;
  task_id: string;
  space_id: string;
  trace_id: string;
  span_id: string;
  evaluator_id: string;
  status: 'pending' | 'running' | 'done' | 'failed';
  score: number | null;
  reason: string;
  input: string;
  output: string;
  reference: string;
  created_at: number;
  finished_at: number;
}

export interface Tables {
  online_eval_task: TaskRow;
  online_eval_item: ItemRow;
}

/** What the sampler keeps of a task in memory. */
export interface LiveTask {
  id: string;
  space_id: string;
  rule: Rule;
  sample_size: number;
  start_at: number;
  end_at: number;
  status: string;
  sampled: number;
  evaluators: FrozenEvaluator[];
  created_by: string;
}

export const live = (t: TaskRow): LiveTask => ({
  id: t.id,
  space_id: t.space_id,
  rule: {
    span_list_type: t.span_list_type,
    filter_fields: JSON.parse(t.filters) as FilterField[],
    sample_rate: Number(t.sample_rate),
  },
  sample_size: Number(t.sample_size),
  start_at: Number(t.start_at),
  end_at: Number(t.end_at),
  status: t.status,
  sampled: Number(t.sampled),
  evaluators: JSON.parse(t.evaluators) as FrozenEvaluator[],
  created_by: t.created_by,
});

/** The status as people see it: paused and disabled as set; otherwise from the times and the sample size. */
export function statusOf(
  t: Pick<LiveTask, 'status' | 'start_at' | 'end_at' | 'sample_size' | 'sampled'>,
  now = Date.now(),
): TaskStatus {
  if (t.status === 'pending' || t.status === 'disabled' || t.status === 'failed') return t.status;
  if (now < t.start_at) return 'unstarted';
  if ((t.end_at && now > t.end_at) || (t.sample_size && t.sampled >= t.sample_size)) return 'success';
  return 'running';
}

export class TaskStore {
  static readonly inject = [ServerContextToken] as const;
  readonly db: Kysely<Tables>;
  constructor(ctx: ServerContext<unknown>) {
    this.db = ctx.db;
  }

  async get(spaceId: string, id: string): Promise<TaskRow> {
    const t = await this.db
      .selectFrom('online_eval_task')
      .selectAll()
      .where('id', '=', id)
      .where('space_id', '=', spaceId)
      .executeTakeFirst();
    if (!t) throw notFound(`There is no observation task ${id} in this space.`);
    return t;
  }

  async counts(taskIds: string[]): Promise<Map<string, Record<ItemRow['status'], number>>> {
    const out = new Map<string, Record<ItemRow['status'], number>>();
    for (const id of taskIds) out.set(id, { pending: 0, running: 0, done: 0, failed: 0 });
    if (!taskIds.length) return out;
    const rows = await this.db
      .selectFrom('online_eval_item')
      .select(['task_id', 'status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('task_id', 'in', taskIds)
      .groupBy(['task_id', 'status'])
      .execute();
    for (const r of rows) out.get(r.task_id)![r.status] = Number(r.n);
    return out;
  }

  view(t: TaskRow, c: Record<ItemRow['status'], number>): TaskView {
    const l = live(t);
    return {
      id: t.id,
      name: t.name,
      description: t.description,
      workspace_id: t.space_id,
      task_type: 'auto_evaluate',
      task_status: statusOf(l),
      rule: {
        span_filters: { span_list_type: l.rule.span_list_type, filters: { filter_fields: l.rule.filter_fields } },
        sampler: { sample_rate: l.rule.sample_rate, sample_size: l.sample_size },
        effective_time: { start_at: l.start_at, end_at: l.end_at },
      },
      task_config: {
        auto_evaluate_configs: l.evaluators.map((e) => ({
          evaluator_id: e.evaluator_id,
          evaluator_version: e.evaluator_version,
          evaluator_name: e.evaluator_name,
          field_mappings: e.field_mappings,
        })),
      },
      task_detail: {
        sampled_count: l.sampled,
        success_count: c.done,
        failed_count: c.failed,
        pending_count: c.pending + c.running,
      },
      base_info: {
        created_by: { user_id: t.created_by },
        created_at: Date.parse(t.created_at),
        updated_at: Date.parse(t.updated_at),
      },
    };
  }
}
