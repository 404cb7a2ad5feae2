import { Spin } from '@arco-design/web-react';
import { lazy, Suspense, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';

/** `load` called once and its promise kept; a failed load is forgotten, so the next call tries again. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((e) => {
      loading = undefined;
      throw e;
    }));
}

/** A component from `lazyView`: drawn as the component, and `preload()` fetches its code ahead of time. */
export type LazyView<P extends object> = ComponentType<P> & { preload(): Promise<void> };

/**
 * A component whose code is downloaded the first time it is drawn (a small spinner meanwhile, or
 * `options.fallback`). What an extension registers at start (a node type's form, a bot skill's panel, a
 * settings form) is best one of these, so the first page does not download every area's views:
 *
 *   Form: lazyView(() => import('./forms.tsx').then((m) => m.IfForm))
 *
 * `preload()` starts the download before it is needed (on hover, or once the page is idle); a failed
 * download is tried again on the next draw or preload.
 */
export function lazyView<P extends object>(
  load: () => Promise<ComponentType<P>>,
  options: { fallback?: ReactNode } = {},
): LazyView<P> {
  const get = once(load);
  const Lazy = lazy(async () => ({ default: await get() })) as unknown as ComponentType<P>;
  const fallback = 'fallback' in options ? options.fallback : <Spin size={16} />;
  function LazyView(props: P) {
    return (
      <Suspense fallback={fallback}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  LazyView.preload = () => get().then(() => undefined);
  return LazyView;
}

/** A page from `lazyPage`: a `React.lazy` component whose code `preload()` fetches ahead of time. */
export type LazyPage = LazyExoticComponent<ComponentType> & { preload(): Promise<void> };

/**
 * A page whose code loads when it is first opened (the shell shows its spinner meanwhile), or earlier: the
 * sidebar preloads a page when the pointer rests on its entry, so the click opens it at once.
 *
 *   ctx.route({ path: '/things', component: lazyPage(() => import('./ThingsPage.tsx').then((m) => m.ThingsPage)) })
 */
export function lazyPage(load: () => Promise<ComponentType>): LazyPage {
  const get = once(load);
  return Object.assign(
    lazy(async () => ({ default: await get() })),
    { preload: () => get().then(() => undefined) },
  );
}

/** Fetches a page's code if it is a `lazyPage` (a failed download is tried again when the page opens). */
export function preloadPage(component: unknown): void {
  const preload = (component as Partial<LazyPage> | undefined)?.preload;
  if (typeof preload === 'function') void preload().catch(() => undefined);
}

/** Runs `fn` once the page is idle (after the first paint and the work around it). */
export function whenIdle(fn: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => fn(), { timeout: 5000 });
  else setTimeout(fn, 1000);
}
