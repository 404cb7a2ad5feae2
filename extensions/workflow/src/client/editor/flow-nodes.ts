// What the editor hands the canvas library for its nodes (kept the same object while unchanged, placed
// without transforms), and the node clipboard shared between tabs.
import type { Node } from '@xyflow/react';
import type { CSSProperties } from 'react';
import type { NodeRef, NoteData } from './Cards.tsx';
import type { Clip } from './model.ts';

// Copied nodes, kept for this tab and (through localStorage) for other tabs and workflows.
const CLIP_KEY = 'tessera.workflow.clipboard';
let clipboard: Clip | undefined;
export function writeClip(clip: Clip) {
  clipboard = clip;
  try {
    localStorage.setItem(CLIP_KEY, JSON.stringify(clip));
  } catch {
    /* storage full or off: this tab still has it */
  }
}
export function readClip(): Clip | undefined {
  try {
    const stored = localStorage.getItem(CLIP_KEY);
    if (stored) return JSON.parse(stored) as Clip;
  } catch {
    /* fall back to this tab's copy */
  }
  return clipboard;
}

export const sameShallow = (a: Record<string, unknown>, b: Record<string, unknown>) => {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
};
/**
 * Where a card sits, as left/top instead of the canvas library's transform: a transform gives every card
 * a paint chunk of its own, and with hundreds on screen the browser spends most of each frame sorting
 * them into layers (docs/benchmarks.md, canvas).
 */
export function cardPlacement(at: { x: number; y: number }): CSSProperties {
  return { transform: 'none', left: at.x, top: at.y };
}

/** `next`, or the canvas node built last time for the same id when its place, state and data did not change. */
export function keepIfSame<T extends Node<NodeRef | NoteData>>(
  cache: Map<string, Node<NodeRef | NoteData>>,
  next: T,
): T {
  const prev = cache.get(next.id);
  const same =
    prev &&
    prev.position.x === next.position.x &&
    prev.position.y === next.position.y &&
    prev.selected === next.selected &&
    prev.measured === next.measured &&
    prev.width === next.width &&
    prev.height === next.height &&
    prev.parentId === next.parentId &&
    prev.style?.left === next.style?.left &&
    prev.style?.top === next.style?.top &&
    sameShallow(prev.data, next.data);
  if (same) return prev as T;
  cache.set(next.id, next);
  return next;
}
