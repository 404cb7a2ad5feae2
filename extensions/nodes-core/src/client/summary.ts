// What the canvas shows of the core node types without opening their forms (loaded at start; the forms
// load when a node is opened): an If branch's condition on its port, the hint of input-only node types.
import { ConditionType } from '@tessera/ext-workflow/shared';
import { hintForm as sharedHintForm, type PortDetail } from '@tessera/ext-workflow/client';

export interface Condition {
  left: string;
  operator: number;
  right?: { input: string } | { literal: unknown };
}
export interface Branch {
  logic: 1 | 2;
  conditions: Condition[];
}

/** Operators without a right-hand side. */
export const UNARY = new Set<number>([
  ConditionType.Null,
  ConditionType.NotNull,
  ConditionType.True,
  ConditionType.False,
]);

/** What an If branch tests, for its port on the card: `score > 3 and name contains "a"`. */
export function conditionText(branch: Branch | undefined): PortDetail {
  const out: PortDetail = [];
  for (const [i, c] of (branch?.conditions ?? []).entries()) {
    if (i > 0) out.push({ key: branch!.logic === 2 ? 'nodes-core:if.orWord' : 'nodes-core:if.andWord' });
    out.push(c.left || '?', { key: `nodes-core:if.op.${c.operator}` });
    if (UNARY.has(c.operator)) continue;
    const r = c.right as { input?: string; literal?: unknown } | undefined;
    out.push(r && 'input' in r ? String(r.input || '?') : literalText(r?.literal));
  }
  return out;
}

function literalText(v: unknown): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v ?? '');
  return /^(-?\d+(\.\d+)?|true|false)$/.test(s) ? s : JSON.stringify(s);
}

/** A short explanation for node types whose behaviour is set by their inputs alone. */
export const hintForm = (key: string) => sharedHintForm(`nodes-core:${key}.hint`, `${key}-form`);
