import { defineHookPoint, defineRegistryPoint, type RegistryEntry } from '@tessera/core';
import type { ComponentType, CSSProperties, ReactNode } from 'react';
import { z } from 'zod';
import { SIDEBAR_GROUPS, TOP_LEVEL_AREAS, type Language, type SidebarGroup, type TopLevelArea } from '../areas.ts';

const component = z.custom<ComponentType<any>>(
  (v) => typeof v === 'function' || (typeof v === 'object' && v !== null),
  'must be a React component',
);

export interface ClientRoute {
  /** react-router path, e.g. '/space/:space_id/settings'. */
  path: string;
  component: ComponentType<any>;
  /** Translation key (in the owner's namespace) of the page title; the platform name is the fallback. */
  title?: string;
  /** 'app' renders inside the studio shell; 'bare' alone (sign-in pages, full-screen editors). */
  layout?: 'app' | 'bare';
  /** Open to signed-out visitors (sign-in, an invite link); other pages send them to sign in first. */
  public?: boolean;
}

/** Pages. Every page is wrapped in an error boundary that reports render errors to the error sinks. */
export const Routes = defineRegistryPoint<ClientRoute>({
  id: 'client.routes',
  owner: 'host',
  description: 'Pages of the studio, by path.',
  schema: z.object({
    path: z.string().startsWith('/'),
    component,
    title: z.string().optional(),
    layout: z.enum(['app', 'bare']).optional(),
    public: z.boolean().optional(),
  }),
  key: (r) => r.path,
});

export interface SidebarEntry {
  key: string;
  /** The top-level area the entry belongs to (spec 000 section 2). */
  area: TopLevelArea;
  /**
   * The sidebar group it shows in, by the work it serves (docs/conventions.md, "Information architecture"):
   * start, build, data, operate, space, settings. Default: from the area (`groupOfArea`).
   */
  group?: SidebarGroup;
  /** Translation key in the owner's namespace. */
  label: string;
  path: string;
  icon?: ReactNode;
  order?: number;
  /** Whether the entry shows for the person signed in (asked each time the sidebar draws; default shown). */
  visible?(): boolean;
  /**
   * Tells when what `visible` reads has changed (the signed-in user, once known): the sidebar and the command palette
   * ask `visible` again. Returns the way to stop telling.
   */
  changes?(onChange: () => void): () => void;
}

/** Registry entries in their `order` (100 when none): sidebar entries, header items, kinds, steps, sections ... */
export function byOrder<T extends { order?: number }>(a: RegistryEntry<T>, b: RegistryEntry<T>): number {
  return (a.value.order ?? 100) - (b.value.order ?? 100);
}

/** Whether an entry shows for the person signed in now (its `visible()`; one that throws is hidden). */
export function isShown(entry: { visible?(): boolean }): boolean {
  try {
    return entry.visible?.() !== false;
  } catch {
    return false;
  }
}

export const SidebarEntries = defineRegistryPoint<SidebarEntry>({
  id: 'client.sidebarEntries',
  owner: 'host',
  description:
    'Entries of the studio sidebar, in groups by the work they serve (start, build, data, operate, space, settings).',
  schema: z.object({
    key: z.string().min(1),
    area: z.enum(TOP_LEVEL_AREAS),
    group: z.enum(SIDEBAR_GROUPS).optional(),
    label: z.string().min(1),
    path: z.string().startsWith('/'),
    order: z.number().optional(),
  }),
  key: (e) => e.key,
});

export interface SettingsPage {
  key: string;
  label: string;
  component: ComponentType<any>;
  order?: number;
}

/** Tabs of the settings page (/settings/<key>). */
export const SettingsPages = defineRegistryPoint<SettingsPage>({
  id: 'client.settingsPages',
  owner: 'host',
  description: 'Tabs of the studio settings page.',
  schema: z.object({
    key: z.string().regex(/^[a-z0-9-]+$/),
    label: z.string(),
    component,
    order: z.number().optional(),
  }),
  key: (p) => p.key,
});

export interface Panel {
  key: string;
  /** Rendered once at the root of the shell, above the pages (floating panels, global dialogs). */
  component: ComponentType<any>;
  order?: number;
}

