// The space's evaluators for other extensions (EvaluatorRunsService): listed, a version resolved, and run.
import { badRequest, parseStoredObject } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { Evaluators, EvaluatorRunsService } from '../shared/index.ts';
import { now, owned } from './common.ts';
import { evalDb } from './db.ts';

export function provideEvaluatorRuns(ctx: ServerContext<unknown>) {
  ctx.provide(EvaluatorRunsService, {
    async list(spaceId) {
      const rows = await evalDb(ctx)
        .selectFrom('eval_evaluator')
        .select(['id', 'name', 'kind', 'latest_version'])
        .where('space_id', '=', spaceId)
        .where('deleted_at', 'is', null)
        .orderBy('name')
        .execute();
      return rows.map((r) => ({
        evaluator_id: r.id,
        name: r.name,
        kind: r.kind,
        latest_version: r.latest_version,
      }));
    },
    async resolve(spaceId, evaluatorId, version) {
      const ev = await owned(ctx, 'eval_evaluator', evaluatorId, spaceId, 'evaluator');
      const v = version || ev.latest_version;
      const row = await evalDb(ctx)
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
        settings: parseStoredObject(row.settings, "an experiment's settings"),
      };
    },
    async create(spaceId, userId, e) {
      const kind = ctx.registry(Evaluators).get(e.kind);
      if (!kind) throw badRequest(`There is no evaluator kind ${e.kind}.`, { field: 'kind' });
      const r = kind.settings.safeParse(e.settings);
      if (!r.success)
        throw badRequest(r.error.issues[0]?.message ?? 'The settings are not valid.', { field: 'settings' });
      const id = ctx.host.newId();
      const t = now();
      await evalDb(ctx)
        .insertInto('eval_evaluator')
        .values({
          id,
          space_id: spaceId,
          name: e.name.slice(0, 100),
          description: (e.description ?? '').slice(0, 2000),
          kind: e.kind,
          creator_id: userId,
          latest_version: '1.0.0',
          created_at: t,
          updated_at: t,
          deleted_at: null,
        })
        .execute();
      await evalDb(ctx)
        .insertInto('eval_evaluator_version')
        .values({
          id: ctx.host.newId(),
          evaluator_id: id,
          version: '1.0.0',
          settings: JSON.stringify(r.data),
          created_at: t,
        })
        .execute();
      return { evaluator_id: id, version: '1.0.0' };
    },
    async evaluate(spaceId, ref, e) {
      const kind = ctx.registry(Evaluators).get(ref.kind);
      if (!kind) throw new Error(`The evaluator kind ${ref.kind} is not in this studio.`);
      return kind.evaluate({ spaceId, settings: ref.settings, ...e });
    },
  });
}
