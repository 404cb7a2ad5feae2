import { describeError } from '@tessera/sdk';
import type { Canvas } from '../../shared/index.ts';
import type { NodeTypeLookup } from './validate.ts';

/** What failed while a node was migrated to its type's current version. */
export class MigrationError extends Error {
  readonly nodeId: string;
  constructor(message: string, nodeId: string) {
    super(message);
    this.nodeId = nodeId;
  }
}

const upgraded = new WeakMap<Canvas, Canvas>();

/**
 * The canvas with every node at its type's current version: nodes saved with an older one (absent
 * means 1) go through the type's `migrate`, and every node is stamped with the version it now follows.
 * The same canvas object gives the same result (kept per object: runs of a version do not migrate again).
 */
export function upgradeCanvas(canvas: Canvas, typeOf: NodeTypeLookup): Canvas {
  const hit = upgraded.get(canvas);
  if (hit) return hit;
  let changed = false;
  const nodes = canvas.nodes.map((n) => {
    const t = typeOf(n.type);
    const current = t?.version ?? 1;
    const from = n.version ?? 1;
    if (!t || from === current) return n;
    if (from > current)
      throw new MigrationError(
        `Node ${n.node_param.title ?? n.node_id} was saved with version ${from} of '${t.key}', newer than the ${current} installed. Upgrade the extension that provides it.`,
        n.node_id,
      );
    changed = true;
    try {
      return { ...n, node_param: t.migrate!(structuredClone(n.node_param), from), version: current };
    } catch (e) {
      throw new MigrationError(
        `Node ${n.node_param.title ?? n.node_id} could not be brought from version ${from} to ${current} of '${t.key}': ${describeError(e)}`,
        n.node_id,
      );
    }
  });
  const out = changed ? { ...canvas, nodes } : canvas;
  upgraded.set(canvas, out);
  return out;
}

/**
 * A canvas about to be saved: nodes without a version follow their type's current one, and each node
 * records the extension that provides its type (so that a run can name it if it is ever missing).
 */
export function stampVersions(
  canvas: Canvas,
  typeOf: NodeTypeLookup,
  providerOf: (key: string) => string | undefined = () => undefined,
): Canvas {
  return {
    ...canvas,
    nodes: canvas.nodes.map((n) => {
      const t = typeOf(n.type);
      const provider = t ? providerOf(t.key) : undefined;
      return { ...n, version: n.version ?? t?.version ?? 1, ...(provider ? { provider } : {}) };
    }),
  };
}
