// Edits of an app's DSL as the builder makes them: find, change or remove a component; a new id; add and remove pages.
import type { Dsl, UiNode } from '../shared/dsl.ts';

export const find = (n: UiNode, id: string): UiNode | undefined =>
  n.id === id ? n : n.children?.reduce<UiNode | undefined>((f, c) => f ?? find(c, id), undefined);
export const mapNode = (n: UiNode, id: string, fn: (n: UiNode) => UiNode | null): UiNode | null =>
  n.id === id ? fn(n) : { ...n, children: n.children?.map((c) => mapNode(c, id, fn)).filter((c): c is UiNode => !!c) };
export const allIds = (n: UiNode): string[] => [n.id, ...(n.children ?? []).flatMap(allIds)];

/** Every id the app uses (components and pages). */
export const idsOf = (dsl: Dsl) => new Set(dsl.pages.flatMap((p) => [p.page_id, ...allIds(p.root)]));

/** A new id from a stem ("input" -> "input1", "input2", ...), never one the app uses. */
export function newId(dsl: Dsl, stem: string): string {
  const ids = idsOf(dsl);
  const base = stem.replace(/[^A-Za-z0-9_-]/g, '').replace(/^[^A-Za-z]+/, '') || 'c';
  let n = 1;
  while (ids.has(`${base}${n}`)) n++;
  return `${base}${n}`.slice(0, 40);
}

/** The app with a new page (an empty column), its path free. */
export function addPage(dsl: Dsl, name: string): { dsl: Dsl; pageId: string } {
  const pageId = newId(dsl, 'page');
  const paths = new Set(dsl.pages.map((p) => p.path));
  let path = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 30);
  if (!path || paths.has(path)) path = pageId.toLowerCase();
  const root = { id: newId(dsl, 'root'), type: 'column', props: {}, children: [] };
  return { dsl: { ...dsl, pages: [...dsl.pages, { page_id: pageId, name, path, root }] }, pageId };
}

/** The app without a page (and the events on its components). */
export function removePage(dsl: Dsl, pageId: string): Dsl {
  const page = dsl.pages.find((p) => p.page_id === pageId);
  if (!page || dsl.pages.length === 1) return dsl;
  const gone = new Set([page.page_id, ...allIds(page.root)]);
  return {
    ...dsl,
    pages: dsl.pages.filter((p) => p.page_id !== pageId),
    events: dsl.events.filter((e) => !gone.has(e.component_id)),
  };
}

/** The tree without a component, and the component (undefined when it is not there). */
export function takeOut(root: UiNode, id: string): { root: UiNode; taken?: UiNode } {
  let taken: UiNode | undefined;
  const walk = (n: UiNode): UiNode => ({
    ...n,
    children: n.children?.filter((c) => (c.id === id ? ((taken = c), false) : true)).map(walk),
  });
  return { root: walk(root), taken };
}

/**
 * The tree with a component put where it was dropped: into a container (at its end), or before another component
 * in that one's container.
 */
export function putAt(root: UiNode, targetId: string, node: UiNode, isContainer: (type: string) => boolean): UiNode {
  const target = find(root, targetId);
  if (!target) return root;
  if (isContainer(target.type))
    return mapNode(root, targetId, (x) => ({ ...x, children: [...(x.children ?? []), node] }))!;
  const walk = (n: UiNode): UiNode => {
    const i = n.children?.findIndex((c) => c.id === targetId) ?? -1;
    if (i >= 0) return { ...n, children: [...n.children!.slice(0, i), node, ...n.children!.slice(i)] };
    return { ...n, children: n.children?.map(walk) };
  };
  return walk(root);
}
