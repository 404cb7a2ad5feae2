// A deprecated model's successor: a model its users can reach (the same space's, or the platform's), of the same kind,
// enabled, and not one whose own chain of successors leads back to it.
import { badRequest, conflict } from '@tessera/sdk';
import type { ModelRow as Row, ModelsKysely } from './store.ts';

const byId = (db: ModelsKysely, id: string) =>
  db.selectFrom('models_model').selectAll().where('id', '=', id).executeTakeFirst();

export async function checkSuccessor(db: ModelsKysely, m: Row, successorId: string): Promise<void> {
  if (successorId === m.id)
    throw badRequest('A model cannot answer in its own place: choose another.', { field: 'successor_id' });
  const next = await byId(db, successorId);
  const reachable =
    next &&
    (next.scope === 'platform' || (m.scope === 'space' && next.scope === 'space' && next.space_id === m.space_id));
  if (!next || !reachable)
    throw badRequest(
      m.scope === 'platform'
        ? 'A platform model is succeeded by a platform model: every space must reach it.'
        : "Choose a successor among this space's models or the platform's.",
      { field: 'successor_id' },
    );
  if (next.kind !== m.kind)
    throw badRequest(
      `${m.display_name} is of kind ${m.kind}: choose a successor of that kind (${next.display_name} is ${next.kind}).`,
      {
        field: 'successor_id',
      },
    );
  if (!Number(next.enabled))
    throw badRequest(`${next.display_name} is disabled: enable it before it answers for another.`, {
      field: 'successor_id',
    });
  let cur: Row | undefined = next;
  for (let i = 0; cur && Number(cur.deprecated) && cur.successor_id && i < 10; i++) {
    if (cur.successor_id === m.id)
      throw badRequest(`${next.display_name} is itself succeeded by ${m.display_name}: that would go round.`, {
        field: 'successor_id',
      });
    cur = await byId(db, cur.successor_id);
  }
}

/** A model that answers for a deprecated one is not removed while it does. */
export async function checkNotSuccessor(db: ModelsKysely, id: string): Promise<void> {
  const pred: { display_name: string } | undefined = await db
    .selectFrom('models_model')
    .select(['display_name'])
    .where('successor_id', '=', id)
    .where('deprecated', '=', 1)
    .executeTakeFirst();
  if (pred)
    throw conflict(
      `This model answers in place of ${pred.display_name} (deprecated): choose another successor for it first.`,
    );
}
