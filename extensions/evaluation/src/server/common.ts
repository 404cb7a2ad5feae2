import { notFound, parseStoredJson } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { sql } from 'kysely';
import { z } from 'zod';
import { ResultScore } from '../shared/answers.ts';
import { evalDb, type EvaluationDb } from './db.ts';

export { Column, Id, Name } from '../shared/api.ts';

export const now = () => new Date().toISOString();
export const secs = (iso: string | null | undefined) => (iso ? Math.floor(Date.parse(iso) / 1000) : 0);
export const inSpace = { space: { from: 'body' as const, field: 'space_id' } };
export const nextVersion = (v: string) => (v ? v.replace(/(\d+)$/, (d) => String(Number(d) + 1)) : '1.0.0');

/** The tables whose rows belong to a space. */
type OwnedTables = Pick<EvaluationDb, 'eval_set' | 'eval_evaluator' | 'eval_experiment' | 'eval_rule_group'>;

/** A row of a table of the space (not deleted), or a clear not-found. */
export async function owned<K extends keyof OwnedTables>(
  ctx: ServerContext<unknown>,
  table: K,
  id: string,
  spaceId: string,
  what: string,
): Promise<OwnedTables[K]> {
  const { rows } = await sql<
    OwnedTables[K]
  >`select * from ${sql.table(table)} where id = ${id} and space_id = ${spaceId}`.execute(evalDb(ctx));
  const r = rows[0];
  if (!r || ('deleted_at' in r && r.deleted_at)) throw notFound(`There is no ${what} ${id} in this space.`);
  return r;
}

/** An evaluator's score of a result (shared/answers.ts). */
export type Score = ResultScore;

const Scores = z.array(ResultScore);
/** A result's scores as stored. */
export const scoresOf = (text: string): Score[] => parseStoredJson(text, "a result's scores", Scores);

/** An experiment's results by position. */
export async function readResults(ctx: ServerContext<unknown>, experimentId: string) {
  return (
    await evalDb(ctx)
      .selectFrom('eval_result')
      .selectAll()
      .where('experiment_id', '=', experimentId)
      .orderBy('position')
      .execute()
  ).map((r) => ({
    item_id: r.item_id,
    position: Number(r.position),
    status: r.status,
    output: r.output,
    error: r.error,
    scores: scoresOf(r.scores),
    latency_ms: Number(r.latency_ms),
    input_tokens: Number(r.input_tokens),
    output_tokens: Number(r.output_tokens),
    trace_id: r.trace_id,
  }));
}

/** A set version's items as stored: each with its id and its data. */
export const StoredItems = z.array(z.object({ item_id: z.string(), data: z.record(z.string(), z.unknown()) }));
export const itemsOf = (v: { items: string }) => parseStoredJson(v.items, "a set version's items", StoredItems);

/** The items of a set version, by id. */
export async function versionItems(
  ctx: ServerContext<unknown>,
  setId: string,
  version: string,
): Promise<Map<string, Record<string, unknown>>> {
  const v = await evalDb(ctx)
    .selectFrom('eval_set_version')
    .select('items')
    .where('set_id', '=', setId)
    .where('version', '=', version)
    .executeTakeFirst();
  return new Map((v ? itemsOf(v) : []).map((i) => [i.item_id, i.data]));
}
