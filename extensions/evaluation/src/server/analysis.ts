// Analysis of experiments (the first evaluation service's ideas): rule groups with thresholds passing or failing each
// item, contrast reports of experiments against a base (improved, regressed, unchanged), an evaluator's scores by a
// column of the set, and people's scores on results (corrections kept with the original, manual metrics).
import { badRequest, notFound } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import {
  Analysis,
  Contrast,
  CorrectScore,
  CreateRuleGroup,
  DeleteRuleGroup,
  ListRuleGroups,
  RuleResults,
  UpdateRuleGroup,
  type Rule,
  type RuleGroupView,
} from '../shared/analysis-api.ts';
import { inSpace, now, owned, readResults, scoresOf, secs, versionItems, type Score } from './common.ts';
import { evalDb, type RuleGroupRow } from './db.ts';

type Result = Awaited<ReturnType<typeof readResults>>[number];

const holds = (r: Rule, v: number) =>
  r.op === 'gte'
    ? v >= r.threshold
    : r.op === 'gt'
      ? v > r.threshold
      : r.op === 'lte'
        ? v <= r.threshold
        : r.op === 'lt'
          ? v < r.threshold
          : v === r.threshold;

/** Whether a result passes the group, and the rules that did not hold (a missing score does not hold). */
export function verdict(group: { logic: 'all' | 'any'; rules: Rule[] }, scores: Score[]) {
  const failed = group.rules.filter((r) => {
    const s = scores.find((x) => x.evaluator_id === r.evaluator_id)?.score;
    return s === null || s === undefined || !holds(r, s);
  });
  const passed = group.logic === 'all' ? failed.length === 0 : failed.length < group.rules.length;
  return { passed, failed_rules: failed };
}

const scoreOf = (r: Result | undefined, evaluatorId: string) =>
  r?.status === 'done' ? (r.scores.find((s) => s.evaluator_id === evaluatorId)?.score ?? null) : null;

