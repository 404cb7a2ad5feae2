import { notFound, parseStoredJson } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { z } from 'zod';
import { ResultScore } from '../shared/answers.ts';

export { Column, Id, Name } from '../shared/api.ts';

export const now = () => new Date().toISOString();
export const secs = (iso: string | null | undefined) => (iso ? Math.floor(Date.parse(iso) / 1000) : 0);
export const inSpace = { space: { from: 'body' as const, field: 'space_id' } };
export const nextVersion = (v: string) => (v ? v.replace(/(\d+)$/, (d) => String(Number(d) + 1)) : '1.0.0');

/** A row of a table of the space (not deleted), or a clear not-found. */
export async function owned<T>(
  ctx: ServerContext<unknown>,
  table: string,
  id: string,
  spaceId: string,
  what: string,
): Promise<T> {
  const r = await ctx.db
    .selectFrom(table)
    .selectAll()
    .where('id', '=', id)
    .where('space_id', '=', spaceId)
    .executeTakeFirst();
  if (!r || (r as { deleted_at?: string | null }).deleted_at)
    throw notFound(`There is no ${what} ${id} in this space.`);
  return r as T;
}

/** An evaluator's score of a result (shared/answers.ts). */
export type Score = ResultScore;

const Scores = z.array(ResultScore);

/** An experiment's results by position. */
export async function readResults(ctx: ServerContext<unknown>, experimentId: string) {
  return (
    await ctx.db
      .selectFrom('eval_result')
      .selectAll()
      .where('experiment_id', '=', experimentId)
      .orderBy('position')
      .execute()
  ).map((r) => ({
    item_id: r.item_id as string,
    position: Number(r.position),
    status: r.status as string,
    output: r.output as string,
    error: r.error as string,
    scores: parseStoredJson(r.scores as string, "a result's scores", Scores),
    latency_ms: Number(r.latency_ms),
    input_tokens: Number(r.input_tokens),
    output_tokens: Number(r.output_tokens),
    trace_id: r.trace_id as string,
  }));
}

/** The items of a set version, by id. */
export async function versionItems(
  ctx: ServerContext<unknown>,
  setId: string,
  version: string,
): Promise<Map<string, Record<string, unknown>>> {
  const v = await ctx.db
    .selectFrom('eval_set_version')
    .select('items')
    .where('set_id', '=', setId)
    .where('version', '=', version)
    .executeTakeFirst();
  return new Map(
    (v ? (JSON.parse(v.items as string) as { item_id: string; data: Record<string, unknown> }[]) : []).map((i) => [
      i.item_id,
      i.data,
    ]),
  );
}
