// The space's evaluators for other extensions (EvaluatorRunsService): listed, a version resolved, and run.
import { badRequest } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { Evaluators, EvaluatorRunsService } from '../shared/index.ts';
import { owned } from './common.ts';

export function provideEvaluatorRuns(ctx: ServerContext<unknown>) {
  ctx.provide(EvaluatorRunsService, {
    async list(spaceId) {
      const rows = await ctx.db
        .selectFrom('eval_evaluator')
        .select(['id', 'name', 'kind', 'latest_version'])
        .where('space_id', '=', spaceId)
        .where('deleted_at', 'is', null)
        .orderBy('name')
        .execute();
      return rows.map((r) => ({
        evaluator_id: r.id as string,
        name: r.name as string,
        kind: r.kind as string,
        latest_version: r.latest_version as string,
      }));
    },
    async resolve(spaceId, evaluatorId, version) {
      const ev = await owned<{ id: string; name: string; kind: string; latest_version: string }>(
        ctx,
        'eval_evaluator',
        evaluatorId,
        spaceId,
        'evaluator',
      );
      const v = version || ev.latest_version;
      const row = await ctx.db
        .selectFrom('eval_evaluator_version')
        .select('settings')
        .where('evaluator_id', '=', ev.id)
        .where('version', '=', v)
        .executeTakeFirst();
      if (!row) throw badRequest(`The evaluator ${ev.name} has no version ${v}.`, { field: 'evaluator_version' });
      return {
        evaluator_id: ev.id,
        name: ev.name,
        kind: ev.kind,
        version: v,
        settings: JSON.parse(row.settings as string) as Record<string, unknown>,
      };
    },
    async evaluate(spaceId, ref, e) {
      const kind = ctx.registry(Evaluators).get(ref.kind);
      if (!kind) throw new Error(`The evaluator kind ${ref.kind} is not in this studio.`);
      return kind.evaluate({ spaceId, settings: ref.settings, ...e });
    },
  });
}
