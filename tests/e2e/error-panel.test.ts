import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { exampleExtensionsDir } from '../helpers.ts';
import { signedInContext, withStudioAndBrowser } from './browser.ts';
import { CHANNEL_NAME } from '../../extensions/error-panel/src/client/constants.ts';

const env = withStudioAndBrowser({ extensionsDir: exampleExtensionsDir });

async function newContext(): Promise<BrowserContext> {
  const { context } = await signedInContext(env.browser, env.studio.url, {
    viewport: { width: 1280, height: 800 },
    language: 'en-US',
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.studio.url });
  return context;
}

async function open(context: BrowserContext, path: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${env.studio.url}${path}`);
  await page.getByTestId('shell-desktop').waitFor();
  return page;
}

/**
 * A real failing request through the studio's request client (the greeting needs a name) whose caller
 * suppressed the notice: the error panel is its one place.
 */
async function failRequest(page: Page): Promise<void> {
  await page.evaluate(() =>
    (window as any).__tessera.api
      .get('/api/hello/greeting', { name: '' }, { suppressNotice: true })
      .catch(() => undefined),
  );
}

/** Two animation frames: whatever a handled message would render has rendered. */
const nextFrames = (page: Page) =>
  page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));

const panelState = (page: Page) => page.getByTestId('error-panel').getAttribute('data-state');

describe('the floating error panel in Chromium', () => {
  it('shows a failed request in a popup that clears to the icon 2 s later', async () => {
    const context = await newContext();
    const page = await open(context, '/hello');
    // The page's own failing call (an empty name) raises the error notice, and only that.
    await page.getByTestId('hello-name').fill('');
    await page.getByTestId('error-notice').first().waitFor();
    expect(await page.getByTestId('error-panel').count()).toBe(0);
    // The page notes when the panel's state changes (timed in the page: a busy machine does not move them).
    await page.evaluate(() => {
      const w = window as unknown as { panelStates: [string, number][] };
      w.panelStates = [];
      new MutationObserver(() => {
        const state = document.querySelector('[data-testid="error-panel"]')?.getAttribute('data-state') ?? 'none';
        if (w.panelStates.at(-1)?.[0] !== state) w.panelStates.push([state, performance.now()]);
      }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state'] });
    });
    // A call whose notice its caller suppressed goes to the panel.
    await failRequest(page);
    await page.getByTestId('error-panel-popup').waitFor();
    expect(await page.getByTestId('error-panel-popup').textContent()).toContain('Invalid request: name:');
    expect(await page.getByTestId('error-panel-popup').textContent()).toMatch(/400 · 400001 · \d{14}[0-9A-F]{16}/);
    await expect.poll(() => panelState(page), { timeout: 10_000 }).toBe('collapsed');
    // Shown as a popup for 2 s from when it was drawn, then the icon.
    const states = await page.evaluate(() => (window as unknown as { panelStates: [string, number][] }).panelStates);
    const popup = states.find(([s]) => s === 'popup')!;
    const collapsed = states.find(([s]) => s === 'collapsed')!;
    expect(collapsed[1] - popup[1]).toBeGreaterThanOrEqual(1900);
    await context.close();
  });

  it('expands, deletes one message, and clears all with a toast', async () => {
    const context = await newContext();
    const page = await open(context, '/hello');
    for (let i = 0; i < 3; i++) await failRequest(page);
    await expect.poll(() => panelState(page), { timeout: 4000 }).toBe('collapsed');
    await page.getByTestId('error-panel-icon').click();
    expect(await panelState(page)).toBe('expanded');
    expect(await page.getByTestId('error-panel-item').count()).toBe(3);
    const box = await page.getByTestId('error-panel-expanded').boundingBox();
    expect(Math.round(box!.width)).toBe(338);
    await page.getByTestId('error-panel-delete').first().click();
    expect(await page.getByTestId('error-panel-item').count()).toBe(2);
    await page.getByTestId('error-panel-clear').click();
    await page.getByText('All messages cleared').waitFor();
    expect(await page.getByTestId('error-panel').count()).toBe(0);
    await context.close();
  });

  it('copies the content, the session id and the timestamp, with a tick for 2 s', async () => {
    const context = await newContext();
    const page = await open(context, '/hello');
    await failRequest(page);
    await page.getByTestId('error-panel-more').or(page.getByTestId('error-panel-icon')).first().waitFor();
    await expect.poll(() => panelState(page), { timeout: 4000 }).toBe('collapsed');
    await page.getByTestId('error-panel-icon').click();
    await page.getByTestId('error-panel-copy').click();
    await expect.poll(() => page.getByTestId('error-panel-copy').getAttribute('data-copied')).toBe('true');
    const text = await page.evaluate(() => navigator.clipboard.readText());
    expect(text).toMatch(/^400 400001 Invalid request: name: /);
    expect(text).toMatch(/session: \S+/);
    expect(text).toMatch(/time: \d{4}-\d\d-\d\dT/);
    await expect
      .poll(() => page.getByTestId('error-panel-copy').getAttribute('data-copied'), { timeout: 3500 })
      .toBe('false');
    await context.close();
  });

  it('drags after 3 px and snaps to each corner without expanding', async () => {
    const context = await newContext();
    const page = await open(context, '/hello');
    await failRequest(page);
    await expect.poll(() => panelState(page), { timeout: 4000 }).toBe('collapsed');
    const panel = page.getByTestId('error-panel');
    expect(await panel.getAttribute('data-corner')).toBe('top-right');
    const start = await panel.boundingBox();
    expect(Math.round(1280 - start!.x - start!.width)).toBe(40);
    expect(Math.round(start!.y)).toBe(40);
    for (const [x, y, corner] of [
      [150, 650, 'bottom-left'],
      [120, 90, 'top-left'],
      [1100, 700, 'bottom-right'],
      [1200, 60, 'top-right'],
    ] as const) {
      const b = (await panel.boundingBox())!;
      await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
      await page.mouse.down();
      await page.mouse.move(b.x + b.width / 2 + 2, b.y + b.height / 2, { steps: 2 });
      await page.mouse.move(x, y, { steps: 8 });
      await page.mouse.up();
      await expect.poll(() => panel.getAttribute('data-corner')).toBe(corner);
      expect(await panelState(page)).toBe('collapsed');
      const after = (await panel.boundingBox())!;
      expect(after.x).toBeGreaterThanOrEqual(0);
      expect(after.y).toBeGreaterThanOrEqual(0);
    }
    // A short press without movement is a click: it expands (only the click that ended the drag was swallowed).
    await page.getByTestId('error-panel-icon').click();
    expect(await panelState(page)).toBe('expanded');
    await context.close();
  });

  it('keeps tabs on the same path in sync, not a tab on another path, and survives a reload', async () => {
    const context = await newContext();
    const a = await open(context, '/hello');
    const b = await open(context, '/hello');
    const other = await open(context, '/');
    // The tab on another path hears the same message (its own listener, made after the panel's, hears it after it).
    await other.evaluate((name) => {
      const w = window as unknown as { heard?: Promise<void> };
      w.heard = new Promise<void>((resolve) => {
        const channel = new BroadcastChannel(name);
        channel.onmessage = () => {
          channel.close();
          resolve();
        };
      });
    }, CHANNEL_NAME);
    await failRequest(a);
    await b.getByTestId('error-panel').waitFor();
    expect(await b.getByTestId('error-panel').count()).toBe(1);
    await other.evaluate(() => (window as unknown as { heard: Promise<void> }).heard);
    await nextFrames(other);
    expect(await other.getByTestId('error-panel').count()).toBe(0);
    await a.reload();
    await a.getByTestId('shell-desktop').waitFor();
    await expect.poll(() => panelState(a)).toBe('collapsed');
    await a.getByTestId('error-panel-icon').click();
    expect(await a.getByTestId('error-panel-item').count()).toBe(1);
    // Clearing in one tab clears the other.
    await a.getByTestId('error-panel-clear').click();
    await expect.poll(() => b.getByTestId('error-panel').count()).toBe(0);
    await context.close();
  });
});
