import { afterAll, beforeAll, expect } from 'vitest';
import { Agent } from '../agent.ts';
import { startStudio, type RunningStudio } from '../helpers.ts';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { launchBrowser } from './chromium.ts';
import { giveBack, isWarm, warmContext } from './warm-contexts.ts';

export { launchBrowser };

/** Driving the workflow editor's canvas: fit it, select a node, wire a port to a node, add a node type. */
export function canvas(page: Page) {
  const fit = () => page.locator('.react-flow__controls-fitview').click();
  return {
    START: '100001',
    END: '900001',
    fit,
    async select(id: string) {
      await fit();
      await page.locator(`[data-testid="canvas-node"][data-node-id="${id}"] strong`).first().click();
      await expect.poll(() => page.getByTestId('node-panel').getAttribute('data-node-id')).toBe(id);
    },
    /** Drags a port to a node; again when the drop missed (a drag on a busy machine can end before the pointer arrives). */
    async wire(from: string, port: string, to: string) {
      const edges = await page.locator('.react-flow__edge').count();
      for (let attempt = 0; attempt < 3 && (await page.locator('.react-flow__edge').count()) === edges; attempt++) {
        await fit();
        await page
          .getByTestId(`port-${from}-${port}`)
          .dragTo(page.locator(`.react-flow__node[data-id="${to}"] .react-flow__handle.target`).first());
        await expect
          .poll(() => page.locator('.react-flow__edge').count(), { timeout: 3000 })
          .toBe(edges + 1)
          .catch(() => undefined);
      }
      await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(edges + 1);
    },
    /** Deletes the only link (a new workflow's Start to End): selects it and presses Delete, again if the click missed. */
    async deleteOnlyLink() {
      for (let attempt = 0; attempt < 4 && (await page.locator('.react-flow__edge').count()) > 0; attempt++) {
        await fit();
        await page.locator('.react-flow__edge-interaction').first().click({ force: true });
        await page.keyboard.press('Delete');
        await expect
          .poll(() => page.locator('.react-flow__edge').count(), { timeout: 2000 })
          .toBe(0)
          .catch(() => undefined);
      }
      await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(0);
    },
    /** Adds a node of a type after the selected node; returns its id. */
    async add(key: string) {
      await page.getByTestId(`add-node-${key}`).click();
      await expect
        .poll(async () => (await page.getByTestId('node-panel').getAttribute('data-node-id'))?.startsWith(key))
        .toBe(true);
      return (await page.getByTestId('node-panel').getAttribute('data-node-id'))!;
    },
  };
}

/** Picks an option of an Arco select by its visible text. */
export async function choose(page: Page, testId: string, option: string | RegExp) {
  await page.getByTestId(testId).click();
  await page.locator('.arco-select-option:visible').filter({ hasText: option }).first().click();
}

let users = 0;
/**
 * A browser context with a freshly signed-up user (the session cookie is set through the real API). The context is a
 * warm one when another test of the worker gave one of its kind back (warm-contexts.ts); `context.close()` gives it
 * back, cleared.
 */
export async function signedInContext(
  browser: Browser,
  baseUrl: string,
  opts: BrowserContextOptions & { language?: 'zh-CN' | 'en-US'; name?: string } = {},
): Promise<{ context: BrowserContext; email: string }> {
  const { language, name, ...contextOptions } = opts;
  const context = await warmContext(browser, baseUrl, contextOptions, async (c) => {
    // In every frame: a sandboxed one (an app's custom component) has no storage to write.
    if (language)
      await c.addInitScript((lang) => {
        try {
          localStorage.setItem('tessera.language', lang);
        } catch {
          /* a sandboxed frame */
        }
      }, language);
  });
  const email = `e2e-${Date.now()}-${++users}@example.com`;
  const r = await context.request.post(`${baseUrl}/api/passport/web/email/register/v2`, {
    data: { email, password: 'correct horse battery', name: name ?? `E2E ${users}` },
  });
  if (!r.ok()) throw new Error(`sign-up failed: ${r.status()} ${await r.text()}`);
  return { context, email };
}

/**
 * A signed-up user with a page in the browser and the same account on the API (to set up or look at what
 * the page did), the id of their personal space, and the page's uncaught errors as they happen.
 */
export async function userSession(
  env: { studio: RunningStudio; browser: Browser },
  opts: BrowserContextOptions & { language?: 'zh-CN' | 'en-US' } = {},
) {
  const { context, email } = await signedInContext(env.browser, env.studio.url, opts);
  const api = new Agent(env.studio.url);
  await api.post('/api/passport/web/email/login', { email, password: 'correct horse battery' });
  const spaceId = (await api.post('/api/space/list', {})).spaces[0].space_id as string;
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, email, api, spaceId, page, errors };
}

let workerChromium: Browser | undefined;
/**
 * The worker's Chromium: a worker runs its files one after another (vitest `isolate: false`), and they share one
 * browser instead of starting one each; a file gives back or closes the contexts it opened when it ends. Started
 * again if it is gone (a crash); the worker's exit ends it.
 */
async function sharedBrowser(): Promise<Browser> {
  if (!workerChromium?.isConnected()) workerChromium = await launchBrowser();
  return workerChromium;
}

/**
 * The port the worker's files serve their studio on, one after another: the same origin from file to file, so the
 * browser's warm contexts keep their cache (0 until the first file has one; a file whose port is taken gets another).
 */
let workerPort = 0;

/** One studio for a test file and the worker's Chromium, started before its tests; stopped (or left clean) after them. */
export function withStudioAndBrowser(opts: { extensionsDir?: () => string; env?: Record<string, string> } = {}): {
  readonly studio: RunningStudio;
  readonly browser: Browser;
} {
  const state: { studio?: RunningStudio; browser?: Browser } = {};
  beforeAll(async () => {
    state.studio = await startStudio({ extensionsDir: opts.extensionsDir?.(), env: opts.env, port: workerPort });
    workerPort = Number(new URL(state.studio.url).port);
    state.browser = await sharedBrowser();
  });
  afterAll(async () => {
    // Warm contexts go back to the worker (cleared) before the studio stops; others are closed.
    await Promise.all(
      (state.browser?.contexts() ?? []).map((c) => (isWarm(c) ? giveBack(c) : c.close()).catch(() => undefined)),
    );
    await state.studio?.close();
  });
  return {
    get studio() {
      return state.studio!;
    },
    get browser() {
      return state.browser!;
    },
  };
}

/** Opens the select with this test id and picks the option with this text. */
export async function pickOption(page: Page, testId: string, text: string | RegExp) {
  await page.getByTestId(testId).click();
  await page.locator('.arco-select-popup:visible .arco-select-option', { hasText: text }).first().click();
}
