import { afterAll, beforeAll } from 'vitest';
import { startStudio, type RunningStudio } from '../helpers.ts';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { launchBrowser } from './chromium.ts';

export { launchBrowser };

/** Picks an option of an Arco select by its visible text. */
export async function choose(page: Page, testId: string, option: string | RegExp) {
  await page.getByTestId(testId).click();
  await page.locator('.arco-select-option:visible').filter({ hasText: option }).first().click();
}

let users = 0;
/** A browser context with a freshly signed-up user (the session cookie is set through the real API). */
export async function signedInContext(browser: Browser, baseUrl: string, opts: BrowserContextOptions & { language?: 'zh-CN' | 'en-US'; name?: string } = {}): Promise<{ context: BrowserContext; email: string }> {
  const { language, name, ...contextOptions } = opts;
  const context = await browser.newContext(contextOptions);
  if (language) await context.addInitScript((lang) => localStorage.setItem('tessera.language', lang), language);
  const email = `e2e-${Date.now()}-${++users}@example.com`;
  const r = await context.request.post(`${baseUrl}/api/passport/web/email/register/v2`, { data: { email, password: 'correct horse battery', name: name ?? `E2E ${users}` } });
  if (!r.ok()) throw new Error(`sign-up failed: ${r.status()} ${await r.text()}`);
  return { context, email };
}

/** One studio and one Chromium for a test file, started before its tests and stopped after them. */
export function withStudioAndBrowser(opts: { extensionsDir?: () => string; env?: Record<string, string> } = {}): { readonly studio: RunningStudio; readonly browser: Browser } {
  const state: { studio?: RunningStudio; browser?: Browser } = {};
  beforeAll(async () => {
    state.studio = await startStudio({ extensionsDir: opts.extensionsDir?.(), env: opts.env });
    state.browser = await launchBrowser();
  });
  afterAll(async () => {
    await state.browser?.close();
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
