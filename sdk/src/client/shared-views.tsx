// Drawing a view another extension provides under a ViewRef (sdk/src/resources.ts), without importing its code.
import { useMemo, type ComponentType, type ReactNode } from 'react';
import type { ExtensionContext } from '@tessera/core';
import type { ViewRef } from '../resources.ts';
import { SharedViews } from './points.ts';
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