export function registerAnalysis(ctx: ServerContext<unknown>) {
  const view = (g: RuleGroupRow): RuleGroupView => ({
    rule_group_id: g.id,
    name: g.name,
    logic: g.logic,
    rules: JSON.parse(g.rules) as Rule[],
    update_time: secs(g.updated_at),
  });
  const group = (spaceId: string, id: string) => owned(ctx, 'eval_rule_group', id, spaceId, 'rule group');
  const experiment = (spaceId: string, id: string) => owned(ctx, 'eval_experiment', id, spaceId, 'experiment');

  ctx.route({
    ...CreateRuleGroup,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const t = now();
      const row = {
        id: ctx.host.newId(),
        space_id: body.space_id,
        name: body.name,
        logic: body.logic,
        rules: JSON.stringify(body.rules),
        creator_id: caller!.userId,
        created_at: t,
        updated_at: t,
      };
      await evalDb(ctx).insertInto('eval_rule_group').values(row).execute();
      return { rule_group: view(row) };
    },
  });
  ctx.route({
    ...UpdateRuleGroup,
    auth: inSpace,
    handler: async ({ body }) => {
      const g = await group(body.space_id, body.rule_group_id);
      const patch = { name: body.name, logic: body.logic, rules: JSON.stringify(body.rules), updated_at: now() };
      await evalDb(ctx).updateTable('eval_rule_group').set(patch).where('id', '=', g.id).execute();
      return { rule_group: view({ ...g, ...patch }) };
    },
  });
  ctx.route({
    ...ListRuleGroups,
    auth: inSpace,
    handler: async ({ body }) => ({
      rule_groups: (
        await evalDb(ctx)
          .selectFrom('eval_rule_group')
          .selectAll()
          .where('space_id', '=', body.space_id)
          .orderBy('name')
          .execute()
      ).map(view),
    }),
  });
  ctx.route({
    ...DeleteRuleGroup,
    auth: inSpace,
    handler: async ({ body }) => {
      const g = await group(body.space_id, body.rule_group_id);
      await evalDb(ctx).deleteFrom('eval_rule_group').where('id', '=', g.id).execute();
      return {};
    },
  });

  ctx.route({
    ...RuleResults,
    auth: inSpace,
    handler: async ({ body }) => {
      const g = view(await group(body.space_id, body.rule_group_id));
      const e = await experiment(body.space_id, body.experiment_id);
      const items = (await readResults(ctx, e.id))
        .filter((r) => r.status === 'done')
        .map((r) => ({ item_id: r.item_id, position: r.position, ...verdict(g, r.scores) }));
      const passed = items.filter((i) => i.passed).length;
      return {
        passed,
        failed: items.length - passed,
        pass_rate: items.length ? passed / items.length : null,
        items,
      };
    },
  });

  ctx.route({
    ...Contrast,
    auth: inSpace,
    handler: async ({ body }) => {
      const base = await experiment(body.space_id, body.base_experiment_id);
      const others = await Promise.all(body.experiment_ids.map((id) => experiment(body.space_id, id)));
      for (const o of others)
        if (o.set_id !== base.set_id)
          throw badRequest('A contrast compares item by item: choose experiments over the same evaluation set.', {
            field: 'experiment_ids',
          });
      const g = body.rule_group_id ? view(await group(body.space_id, body.rule_group_id)) : undefined;
      /** What is compared of a result: the evaluator's score, or the rule group's verdict. */
      const measure = (r: Result | undefined): number | boolean | null =>
        g ? (r?.status === 'done' ? verdict(g, r.scores).passed : null) : scoreOf(r, body.evaluator_id!);
      const baseResults = new Map((await readResults(ctx, base.id)).map((r) => [r.item_id, r]));
      const items = await versionItems(ctx, base.set_id, base.set_version);
      const reports = [];
      for (const o of others) {
        const mine = new Map((await readResults(ctx, o.id)).map((r) => [r.item_id, r]));
        const counts = { improved: 0, regressed: 0, unchanged: 0, missing: 0 };
        const changed: {
          item_id: string;
          item: Record<string, unknown>;
          change: 'improved' | 'regressed' | 'unchanged' | 'missing';
          base: number | boolean | null;
          other: number | boolean | null;
        }[] = [];
        for (const id of new Set([...baseResults.keys(), ...mine.keys()])) {
          const a = measure(baseResults.get(id));
          const b = measure(mine.get(id));
          const change =
            a === null || b === null
              ? 'missing'
              : Number(b) > Number(a)
                ? 'improved'
                : Number(b) < Number(a)
                  ? 'regressed'
                  : 'unchanged';
          counts[change]++;
          if (change === 'improved' || change === 'regressed')
            changed.push({ item_id: id, item: items.get(id) ?? {}, change, base: a, other: b });
        }
        changed.sort((x, y) => (x.change === y.change ? 0 : x.change === 'regressed' ? -1 : 1));
        reports.push({ experiment_id: o.id, ...counts, items: changed.slice(0, 200) });
      }
      return { reports };
    },
  });

  ctx.route({
    ...Analysis,
    auth: inSpace,
    handler: async ({ body }) => {
      const e = await experiment(body.space_id, body.experiment_id);
      const items = await versionItems(ctx, e.set_id, e.set_version);
      const by = new Map<string, number[]>();
      for (const r of await readResults(ctx, e.id)) {
        const item = items.get(r.item_id);
        if (!item) continue;
        if (!(body.column in item)) throw notFound(`The set has no column ${body.column}.`);
        const raw = item[body.column];
        const key = raw === null || raw === undefined ? '' : typeof raw === 'string' ? raw : JSON.stringify(raw);
        const s = scoreOf(r, body.evaluator_id);
        const list = by.get(key) ?? [];
        if (s !== null) list.push(s);
        by.set(key, list);
      }
      const groups = [...by]
        .map(([value, scores]) => ({
          value,
          count: scores.length,
          mean: scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : null,
        }))
        .sort((a, b) => b.count - a.count);
      return { groups: groups.slice(0, 50), others: groups.slice(50).reduce((n, x) => n + x.count, 0) };
    },
  });

  ctx.route({
    ...CorrectScore,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const e = await experiment(body.space_id, body.experiment_id);
      const row = await evalDb(ctx)
        .selectFrom('eval_result')
        .select(['scores', 'status'])
        .where('experiment_id', '=', e.id)
        .where('item_id', '=', body.item_id)
        .executeTakeFirst();
      if (!row) throw notFound(`The experiment has no result for the item ${body.item_id}.`);
      const scores = scoresOf(row.scores);
      const at = now();
      if (body.evaluator_id) {
        const s = scores.find((x) => x.evaluator_id === body.evaluator_id);
        if (!s)
          throw badRequest(`The result has no score of the evaluator ${body.evaluator_id}.`, { field: 'evaluator_id' });
        s.corrected = { original: s.corrected ? s.corrected.original : s.score, by: caller!.userId, at };
        s.score = body.score;
        s.reason = body.reason || s.reason;
        delete s.error;
      } else {
        const id = `manual:${body.manual_key!.trim()}`;
        const s = scores.find((x) => x.evaluator_id === id);
        const next: Score = {
          evaluator_id: id,
          name: body.manual_key!.trim(),
          score: body.score,
          reason: body.reason,
          corrected: { original: null, by: caller!.userId, at },
        };
        if (s) Object.assign(s, next);
        else scores.push(next);
      }
      await evalDb(ctx)
        .updateTable('eval_result')
        .set({ scores: JSON.stringify(scores) })
        .where('experiment_id', '=', e.id)
        .where('item_id', '=', body.item_id)
        .execute();
      return {};
    },
  });
}
