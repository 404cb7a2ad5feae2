// Resources as they leave and enter spaces (files, copies, templates, marketplace products), and the views one
// extension draws for others (view references): both halves read them.

/** One resource as it leaves its space (a file, a copy, a template, a marketplace product). */
export interface ResourcePackage {
  kind: string;
  /** Its id where it came from (what other packages of the same bundle name). */
  id: string;
  name: string;
  description: string;
  icon_uri?: string;
  /** The kind's own content (a workflow's canvas, a bot's configuration). */
  data: unknown;
  /** What it needs of a studio: node type codes, skills ... by the kind's own names (for the list of what is missing). */
  requires?: Record<string, string[]>;
}

/** Resources exported together: the root first, then what it brings along. */
export interface ResourceBundle {
  format: 'tessera.resources';
  version: 1;
  exported_at: string;
  /** The extensions (id and version) of the kinds in it, as the exporting studio ran them. */
  extensions: { id: string; version: string }[];
  resources: ResourcePackage[];
}

// View references: a typed name for a view one extension draws and others embed (a model picker, a dataset
// picker), as route references (below) name pages. The owner publishes the reference in its contract (`shared/`) and
// registers the component under it (`SharedViews`, client side); a user imports only the reference and draws it
// with `useSharedView(ref)` or `<SharedView of={ref} ... />`, so the owner may be optional: absent, nothing draws
// (or the user's fallback), and no code of the owner is imported.

/** The name of a shared view and, in its type, the props it takes. */
export interface ViewRef<P> {
  readonly id: string;
  /** Never set: carries the props' type. */
  readonly props?: P;
}

/** A view reference, e.g. `defineViewRef<ModelSelectProps>('models.modelSelect')` in the owner's `shared/`. */
export function defineViewRef<P>(id: string): ViewRef<P> {
  return Object.freeze({ id: refId('view', id) });
}

/** A reference's id, '<extension id>.<name>', or an error saying so. */
function refId(what: 'view' | 'route', id: string): string {
  if (!/^[a-z][\w-]*\.[A-Za-z][\w.-]*$/.test(id))
    throw new Error(`${what} reference '${id}': use '<extension id>.<name>'`);
  return id;
}

// Route references: a typed name for a page of one extension that others link to (a trace, a run), so the link
// is built by the page's owner and hidden when it is absent, instead of a path written into another extension.
// The owner publishes `defineRouteRef<{ trace_id: string }>('observability.trace')` in its `shared/` and
// registers how the path is made (`provideRoute`, client side); a linking page asks `useRoutePath(ref)`.

/** The name of a page others link to and, in its type, the parameters its path takes. */
export interface RouteRef<P> {
  readonly id: string;
  /** Never set: carries the parameters' type. */
  readonly params?: P;
}

/** A route reference, e.g. `defineRouteRef<{ trace_id: string }>('observability.trace')` in the owner's `shared/`. */
export function defineRouteRef<P>(id: string): RouteRef<P> {
  return Object.freeze({ id: refId('route', id) });
}
