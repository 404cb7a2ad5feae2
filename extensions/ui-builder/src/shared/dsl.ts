// The UI builder's DSL (version 1): an app's pages as trees of components, its theme and variables, and the events
// that run a workflow. JSON, checked on every save and publish: known component types only, bounded in size and
// depth, links and images http(s) only, every event's workflow and its mappings named. The published app renders it;
// nothing in it runs as script.
import { defineRegistryPoint } from '@tessera/sdk';
import { z } from 'zod';

export const DSL_VERSION = 1;
/** Bounds a DSL keeps (a hostile or runaway one is refused with what it exceeds). */
export const DSL_LIMITS = { bytes: 512 * 1024, nodes: 800, depth: 16, pages: 30, variables: 100, events: 100 };

/** The built-in components (extensions add their own through `UiComponents`). */
export const BUILTIN_COMPONENTS = [
  'row',
  'column',
  'text',
  'markdown',
  'image',
  'button',
  'input',
  'form',
  'list',
  'table',
  'chart',
  'file',
  'chat',
] as const;

/** The publishing channel of apps (and of the bots their chats talk to): the studio serves them at /apps/<id>. */
export const WEB_APP_CONNECTOR = 'web-app';
/** Components that hold others. */
export const CONTAINERS: readonly string[] = ['row', 'column', 'form'];

const Id = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_-]{0,39}$/, 'An id is a letter, then letters, digits, _ or - (40 at most).');

export interface UiNode {
  id: string;
  type: string;
  props: Record<string, unknown>;
  children?: UiNode[];
}
export const UiNode: z.ZodType<UiNode> = z.lazy(() =>
  z.object({
    id: Id,
    type: z.string().min(1).max(64),
    props: z.record(z.string().max(64), z.unknown()).default({}),
    children: z.array(UiNode).max(200).optional(),
  }),
) as z.ZodType<UiNode>;

/** Where an input of the workflow comes from: a form field or input's value, a variable, or a fixed value. */
export const InputSource = z.union([
  z.object({ from: z.literal('component'), component_id: Id }),
  z.object({ from: z.literal('variable'), name: z.string().min(1).max(64) }),
  z.object({ from: z.literal('value'), value: z.union([z.string().max(10_000), z.number(), z.boolean()]) }),
]);
export type InputSource = z.infer<typeof InputSource>;

/** An event of a component (a button's click, a form's submit, a page's load) that runs a workflow. */
export const UiEvent = z.object({
  event_id: Id,
  /** The component (or page) and what happens to it. */
  component_id: Id,
  on: z.enum(['click', 'submit', 'load']),
  action: z.object({
    type: z.literal('workflow'),
    workflow_id: z.string().min(1).max(32),
    /** The workflow's inputs by name. */
    inputs: z.record(z.string().max(64), InputSource).default({}),
    /** Variables set from the run's output: variable name -> a path in the output ("answer", "items.0.name"). */
    outputs: z.record(z.string().max(64), z.string().max(200)).default({}),
  }),
});
export type UiEvent = z.infer<typeof UiEvent>;

export const Theme = z.object({
  primary: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'A colour is #rrggbb.')
    .default('#165dff'),
  radius: z.number().int().min(0).max(24).default(6),
  /** compact, comfortable */
  density: z.enum(['compact', 'comfortable']).default('comfortable'),
});

export const Page = z.object({
  page_id: Id,
  name: z.string().trim().min(1).max(60),
  /** The page's path in the app ("" for the first page). */
  path: z
    .string()
    .regex(/^[a-z0-9-]{0,40}$/, 'A page path is lower-case letters, digits and -.')
    .default(''),
  root: UiNode,
});

export const Dsl = z.object({
  dsl_version: z.literal(DSL_VERSION).default(DSL_VERSION),
  theme: Theme.prefault({}),
  variables: z
    .array(z.object({ name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/), default: z.unknown().optional() }))
    .max(DSL_LIMITS.variables)
    .default([]),
  pages: z.array(Page).min(1, 'An app has one page at least.').max(DSL_LIMITS.pages),
  events: z.array(UiEvent).max(DSL_LIMITS.events).default([]),
});
export type Dsl = z.infer<typeof Dsl>;

/** An app with one empty page. */
export const emptyDsl = (): Dsl =>
  Dsl.parse({
    pages: [{ page_id: 'home', name: 'Home', root: { id: 'root', type: 'column', props: {}, children: [] } }],
  });

const URL_PROPS = ['src', 'href', 'link'];
const safeUrl = (v: string) => /^https?:\/\//i.test(v.trim()) || v.trim() === '';

