// How a canvas is kept in a live document (editing together): nodes, links and notes apart by key; a node's fields,
// its node_param and its settings merge one by one; texts (a title, a prompt, code, a note) character by character.
import type { LiveShape } from '@tessera/sdk/client';
import type { Canvas } from '@tessera/workflow-sdk';
import { linkId } from './model.ts';

export const CANVAS_SHAPE: LiveShape = {
  collections: {
    nodes: (n: Canvas['nodes'][number]) => n.node_id,
    links: (l: Canvas['links'][number]) => linkId(l),
    notes: (n: { id: string }) => n.id,
  },
  depth: 3,
  // What people type at length: merged character by character when two type in one at once.
  texts: ['title', 'text', 'description', 'system_prompt', 'user_prompt', 'prompt', 'code', 'template', 'question'],
};