export const Panels = defineRegistryPoint<Panel>({
  id: 'client.panels',
  owner: 'host',
  description: 'Components rendered at the root of the shell (floating panels).',
  schema: z.object({ key: z.string().min(1), component, order: z.number().optional() }),
  key: (p) => p.key,
});

export interface HeaderItem {
  key: string;
  component: ComponentType<any>;
  order?: number;
}

/** Items of the header bar (space switcher, user menu ...). */
export const HeaderItems = defineRegistryPoint<HeaderItem>({
  id: 'client.headerItems',
  owner: 'host',
  description: 'Components in the header bar, by order.',
  schema: z.object({ key: z.string().min(1), component, order: z.number().optional() }),
  key: (p) => p.key,
});

/** Translations given as they are, or as a loader (`() => import('../locales/en-US.json')`) called when needed. */
export type I18nTexts = Record<string, unknown> | (() => Promise<unknown>);

export interface I18nResource {
  namespace: string;
  language: Language;
  /** The texts, or a loader of a module whose default export (or itself) is the texts. */
  resources: I18nTexts;
}

/**
 * Translations: one registration per namespace and language; an extension's namespace is its id. A loader is
 * called only for the language the page shows (and the fallback language), before the page draws, and for
 * another language when the user switches to it.
 */
export const I18nResources = defineRegistryPoint<I18nResource>({
  id: 'client.i18nResources',
  owner: 'host',
  description: 'Translation resources by namespace and language.',
  schema: z.object({
    namespace: z.string(),
    language: z.enum(['zh-CN', 'en-US']),
    resources: z.union([
      z.record(z.string(), z.unknown()),
      z.custom<() => Promise<unknown>>((v) => typeof v === 'function', 'a loader function'),
    ]),
  }),
  key: (r) => `${r.namespace}:${r.language}`,
});

export interface OutgoingRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

/** Rewrites every outgoing API request, in tap order (add headers, a base field ...). */
export const RequestInterceptors = defineHookPoint<[OutgoingRequest], OutgoingRequest>({
  id: 'client.requestInterceptors',
  owner: 'host',
  kind: 'waterfall',
  args: ['request'],
  description: 'Called before every API request; each tap returns the (changed) request.',
});

/** One item of a resource kind as the home page lists it among recent work. */
export interface RecentResource {
  id: string;
  name: string;
  description?: string;
  /** Last change, in milliseconds since the epoch. */
  updatedAt: number;
  /** Where opening it leads. */
  path: string;
  icon?: ReactNode;
}

/**
 * A kind of resource a space holds (workflow, bot, plugin, knowledge, table, prompt ...), as the
 * studio's shared pages see it: the home page's create buttons and recent items, later the library
 * and the marketplace. Contributed by the extension that owns the kind; nothing names a kind.
 */
export interface ResourceKind {
  kind: string;
  /** Translation key in the owner's namespace: the kind's name ("Workflow"). */
  label: string;
  /** Translation key of the create action ("Create workflow"); defaults to the label. */
  createLabel?: string;
  icon?: ComponentType<{ style?: CSSProperties }>;
  order?: number;
  /** The kind's list page. */
  path: string;
  /** Where creating one starts (a page that opens its create dialog); none: the kind is not created from home. */
  createPath?: string;
  /** A React hook: the current space's most recently changed items of this kind, newest first. */
  useRecent?(limit: number): { items: RecentResource[]; loading: boolean };
  /** Where one resource of the kind opens (default `${path}/${id}?space_id=${spaceId}`). */
  itemPath?(id: string, spaceId: string): string;
  /**
   * The kind's editor as a component another page holds (a project's IDE-like page opens resources in tabs
   * with it); best a `lazy()` one, so its code loads when first opened. Without it, such pages link to
   * `itemPath` instead.
   */
  editor?: ComponentType<ResourceEditorProps>;
}

/** What a page that holds a kind's editor gives it. */
export interface ResourceEditorProps {
  id: string;
  spaceId: string;
  /** Held inside another page: fill the height it gives (not the window's); its back arrow goes to `backTo`. */
  embedded?: { backTo: string };
}

