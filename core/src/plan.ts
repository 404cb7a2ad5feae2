/** The data manifest of an extension: what the host reads before importing any of its code. */
export interface ExtensionManifest {
  id: string;
  version: string;
  requires: string[];
  optional: string[];
  description?: string;
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
  const deps = new Map(active.map((m) => [m.id, [...new Set([...m.requires, ...m.optional])].filter((d) => activeIds.has(d))]));
  const indegree = new Map(active.map((m) => [m.id, deps.get(m.id)!.length]));
  const dependents = new Map<string, string[]>(active.map((m) => [m.id, []]));
  for (const [id, ds] of deps) for (const d of ds) dependents.get(d)!.push(id);

  // Stable: among ready extensions, keep the input order.
  const order: string[] = [];
  const ready = active.filter((m) => indegree.get(m.id) === 0).map((m) => m.id);
  while (ready.length) {
    const id = ready.shift()!;
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
