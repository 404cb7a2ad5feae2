// References in templates are stored by node id ({{llm_2.output}}) and shown by node title
// ({{Summarise.output}}): ids stay stable when a node is renamed, people read titles.

const REF = /\{\{(\s*)([^{}\s]+?)(\s*)\}\}/g;

export interface RefNames {
  /** id -> title, for the nodes whose title can stand for them. */
  titles: ReadonlyMap<string, string>;
  /** title -> id, the same nodes. */
  ids: ReadonlyMap<string, string>;
}

/**
 * Which titles can stand for their node: a title used by one node only, not the name of one of the
 * node's own inputs (`{{name.field}}` reads that input) nor another node's id, without braces or spaces.
 */
export function refNames(
  nodes: Iterable<{ node_id: string; node_title: string }>,
  localNames: Iterable<string> = [],
): RefNames {
  const byTitle = new Map<string, string | null>();
  const ids = new Set<string>();
  for (const n of nodes) {
    ids.add(n.node_id);
    const title = n.node_title.trim();
    if (!title || /[{}\s]/.test(title)) continue;
    const seen = byTitle.get(title);
    byTitle.set(title, seen === undefined || seen === n.node_id ? n.node_id : null);
  }
  const local = new Set(localNames);
  const titles = new Map<string, string>();
  const back = new Map<string, string>();
  for (const [title, id] of byTitle) {
    if (id === null || local.has(title) || (ids.has(title) && title !== id)) continue;
    titles.set(id, title);
    back.set(title, id);
  }
  return { titles, ids: back };
}

/** `{{llm_2.output}}` as `{{Summarise.output}}`. */
export function refsToTitles(text: string, names: RefNames): string {
  if (!names.titles.size || !text.includes('{{')) return text;
  return text.replace(REF, (whole, a: string, body: string, b: string) => {
    const dot = body.indexOf('.');
    if (dot <= 0) return whole;
    const title = names.titles.get(body.slice(0, dot));
    return title === undefined ? whole : `{{${a}${title}${body.slice(dot)}${b}}}`;
  });
}

/** `{{Summarise.output}}` back to `{{llm_2.output}}` (the longest title that starts the reference wins). */
export function refsToIds(text: string, names: RefNames): string {
  if (!names.ids.size || !text.includes('{{')) return text;
  return text.replace(REF, (whole, a: string, body: string, b: string) => {
    let best: string | undefined;
    for (let i = body.indexOf('.'); i > 0; i = body.indexOf('.', i + 1))
      if (names.ids.has(body.slice(0, i))) best = body.slice(0, i);
    return best === undefined ? whole : `{{${a}${names.ids.get(best)}${body.slice(best.length)}${b}}}`;
  });
}