export const ResourceKinds = defineRegistryPoint<ResourceKind>({
  id: 'client.resourceKinds',
  owner: 'host',
  description: 'Kinds of resources a space holds: create actions, recent items (home, library, marketplace).',
  schema: z.object({
    kind: z.string().regex(/^[a-z][a-z0-9_-]*$/),
    label: z.string().min(1),
    createLabel: z.string().optional(),
    order: z.number().optional(),
    path: z.string().startsWith('/'),
    createPath: z.string().startsWith('/').optional(),
    useRecent: z.custom<ResourceKind['useRecent']>((v) => typeof v === 'function', 'must be a function').optional(),
    itemPath: z.custom<ResourceKind['itemPath']>((v) => typeof v === 'function', 'must be a function').optional(),
    editor: z
      .custom<ResourceKind['editor']>(
        (v) => typeof v === 'function' || (typeof v === 'object' && v !== null),
        'must be a React component',
      )
      .optional(),
  }),
  key: (k) => k.kind,
});

export interface HomeSection {
  key: string;
  /** Rendered on the home page below recent work (templates, featured products ...). */
  component: ComponentType<any>;
  order?: number;
}

export const HomeSections = defineRegistryPoint<HomeSection>({
  id: 'client.homeSections',
  owner: 'host',
  description: 'Sections of the home page below the create buttons and recent work.',
  schema: z.object({ key: z.string().min(1), component, order: z.number().optional() }),
  key: (s) => s.key,
});

/** Where one resource of a kind opens: the kind's own `itemPath`, else `${path}/${id}?space_id=${spaceId}`. */
export function itemPathOf(kind: Pick<ResourceKind, 'path' | 'itemPath'>, id: string, spaceId: string): string {
  return kind.itemPath?.(id, spaceId) ?? `${kind.path}/${id}?space_id=${encodeURIComponent(spaceId)}`;
}

/** One thing the command palette (Ctrl/⌘-K) found for a query. */
export interface SearchResult {
  /** Unique among the provider's results. */
  key: string;
  title: string;
  description?: string;
  /** A resource kind (ResourceKinds): the palette shows its icon and name. */
  kind?: string;
  /** Where choosing it leads. */
  path: string;
}

export interface SearchProvider {
  key: string;
  /** Translation key (in the owner's namespace) of the results' section title ("Resources"). */
  label: string;
  order?: number;
  /** What matches the query (typed text, never empty), best first; the palette aborts a search the person typed past. */
  search(query: string, signal: AbortSignal): Promise<SearchResult[]>;
}

/**
 * What the command palette searches besides the studio's pages and create actions: a space's resources (the
 * library contributes them), a marketplace's products ... Each provider is asked as the person types.
 */
export const SearchProviders = defineRegistryPoint<SearchProvider>({
  id: 'client.searchProviders',
  owner: 'host',
  description: 'Searches the command palette (Ctrl/⌘-K) runs as the person types: resources, products ...',
  schema: z.object({
    key: z.string().min(1),
    label: z.string().min(1),
    order: z.number().optional(),
    search: z.custom<SearchProvider['search']>((v) => typeof v === 'function', 'must be a function'),
  }),
  key: (p) => p.key,
});

/** One step of the home page's getting-started list, as the space stands now. */
export interface OnboardingStep {
  key: string;
  /** Translation key (in the owner's namespace) of what to do ("Connect a model"). */
  label: string;
  /** Translation key of one line on why it comes first or what it gives. */
  hint?: string;
  order?: number;
  /** Where doing it starts. */
  path: string;
  /** A React hook: whether the current space has done it (read from the studio's state, not remembered). */
  useDone(): { done: boolean; loading: boolean };
}

/**
 * The getting-started list on the home page (connect a model, make a bot, try it, publish ...): each step
 * contributed by the extension whose state it reads; the list disappears when every step is done.
 */
