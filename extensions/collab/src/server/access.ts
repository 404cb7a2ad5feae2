// Which space a shared document belongs to: its resource's, asked of the kind that owns it (ResourceKinds' spaceOf).
// The host then checks the caller is a member and asks the change policies whether they may change it (refused: they
// open it read-only).
import { ResourceKinds, type ServerContext } from '@tessera/sdk/server';
import { texts } from './texts.ts';

/** A document's name: the resource's kind and id, `workflow:7312…`. */
export const DOC_NAME = /^([a-z][a-z0-9_-]{0,31}):([A-Za-z0-9_-]{1,64})$/;

export function partsOf(doc: string): { kind: string; id: string } {
  const [, kind, id] = DOC_NAME.exec(doc)!;
  return { kind, id };
}

export async function spaceOfDoc(ctx: ServerContext, doc: string): Promise<string> {
  const { kind, id } = partsOf(doc);
  const def = ctx
    .registry(ResourceKinds)
    .list()
    .find((k) => k.kind === kind);
  if (!def?.spaceOf) throw texts.error(404, 'unknownKind', { kind });
  const spaceId = await def.spaceOf(id);
  if (!spaceId) throw texts.error(404, 'noResource', { kind, id });
  return spaceId;
}
