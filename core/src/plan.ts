/** The data manifest of an extension: what the host reads before importing any of its code. */
export interface ExtensionManifest {
  id: string;
  version: string;
  /** Ids of the extensions this one needs. */
  requires: string[];
  optional: string[];
  description?: string;
  /** Version ranges (semver) a requirement must satisfy, by id: `"requires": ["workflow@^0.1.0"]`. */
  ranges?: Record<string, string>;
  /** Among extensions ready to start, lower ranks start first (built-ins 0 before drop-ins 1). */
  rank?: number;
}

/** `"workflow"` or `"workflow@^0.1.0"` as the id and the range. */
export function parseRequirement(text: string): { id: string; range?: string } {
  const at = text.indexOf('@', 1);
  return at < 0 ? { id: text } : { id: text.slice(0, at), range: text.slice(at + 1) };
}

export interface ExtensionPlan {
  /** Enabled extensions in dependency order (requirements and present optional ones first). */
  order: string[];
  /** Extensions that will not run, with the reason (also logged by the host). */
  disabled: Map<string, string>;
}

const ID = /^[a-z][a-z0-9-]*(\.[a-z0-9-]+)*$/;

/**
 * Decides what runs and in which order (Kahn's sort). A disabled or missing requirement disables its
 * dependents with a reason; extensions in a dependency cycle are disabled with a message naming it.
 */
export function planExtensions(manifests: ExtensionManifest[], isEnabled: (id: string) => boolean): ExtensionPlan {
  const byId = new Map<string, ExtensionManifest>();
  const disabled = new Map<string, string>();
  for (const m of manifests) {
    if (!ID.test(m.id)) {
      disabled.set(m.id, `invalid extension id '${m.id}': use lower-case letters, digits, '-' and '.'`);
      continue;
    }
    if (byId.has(m.id)) {
      disabled.set(m.id, `extension id '${m.id}' is installed twice`);
      continue;
    }
    byId.set(m.id, m);
  }
  for (const m of byId.values()) if (!isEnabled(m.id)) disabled.set(m.id, 'disabled by configuration');

  // Cascade: a requirement that is missing or disabled disables the dependent, until nothing changes.
  let changed = true;
  while (changed) {
    changed = false;
    for (const m of byId.values()) {
      if (disabled.has(m.id)) continue;
      for (const r of m.requires) {
        if (!byId.has(r)) {
          disabled.set(m.id, `requires '${r}', which is not installed`);
          changed = true;
          break;
        }
        const range = m.ranges?.[r];
        if (range && !satisfies(byId.get(r)!.version, range)) {
          disabled.set(m.id, `requires '${r}' ${range}, but ${byId.get(r)!.version} is installed`);
          changed = true;
          break;
        }
        if (disabled.has(r)) {
          disabled.set(m.id, `requires '${r}', which is disabled (${disabled.get(r)})`);
          changed = true;
          break;
        }
      }
    }
  }

  const active = [...byId.values()].filter((m) => !disabled.has(m.id));
  const activeIds = new Set(active.map((m) => m.id));
  const deps = new Map(
    active.map((m) => [m.id, [...new Set([...m.requires, ...m.optional])].filter((d) => activeIds.has(d))]),
  );
  const indegree = new Map(active.map((m) => [m.id, deps.get(m.id)!.length]));
  const dependents = new Map<string, string[]>(active.map((m) => [m.id, []]));
  for (const [id, ds] of deps) for (const d of ds) dependents.get(d)!.push(id);

  // Among ready extensions the lowest rank goes first (built-ins before drop-ins, so a drop-in can
  // never take a key before the built-in that owns it), then the input order.
  const order: string[] = [];
  const rankOf = (id: string) => byId.get(id)!.rank ?? 0;
  const ready = active.filter((m) => indegree.get(m.id) === 0).map((m) => m.id);
  while (ready.length) {
    let pick = 0;
    for (let i = 1; i < ready.length; i++) if (rankOf(ready[i]) < rankOf(ready[pick])) pick = i;
    const id = ready.splice(pick, 1)[0];
    order.push(id);
    for (const dep of dependents.get(id)!) {
      const n = indegree.get(dep)! - 1;
      indegree.set(dep, n);
      if (n === 0) ready.push(dep);
    }
  }

  if (order.length < active.length) {
    const left = new Set(active.map((m) => m.id).filter((id) => !order.includes(id)));
    const cycle = findCycle(left, deps);
    const inCycle = new Set(cycle);
    const text = `dependency cycle: ${[...cycle, cycle[0]].join(' -> ')}`;
    for (const id of left) {
      disabled.set(id, inCycle.has(id) ? text : `depends on extensions in a ${text}`);
    }
  }
  return { order, disabled };
}

