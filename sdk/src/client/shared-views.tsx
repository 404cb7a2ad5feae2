// Drawing a view another extension provides under a ViewRef, and linking to its pages under a RouteRef or as a
// resource kind (sdk/src/resources.ts), without importing its code or writing its paths.
import { useMemo, type ComponentType, type ReactNode } from 'react';
import type { ExtensionContext } from '@tessera/core';
import type { RouteRef, ViewRef } from '../resources.ts';
import {
  ConnectorViews,
  itemPathOf,
  ResourceActions as ResourceActionsPoint,
  ResourceKinds,
  SharedRoutes,
  SharedViews,
  type ConnectorViewProps,
  type ResourceActionProps,
} from './points.ts';
import { useRegistryEntries } from './context.tsx';

/** Registers `component` as the view `ref` names (the owner's client entry). */
export function provideView<P>(ctx: Pick<ExtensionContext, 'register'>, ref: ViewRef<P>, component: ComponentType<P>) {
  return ctx.register(SharedViews, { id: ref.id, component });
}

/** The component registered under `ref`, or undefined when its owner is absent or disabled. */
export function useSharedView<P>(ref: ViewRef<P>): ComponentType<P> | undefined {
  const entries = useRegistryEntries(SharedViews);
  return useMemo(
    () => entries.find((e) => e.value.id === ref.id)?.value.component as ComponentType<P> | undefined,
    [entries, ref.id],
  );
}

/** Draws the view `of` names with the given props; `fallback` (default: nothing) when no extension provides it. */
export function SharedView<P extends object>({
  of,
  fallback = null,
  ...props
}: { of: ViewRef<P>; fallback?: ReactNode } & P) {
  const View = useSharedView(of) as ComponentType<object> | undefined;
  return View ? <View {...props} /> : <>{fallback}</>;
}

/** Registers how the page `ref` names is reached (the owner's client entry). */
export function provideRoute<P>(
  ctx: Pick<ExtensionContext, 'register'>,
  ref: RouteRef<P>,
  path: (params: P) => string,
) {
  return ctx.register(SharedRoutes, { id: ref.id, path });
}

/** The path maker of the page `ref` names, or undefined when its owner is absent (then show no link). */
export function useRoutePath<P>(ref: RouteRef<P>): ((params: P) => string) | undefined {
  const entries = useRegistryEntries(SharedRoutes);
  return useMemo(() => entries.find((e) => e.value.id === ref.id)?.value.path, [entries, ref.id]);
}

/** Where a resource of any kind opens (its kind's `itemPath`), or undefined for a kind no extension here shows. */
export function useItemPath(): (kind: string, id: string, spaceId: string) => string | undefined {
  const kinds = useRegistryEntries(ResourceKinds);
  return useMemo(() => {
    const byKind = new Map(kinds.map((k) => [k.value.kind, k.value]));
    return (kind, id, spaceId) => {
      const k = byKind.get(kind);
      return k ? itemPathOf(k, id, spaceId) : undefined;
    };
  }, [kinds]);
}

/** The view a connector's extension gives for resources published to it, or undefined (nothing to show). */
export function useConnectorView(connector: string): ComponentType<ConnectorViewProps> | undefined {
  const entries = useRegistryEntries(ConnectorViews);
  return useMemo(() => entries.find((e) => e.value.connector === connector)?.value.component, [entries, connector]);
}

/** Draws what the connector's extension shows for a resource published to it; nothing without that extension. */
export function ConnectorPanel({ connector, ...props }: { connector: string } & ConnectorViewProps) {
  const View = useConnectorView(connector);
  // The component comes from a registry, made once by its extension: the same one every render.
  // oxlint-disable-next-line react/static-components
  return View ? <View {...props} /> : null;
}

/** The controls extensions add to a resource editor's header (ResourceActions) for this kind, in their order. */
export function ResourceActionsBar(props: ResourceActionProps) {
  const entries = useRegistryEntries(ResourceActionsPoint);
  const actions = useMemo(
    () =>
      entries
        .filter((e) => e.value.kinds.includes(props.kind))
        .sort((a, b) => (a.value.order ?? 50) - (b.value.order ?? 50)),
    [entries, props.kind],
  );
  return (
    <>
      {actions.map(({ key, value: { component: Action } }) => (
        // Each component comes from a registry, made once by its extension.
        // oxlint-disable-next-line react/static-components
        <Action key={key} {...props} />
      ))}
    </>
  );
}
