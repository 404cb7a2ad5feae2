import { notFound } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { z } from 'zod';

export const Id = z.string().min(1).max(32);
export const Name = z.string().trim().min(1, 'Give it a name.').max(100);
export const now = () => new Date().toISOString();
export const secs = (iso: string | null | undefined) => (iso ? Math.floor(Date.parse(iso) / 1000) : 0);
export const inSpace = { space: { from: 'body' as const, field: 'space_id' } };
export const nextVersion = (v: string) => (v ? v.replace(/(\d+)$/, (d) => String(Number(d) + 1)) : '1.0.0');

export const Column = z.object({
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'A column name has letters, digits and _ (not first).'),
  type: z.enum(['string', 'number', 'boolean', 'json', 'messages']).default('string'),
  description: z.string().max(500).default(''),
});
export type Column = z.infer<typeof Column>;

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
