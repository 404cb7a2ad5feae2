// Mock sets, rules, bindings, test cases and generation tasks as the routes, the mock hook and the generator ask for
// them; and how a rule matches a call.
import type { ServerContext } from '@tessera/sdk/server';
import type { Kysely } from 'kysely';
import { RequestFilterType, type CaseView, type MockRuleView, type MockSetView } from '../shared/api.ts';
import { texts } from './texts.ts';
import { ServerContextToken } from '@tessera/sdk/server';
import { fieldOf } from '@tessera/sdk';

export interface MockSetRow {
  id: string;
  space_id: string;
  name: string;
  description: string;
  component_type: number;
  component_id: string;
  parent_id: string;
  creator_id: string;
  created_at: string;
  updated_at: string;
}
export interface MockRuleRow {
  id: string;
  mock_set_id: string;
  name: string;
  description: string;
  priority: number;
  filter_type: number;
  filter_rule: string;
  expect_type: number;
  expect_rule: string;
  creator_id: string;
  created_at: string;
  updated_at: string;
}
export interface BindingRow {
  id: string;
  space_id: string;
  component_type: number;
  component_id: string;
  scene: number;
  caller_id: string;
  mock_set_id: string;
  bound_by: string;
  updated_at: string;
}
export interface CaseRow {
  id: string;
  space_id: string;
  component_type: number;
  component_id: string;
  name: string;
  description: string;
  input: string;
  is_default: number;
  creator_id: string;
  updater_id: string;
  created_at: string;
  updated_at: string;
}
export interface GenTaskRow {
  id: string;
  space_id: string;
  mock_set_id: string;
  quantity: number;
  description: string;
  model_id: string;
  status: number;
  choices: string;
  error: string;
  creator_id: string;
  created_at: string;
  updated_at: string;
}
interface DebuggerDb {
  debugger_mock_set: MockSetRow;
  debugger_mock_rule: MockRuleRow;
  debugger_mock_binding: BindingRow;
  debugger_case: CaseRow;
  debugger_gen_task: GenTaskRow;
}

export const iso = () => new Date().toISOString();
const secs = (v: string) => Math.floor(Date.parse(v) / 1000);

/** A multi-agent bot's debug chat is its bot's debug scene too. */
export const sceneOf = (scene: number) => (scene === 10001 ? 10000 : scene);

/** Whether every value of `want` is in `got` (objects key by key, the rest equal as JSON). */
export function holds(got: unknown, want: unknown): boolean {
  if (want && typeof want === 'object' && !Array.isArray(want))
    return !!got && typeof got === 'object' && Object.entries(want).every(([k, v]) => holds(fieldOf(got, k), v));
  return JSON.stringify(got) === JSON.stringify(want);
}

/** Whether a rule answers a call with this input. */
export function ruleMatches(rule: Pick<MockRuleRow, 'filter_type' | 'filter_rule'>, input: unknown): boolean {
  if (Number(rule.filter_type) !== RequestFilterType.Match) return true;
  try {
    return holds(input, JSON.parse(rule.filter_rule || '{}'));
  } catch {
    return false;
  }
}

export class DebuggerStore {
  static readonly inject = [ServerContextToken] as const;
  readonly #ctx: ServerContext;
  constructor(ctx: ServerContext) {
    this.#ctx = ctx;
  }
  get db(): Kysely<DebuggerDb> {
    return this.#ctx.db;
  }
  newId() {
    return this.#ctx.host.newId();
  }

  async mockSet(id: string): Promise<MockSetRow> {
    const s = await this.db.selectFrom('debugger_mock_set').selectAll().where('id', '=', id).executeTakeFirst();
    if (!s) throw texts.error(404, 'noMockSet', { id });
    return s;
  }
  async rule(id: string): Promise<MockRuleRow> {
    const r = await this.db.selectFrom('debugger_mock_rule').selectAll().where('id', '=', id).executeTakeFirst();
    if (!r) throw texts.error(404, 'noRule', { id });
    return r;
  }
  /** A set's rules in the order they are tried: the highest priority first, then the oldest. */
  async rules(setId: string): Promise<MockRuleRow[]> {
    return this.db
      .selectFrom('debugger_mock_rule')
      .selectAll()
      .where('mock_set_id', '=', setId)
      .orderBy('priority', 'desc')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }
  async case(id: string): Promise<CaseRow> {
    const c = await this.db.selectFrom('debugger_case').selectAll().where('id', '=', id).executeTakeFirst();
    if (!c) throw texts.error(404, 'noCase', { id });
    return c;
  }

  async setView(s: MockSetRow, incompatible = false, componentName = ''): Promise<MockSetView> {
    const n = await this.db
      .selectFrom('debugger_mock_rule')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('mock_set_id', '=', s.id)
      .executeTakeFirst();
    return {
      id: s.id,
      name: s.name,
      description: s.description,
      mockRuleQuantity: Number(n?.n ?? 0),
      creator: { ID: s.creator_id, name: '' },
      createTimeInSec: secs(s.created_at),
      updateTimeInSec: secs(s.updated_at),
      schemaIncompatible: incompatible,
      mockSubject: {
        componentID: s.component_id,
        componentType: Number(s.component_type),
        parentComponentID: s.parent_id,
        ...(s.parent_id ? { parentComponentType: 10000 } : {}),
      },
      componentName,
    };
  }
  ruleView(r: MockRuleRow): MockRuleView {
    return {
      id: r.id,
      mockSetID: r.mock_set_id,
      name: r.name,
      description: r.description,
      priority: Number(r.priority),
      requestFilter: { requestFilterType: Number(r.filter_type), requestFilterRule: r.filter_rule },
      responseExpect: { responseExpectType: Number(r.expect_type), responseExpectRule: r.expect_rule },
      creator: { ID: r.creator_id, name: '' },
      createTimeInSec: secs(r.created_at),
      updateTimeInSec: secs(r.updated_at),
    };
  }
  caseView(c: CaseRow, incompatible = false): CaseView {
    return {
      caseBase: {
        caseID: c.id,
        name: c.name,
        description: c.description,
        input: c.input,
        isDefault: !!Number(c.is_default),
      },
      creatorID: c.creator_id,
      createTimeInSec: secs(c.created_at),
      updateTimeInSec: secs(c.updated_at),
      schemaIncompatible: incompatible,
      updater: { ID: c.updater_id, name: '' },
    };
  }
}
