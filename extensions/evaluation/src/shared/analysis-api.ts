// Evaluation's analysis calls (the first evaluation service's ideas): rule groups with thresholds that pass or fail
// each item of an experiment, contrast reports between experiments, scores analysed by a column of the set, and
// people's scores on results (an evaluator's score corrected, or a manual metric). One contract for server and page.
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';

const Id = z.string().min(1).max(32);
const BASE = '/api/evaluation/v1';

export const RULE_OPS = ['gte', 'gt', 'lte', 'lt', 'eq'] as const;
export const Rule = z.object({
  /** An evaluator of the experiment, or a manual metric (manual:<key>). */
  evaluator_id: z.string().min(1).max(80),
  op: z.enum(RULE_OPS).default('gte'),
  threshold: z.number(),
});
export type Rule = z.output<typeof Rule>;
export const RuleGroupView = z.object({
  rule_group_id: z.string(),
  name: z.string(),
  /** all: an item passes when every rule holds; any: when one does. */
  logic: z.enum(['all', 'any']),
  rules: z.array(Rule),
  update_time: z.number(),
});
export type RuleGroupView = z.output<typeof RuleGroupView>;
const RuleGroupBody = z.object({
  name: z.string().trim().min(1, 'Give the rule group a name.').max(100),
  logic: z.enum(['all', 'any']).default('all'),
  rules: z.array(Rule).min(1, 'Add a rule.').max(20),
});

export const CreateRuleGroup = defineEndpoint({
  method: 'POST',
  path: `${BASE}/rule_groups/create`,
  summary: 'A rule group: thresholds on evaluators (all or any must hold) that pass or fail each item',
  body: RuleGroupBody.extend({ space_id: Id }),
  response: z.object({ rule_group: RuleGroupView }),
});
export const UpdateRuleGroup = defineEndpoint({
  method: 'POST',
  path: `${BASE}/rule_groups/update`,
  summary: "Change a rule group's name, logic or rules",
  body: RuleGroupBody.extend({ space_id: Id, rule_group_id: Id }),
  response: z.object({ rule_group: RuleGroupView }),
});
export const ListRuleGroups = defineEndpoint({
  method: 'POST',
  path: `${BASE}/rule_groups/list`,
  summary: "The space's rule groups",
  body: z.object({ space_id: Id }),
  response: z.object({ rule_groups: z.array(RuleGroupView) }),
});
export const DeleteRuleGroup = defineEndpoint({
  method: 'POST',
  path: `${BASE}/rule_groups/delete`,
  summary: 'Delete a rule group',
  body: z.object({ space_id: Id, rule_group_id: Id }),
  response: z.object({}),
});

export const ItemVerdict = z.object({
  item_id: z.string(),
  position: z.number(),
  passed: z.boolean(),
  /** The rules that did not hold (a missing score does not). */
  failed_rules: z.array(Rule),
});
export const RuleResults = defineEndpoint({
  method: 'POST',
  path: `${BASE}/experiments/rule_results`,
  summary: "An experiment's items passed or failed by a rule group, and its pass rate",
  body: z.object({ space_id: Id, experiment_id: Id, rule_group_id: Id }),
  response: z.object({
    passed: z.number(),
    failed: z.number(),
    pass_rate: z.number().nullable(),
    items: z.array(ItemVerdict),
  }),
});

export const ContrastChange = z.enum(['improved', 'regressed', 'unchanged', 'missing']);
export const Contrast = defineEndpoint({
  method: 'POST',
  path: `${BASE}/experiments/contrast`,
  summary:
    'A contrast report: each experiment against a base, item by item (same set), by an evaluator’s score or a rule group’s verdict: improved, regressed, unchanged',
  body: z
    .object({
      space_id: Id,
      base_experiment_id: Id,
      experiment_ids: z.array(Id).min(1, 'Choose an experiment to contrast with the base.').max(4),
      evaluator_id: z.string().max(80).optional(),
      rule_group_id: Id.optional(),
    })
    .refine((b) => !!b.evaluator_id !== !!b.rule_group_id, {
      message: 'Contrast by an evaluator or by a rule group (one of them).',
      path: ['evaluator_id'],
    }),
  response: z.object({
    reports: z.array(
      z.object({
        experiment_id: z.string(),
        improved: z.number(),
        regressed: z.number(),
        unchanged: z.number(),
        missing: z.number(),
        /** Items that changed, regressions first (200 at most). */
        items: z.array(
          z.object({
            item_id: z.string(),
            item: z.record(z.string(), z.unknown()),
            change: ContrastChange,
            base: z.union([z.number(), z.boolean()]).nullable(),
            other: z.union([z.number(), z.boolean()]).nullable(),
          }),
        ),
      }),
    ),
  }),
});

export const Analysis = defineEndpoint({
  method: 'POST',
  path: `${BASE}/experiments/analysis`,
  summary: "An evaluator's scores of an experiment grouped by a column of the set: count and mean per value",
  body: z.object({
    space_id: Id,
    experiment_id: Id,
    evaluator_id: z.string().min(1).max(80),
    column: z.string().min(1).max(64),
  }),
  response: z.object({
    groups: z.array(z.object({ value: z.string(), count: z.number(), mean: z.number().nullable() })),
    /** More than 50 values: the rest are summed up here. */
    others: z.number(),
  }),
});

export const CorrectScore = defineEndpoint({
  method: 'POST',
  path: `${BASE}/experiments/results/correct`,
  summary:
    "A person's score on a result: an evaluator's score corrected (the original kept), or a manual metric (manual_key); aggregates read it",
  body: z
    .object({
      space_id: Id,
      experiment_id: Id,
      item_id: Id,
      evaluator_id: z.string().max(80).optional(),
      manual_key: z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_ -]{0,39}$/, 'A metric name has letters, digits, spaces, - and _.')
        .optional(),
      score: z.number().min(-1e6).max(1e6),
      reason: z.string().max(2000).default(''),
    })
    .refine((b) => !!b.evaluator_id !== !!b.manual_key, {
      message: "Correct an evaluator's score, or give a manual metric (one of them).",
      path: ['evaluator_id'],
    }),
  response: z.object({}),
});
