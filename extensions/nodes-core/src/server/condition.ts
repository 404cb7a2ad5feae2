import { ConditionType, type NodeTypeDefinition } from '@tessera/ext-workflow/shared';
import { z } from 'zod';
import { branchPort } from '../shared/ports.ts';

const Operand = z.union([z.object({ input: z.string().min(1) }), z.object({ literal: z.unknown() })]);
const Condition = z.object({
  left: z.string().min(1),
  operator: z.number().int().min(1).max(16),
  right: Operand.optional(),
});
const Branch = z.object({
  logic: z.union([z.literal(1), z.literal(2)]).default(1),
  conditions: z.array(Condition).min(1, 'A branch needs at least one condition.'),
});
const IfSettings = z.object({ branches: z.array(Branch).min(1, 'Add at least one branch.').max(20) });

const len = (v: unknown): number =>
  typeof v === 'string' || Array.isArray(v) ? v.length : v && typeof v === 'object' ? Object.keys(v).length : NaN;
const num = (v: unknown): number =>
  typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
const isNull = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);
const eq = (a: unknown, b: unknown) => {
  if (typeof a === 'object' || typeof b === 'object') return JSON.stringify(a) === JSON.stringify(b);
  if (typeof a === 'number' || typeof b === 'number') return num(a) === num(b);
  if (typeof a === 'boolean' || typeof b === 'boolean') return String(a) === String(b);
  return String(a ?? '') === String(b ?? '');
};
const contains = (a: unknown, b: unknown) => {
  if (typeof a === 'string') return a.includes(String(b ?? ''));
  if (Array.isArray(a)) return a.some((x) => eq(x, b));
  if (a && typeof a === 'object') return String(b) in a;
  return false;
};

/** The 16 condition types of the spec. */
export function compare(operator: number, left: unknown, right: unknown): boolean {
  switch (operator) {
    case ConditionType.Equal:
      return eq(left, right);
    case ConditionType.NotEqual:
      return !eq(left, right);
    case ConditionType.LengthGt:
      return len(left) > num(right);
    case ConditionType.LengthGtEqual:
      return len(left) >= num(right);
    case ConditionType.LengthLt:
      return len(left) < num(right);
    case ConditionType.LengthLtEqual:
      return len(left) <= num(right);
    case ConditionType.Contains:
      return contains(left, right);
    case ConditionType.NotContains:
      return !contains(left, right);
    case ConditionType.Null:
      return isNull(left);
    case ConditionType.NotNull:
      return !isNull(left);
    case ConditionType.True:
      return left === true || left === 'true';
    case ConditionType.False:
      return left === false || left === 'false';
    case ConditionType.Gt:
      return num(left) > num(right);
    case ConditionType.GtEqual:
      return num(left) >= num(right);
    case ConditionType.Lt:
      return num(left) < num(right);
    case ConditionType.LtEqual:
      return num(left) <= num(right);
    default:
      throw new Error(`Unknown condition type ${operator}.`);
  }
}

export const ifNode: NodeTypeDefinition = {
  key: 'if',
  code: 8,
  category: 'logic',
  label: { 'en-US': 'Condition', 'zh-CN': '选择器' },
  description: {
    'en-US': 'Takes the first branch whose conditions hold, else the else branch.',
    'zh-CN': '走第一个条件成立的分支，否则走“否则”分支。',
  },
  settings: IfSettings,
  ports: (node) => {
    const n = ((node.node_param.settings as { branches?: unknown[] })?.branches ?? []).length;
    return [...Array.from({ length: n }, (_, i) => branchPort(i)), 'false'];
  },
  validate: (node) => {
    const names = new Set(node.node_param.inputs.map((i) => i.name));
    const parsed = IfSettings.safeParse(node.node_param.settings);
    if (!parsed.success) return [];
    const problems: { type: 1; field: string; message: string }[] = [];
    parsed.data.branches.forEach((b, bi) =>
      b.conditions.forEach((c, ci) => {
        for (const [side, name] of [
          ['left', c.left],
          ['right', c.right && 'input' in c.right ? c.right.input : undefined],
        ] as const) {
          if (name && !names.has(name))
            problems.push({
              type: 1,
              field: `settings.branches.${bi}.conditions.${ci}.${side}`,
              message: `No input named '${name}'.`,
            });
        }
      }),
    );
    return problems;
  },
  execute(ctx) {
    const branches = ctx.settings.branches as z.infer<typeof IfSettings>['branches'];
    const value = (o: z.infer<typeof Operand> | undefined) =>
      !o ? undefined : 'input' in o ? ctx.inputs[o.input] : o.literal;
    for (let i = 0; i < branches.length; i++) {
      const results = branches[i].conditions.map((c) => compare(c.operator, ctx.inputs[c.left], value(c.right)));
      const hit = branches[i].logic === 2 ? results.some(Boolean) : results.every(Boolean);
      if (hit) return { outputs: { branch: branchPort(i) }, branch: branchPort(i) };
    }
    return { outputs: { branch: 'false' }, branch: 'false' };
  },
};