export const OnboardingSteps = defineRegistryPoint<OnboardingStep>({
  id: 'client.onboardingSteps',
  owner: 'host',
  description: "Steps of the home page's getting-started list, each done when the studio's state says so.",
  schema: z.object({
    key: z.string().min(1),
    label: z.string().min(1),
    hint: z.string().optional(),
    order: z.number().optional(),
    path: z.string().startsWith('/'),
    useDone: z.custom<OnboardingStep['useDone']>((v) => typeof v === 'function', 'must be a function'),
  }),
  key: (s) => s.key,
});

export interface SharedViewEntry {
  /** The reference's id (`ViewRef.id`). */
  id: string;
  component: ComponentType<any>;
}

/**
 * Views an extension draws for others to embed, under a `ViewRef` it publishes in its `shared/` (the model picker,
 * a dataset picker). Register with `provideView(ctx, ref, Component)` (typed by the reference); draw with
 * `useSharedView(ref)` or `<SharedView of={ref} />`.
 */
export const SharedViews = defineRegistryPoint<SharedViewEntry>({
  id: 'client.sharedViews',
  owner: 'host',
  description: 'Views one extension draws and others embed, by view reference (ViewRef).',
  schema: z.object({ id: z.string().min(1), component }),
  key: (v) => v.id,
});

export interface SharedRouteEntry {
  /** The reference's id (`RouteRef.id`). */
  id: string;
  /** The page's path (with its query) for the parameters. */
  path(params: any): string;
}

/**
 * Pages one extension owns and others link to, under a `RouteRef` it publishes in its `shared/`. Register with
 * `provideRoute(ctx, ref, (params) => path)`; link with `useRoutePath(ref)` (undefined when the owner is absent).
 */
export const SharedRoutes = defineRegistryPoint<SharedRouteEntry>({
  id: 'client.sharedRoutes',
  owner: 'host',
  description: 'Paths of pages other extensions link to, by route reference (RouteRef).',
  schema: z.object({
    id: z.string().min(1),
    path: z.custom<SharedRouteEntry['path']>((v) => typeof v === 'function', 'must be a function'),
  }),
  key: (r) => r.id,
});

/** A resource published to a connector, as a connector's view is given it. */
export type PublishedTarget =
  | { kind: 'bot'; id: string }
  /** A project's chat-flow (a workflow of the project). */
  | { kind: 'workflow'; id: string; project_id: string };

export interface ConnectorViewProps {
  target: PublishedTarget;
  /** A heading the page gives (the resource's name, "Embed on a site"). */
  title?: ReactNode;
}

export interface ConnectorView {
  /** The connector's id (server point `Connectors`: '999' is the chat page and Web SDK). */
  connector: string;
  /** What a page shows about a resource published there (how a site embeds it, an install link). */
  component: ComponentType<ConnectorViewProps>;
}

/**
 * What the publishing pages (a bot's, a project's) show for a resource published to a connector, given by the
 * connector's extension: the Web SDK's embed code for '999'. A page draws `useConnectorView(id)` when the resource
 * is published there; without the connector's extension there is nothing to show.
 */
export const ConnectorViews = defineRegistryPoint<ConnectorView>({
  id: 'client.connectorViews',
  owner: 'host',
  description: "Views of a resource published to a connector (the Web SDK's embed code), by connector id.",
  schema: z.object({ connector: z.string().min(1), component }),
  key: (v) => v.connector,
});

export interface ResourceActionProps {
  /** The resource's kind ('bot', 'project', 'workflow'). */
  kind: string;
  spaceId: string;
  resourceId: string;
}

/** A control in a resource editor's header (who may edit it, who is editing now ...), for some kinds of resource. */
export interface ResourceAction {
  key: string;
  /** The kinds whose headers show it. */
  kinds: string[];
  order?: number;
  component: ComponentType<ResourceActionProps>;
}

/**
 * Controls other extensions add to the headers of resource editors (the bot editor, a project's page): an editor draws
 * `<ResourceActions kind spaceId resourceId />` where they go; without such extensions it draws nothing.
 */
export const ResourceActions = defineRegistryPoint<ResourceAction>({
  id: 'client.resourceActions',
  owner: 'host',
  description: "Controls in resource editors' headers (collaborators ...), by resource kind.",
  schema: z.object({ key: z.string().min(1), kinds: z.array(z.string()).min(1), component }),
  key: (a) => a.key,
});