function findCycle(nodes: Set<string>, deps: Map<string, string[]>): string[] {
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  let found: string[] = [];
  const visit = (id: string): boolean => {
    state.set(id, 'visiting');
    stack.push(id);
    for (const d of deps.get(id) ?? []) {
      if (!nodes.has(d)) continue;
      if (state.get(d) === 'visiting') {
        found = stack.slice(stack.indexOf(d));
        return true;
      }
      if (!state.has(d) && visit(d)) return true;
    }
    stack.pop();
    state.set(id, 'done');
    return false;
  };
  for (const id of nodes) if (!state.has(id) && visit(id)) break;
  return found.length ? found : [...nodes];
}

/** Whether `version` satisfies a semver range (^, ~, >=, <, =, x, ||, spaces as "and"). */
export function satisfies(version: string, range: string): boolean {
  const v = parseVersion(version);
  if (!v) return false;
  return range.split('||').some((alt) => {
    const parts = alt.trim().split(/\s+/).filter(Boolean);
    return parts.every((c) => matches(v, c));
  });
}

type V = [number, number, number];
function parseVersion(s: string): V | undefined {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(s.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}
function cmp(a: V, b: V): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}
function matches(v: V, comparator: string): boolean {
  const m = /^(\^|~|>=|<=|>|<|=)?v?(\d+|x|\*)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?/.exec(comparator);
  if (!m) return false;
  const op = m[1] ?? '';
  const nums = [m[2], m[3], m[4]].map((x) => (x === undefined || x === 'x' || x === '*' ? undefined : Number(x)));
  const base: V = [nums[0] ?? 0, nums[1] ?? 0, nums[2] ?? 0];
  if (nums[0] === undefined) return true;
  // A partial version (1, 1.2) is a range over what it leaves open.
  const upperOfPartial = (): V | undefined =>
    nums[1] === undefined ? [base[0] + 1, 0, 0] : nums[2] === undefined ? [base[0], base[1] + 1, 0] : undefined;
  switch (op) {
    case '^': {
      const upper: V =
        base[0] > 0 || nums[1] === undefined
          ? [base[0] + 1, 0, 0]
          : base[1] > 0 || nums[2] === undefined
            ? [0, base[1] + 1, 0]
            : [0, 0, base[2] + 1];
      return cmp(v, base) >= 0 && cmp(v, upper) < 0;
    }
    case '~': {
      const upper: V = nums[1] === undefined ? [base[0] + 1, 0, 0] : [base[0], base[1] + 1, 0];
      return cmp(v, base) >= 0 && cmp(v, upper) < 0;
    }
    case '>=':
      return cmp(v, base) >= 0;
    case '>':
      return upperOfPartial() ? cmp(v, upperOfPartial()!) >= 0 : cmp(v, base) > 0;
    case '<=':
      return upperOfPartial() ? cmp(v, upperOfPartial()!) < 0 : cmp(v, base) <= 0;
    case '<':
      return cmp(v, base) < 0;
    default: {
      const upper = upperOfPartial();
      return upper ? cmp(v, base) >= 0 && cmp(v, upper) < 0 : cmp(v, base) === 0;
    }
  }
}