/**
 * What keeps a DSL from being saved: its size, depth and node count, unknown component types, links and images that
 * are not http(s), ids used twice, events naming components that are not there. Empty: it is fine.
 */
export function dslProblems(dsl: Dsl, known: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  const names = new Set(dsl.variables.map((v) => v.name));
  let nodes = 0;
  const walk = (n: UiNode, depth: number, where: string) => {
    nodes++;
    if (depth > DSL_LIMITS.depth) return void problems.push(`${where}: nested more than ${DSL_LIMITS.depth} deep.`);
    if (nodes > DSL_LIMITS.nodes) return;
    if (ids.has(n.id)) problems.push(`The id ${n.id} is used twice.`);
    ids.add(n.id);
    if (!known.has(n.type)) problems.push(`${n.id}: there is no component "${n.type}" in this studio.`);
    for (const k of URL_PROPS) {
      const v = n.props[k];
      if (typeof v === 'string' && !safeUrl(v)) problems.push(`${n.id}: ${k} must be an http(s) address.`);
    }
    if (n.children?.length && !CONTAINERS.includes(n.type)) problems.push(`${n.id}: a ${n.type} holds no components.`);
    const bind = n.props.bind;
    if (bind !== undefined && bind !== '' && !names.has(String(bind)))
      problems.push(`${n.id} is bound to the variable ${String(bind)}, which is not declared.`);
    for (const c of n.children ?? []) walk(c, depth + 1, `${where} > ${c.id}`);
  };
  for (const p of dsl.pages) {
    if (ids.has(p.page_id)) problems.push(`The id ${p.page_id} is used twice.`);
    ids.add(p.page_id);
    walk(p.root, 1, p.name);
  }
  if (nodes > DSL_LIMITS.nodes) problems.push(`The app has ${nodes} components; at most ${DSL_LIMITS.nodes}.`);
  const paths = dsl.pages.map((p) => p.path);
  if (new Set(paths).size !== paths.length) problems.push('Two pages have the same path.');
  for (const e of dsl.events) {
    if (!ids.has(e.component_id)) problems.push(`The event ${e.event_id} is on ${e.component_id}, which is not there.`);
    for (const [input, src] of Object.entries(e.action.inputs)) {
      if (src.from === 'component' && !ids.has(src.component_id))
        problems.push(`The event ${e.event_id}: ${input} comes from ${src.component_id}, which is not there.`);
      if (src.from === 'variable' && !names.has(src.name))
        problems.push(`The event ${e.event_id}: ${input} comes from the variable ${src.name}, which is not declared.`);
    }
    for (const name of Object.keys(e.action.outputs))
      if (!names.has(name)) problems.push(`The event ${e.event_id} sets the variable ${name}, which is not declared.`);
  }
  const eventIds = dsl.events.map((e) => e.event_id);
  if (new Set(eventIds).size !== eventIds.length) problems.push('Two events have the same id.');
  return problems;
}

/** The app's chat components (each talks to a bot: `bot_id`). */
export function chatsOf(dsl: Dsl): UiNode[] {
  const out: UiNode[] = [];
  const walk = (n: UiNode) => {
    if (n.type === 'chat') out.push(n);
    n.children?.forEach(walk);
  };
  dsl.pages.forEach((p) => walk(p.root));
  return out;
}

/** How the builder's panel edits a prop. */
export type PropKind = 'text' | 'longtext' | 'number' | 'boolean' | 'url' | 'variable' | 'choice' | 'bot';

/** Custom component types: an imported one is `x-<name>`; an extension's has a name of its own. */
export const IMPORTED_PREFIX = 'x-';

/**
 * A component an extension adds (built code it ships): its type, its name in the palette, the props the builder
 * edits, and its page: an HTML document (its script inline) drawn in a sandboxed frame, in the builder and in the
 * published app alike. The frame has no access to the studio (another origin, no network); it talks to the app
 * through `window.tessera` (see docs/ui-builder.md): the props and variables in, a value and events out.
 */
export interface UiComponent {
  type: string;
  label: { 'en-US': string; 'zh-CN': string };
  props: Record<string, PropKind>;
  html: string;
  /** The frame's height at first (it may ask for another). */
  height?: number;
}
/** Components extensions add to the UI builder (server side: the DSL checks and the frames come from here). */
export const UiComponents = defineRegistryPoint<UiComponent>({
  id: 'ui-builder.components',
  owner: 'ui-builder',
  description: "Components extensions add to the UI builder's apps (drawn in a sandboxed frame).",
  key: (c) => c.type,
});
