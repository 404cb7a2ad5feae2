// Browser contexts a worker's test files hand on to each other, warm: a new context has an empty cache and its
// first page a new renderer, which downloads, compiles and runs the studio's code from nothing (about 2 s of CPU on
// a 2-core machine, against 0.5 s for the same page in a renderer that has drawn it before). A context given back
// is left as a person's browser is after signing out and clearing the site's data: no cookies, no storage, no
// permissions, no scripts or routes a test added, one blank tab; its cache and its renderer are kept.
import type { Browser, BrowserContext, BrowserContextOptions, Disposable, Page } from 'playwright-core';

/** Playwright's viewport for a context that names none. */
const DEFAULT_VIEWPORT = { width: 1280, height: 720 };
/** At most this many idle contexts of one kind wait for a test. */
const IDLE_PER_KIND = 3;
/** A context that takes longer than this to clear is closed instead. */
const RESET_TIMEOUT_MS = 15_000;

interface Warm {
  kind: string;
  /** The tab kept open between tests (its renderer is what is warm). */
  tab?: Page;
  tabHandedOut: boolean;
  /** The origins the tests that used it signed in to. */
  origins: Set<string>;
  /** What the tests added that outlives a page: init scripts and bindings. */
  added: Disposable[];
  viewport: { width: number; height: number } | null;
  close(): Promise<void>;
  busy: boolean;
}

/** The page events tests listen to (a listener left behind would hear the next test's page). */
const TEST_EVENTS = [
  'pageerror',
  'console',
  'request',
  'response',
  'requestfinished',
  'requestfailed',
  'dialog',
  'download',
  'popup',
  'websocket',
  'worker',
  'filechooser',
] as const;

const warm = new WeakMap<BrowserContext, Warm>();
const idle = new Map<string, BrowserContext[]>();

/**
 * A context with these options for a test, signed in to nothing: a warm one another test gave back, or a new one.
 * `setUp` prepares it for this test (init scripts it adds are taken away when the context is given back). Only a
 * context made with the same options serves: a tab resized later is not the page a context of that size makes (the
 * screen it reports, for one), and with resized tabs an evaluation popover in the browser suite did not settle on a
 * busy machine. Closing it (`context.close()`) gives it back.
 */
export async function warmContext(
  browser: Browser,
  origin: string,
  options: BrowserContextOptions,
  setUp: (context: BrowserContext) => Promise<unknown>,
): Promise<BrowserContext> {
  const key = JSON.stringify(options);
  const list = idle.get(key) ?? [];
  let context: BrowserContext | undefined;
  while (!context && list.length) {
    const c = list.pop()!;
    if (c.browser()?.isConnected()) context = c;
  }
  if (!context) context = await fresh(browser, key, options);
  const state = warm.get(context)!;
  state.busy = true;
  state.origins.add(new URL(origin).origin);
  await setUp(context);
  return context;
}

async function fresh(browser: Browser, key: string, options: BrowserContextOptions): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  const state: Warm = {
    kind: key,
    tabHandedOut: false,
    origins: new Set(),
    added: [],
    viewport: options.viewport === undefined ? DEFAULT_VIEWPORT : options.viewport,
    close: context.close.bind(context),
    busy: false,
  };
  warm.set(context, state);
  // What a test adds to the context is taken away when it gives the context back.
  const addInitScript = context.addInitScript.bind(context);
  context.addInitScript = (async (...args: Parameters<BrowserContext['addInitScript']>) => {
    const d = await addInitScript(...args);
    state.added.push(d);
    return d;
  }) as BrowserContext['addInitScript'];
  const exposeBinding = context.exposeBinding.bind(context);
  context.exposeBinding = (async (...args: Parameters<BrowserContext['exposeBinding']>) => {
    const d = await exposeBinding(...args);
    state.added.push(d);
    return d;
  }) as BrowserContext['exposeBinding'];
  const exposeFunction = context.exposeFunction.bind(context);
  context.exposeFunction = async (...args: Parameters<BrowserContext['exposeFunction']>) => {
    const d = await exposeFunction(...args);
    state.added.push(d);
    return d;
  };
  // The first tab a test opens is the warm one.
  const newPage = context.newPage.bind(context);
  context.newPage = async () => {
    if (state.tab && !state.tab.isClosed() && !state.tabHandedOut) {
      state.tabHandedOut = true;
      return state.tab;
    }
    const page = await newPage();
    if (!state.tab || state.tab.isClosed()) {
      state.tab = page;
      state.tabHandedOut = true;
    }
    return page;
  };
  context.close = () => giveBack(context);
  return context;
}

/** Whether this context came from warmContext. */
export function isWarm(context: BrowserContext): boolean {
  return warm.has(context);
}

/** Clears a context a test is done with and keeps it for the next; closes it when it cannot be cleared. */
export async function giveBack(context: BrowserContext): Promise<void> {
  const state = warm.get(context);
  if (!state) return context.close();
  if (!state.busy) return;
  state.busy = false;
  let timer: NodeJS.Timeout | undefined;
  const cleared = await Promise.race([
    clear(context, state).then(
      () => true,
      () => false,
    ),
    new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), RESET_TIMEOUT_MS))),
  ]);
  clearTimeout(timer);
  const list = idle.get(state.kind) ?? [];
  if (cleared && context.browser()?.isConnected() && list.length < IDLE_PER_KIND) {
    list.push(context);
    idle.set(state.kind, list);
  } else {
    warm.delete(context);
    await state.close().catch(() => undefined);
  }
}

async function clear(context: BrowserContext, state: Warm): Promise<void> {
  const tab = state.tab && !state.tab.isClosed() ? state.tab : undefined;
  await Promise.all(
    context
      .pages()
      .filter((p) => p !== tab)
      .map((p) => p.close()),
  );
  if (!tab) throw new Error('no tab left to keep warm');
  for (const event of TEST_EVENTS) tab.removeAllListeners(event);
  await tab.unrouteAll({ behavior: 'ignoreErrors' });
  // The tab's own storage first (session storage lives with the tab), then away from the studio.
  await tab
    .evaluate(() => {
      try {
        sessionStorage.clear();
        localStorage.clear();
      } catch {
        /* about:blank, or a page that allows no storage */
      }
    })
    .catch(() => undefined);
  await tab.goto('about:blank');
  await Promise.all(state.added.splice(0).map((d) => d.dispose()));
  await context.unrouteAll({ behavior: 'ignoreErrors' });
  await context.clearCookies();
  await context.clearPermissions();
  const cdp = await context.newCDPSession(tab);
  for (const origin of state.origins)
    await cdp.send('Storage.clearDataForOrigin', {
      origin,
      storageTypes: 'local_storage,indexeddb,cache_storage,service_workers,file_systems,websql',
    });
  await cdp.detach();
  state.origins.clear();
  // A test that resized the tab: back to the context's size.
  if (state.viewport && JSON.stringify(tab.viewportSize()) !== JSON.stringify(state.viewport))
    await tab.setViewportSize(state.viewport);
  state.tabHandedOut = false;
}
