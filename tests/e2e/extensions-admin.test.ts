import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { Agent } from '../agent.ts';
import { startStudio, textStatsTarball, type RunningStudio } from '../helpers.ts';
import { launchBrowser, signedInContext } from './browser.ts';

// The administrator (the first user of a new studio) disables an extension in the studio, seeing the
// cascade first; restarts; installs a node type from a package; restarts; and finds it in the catalogue.
const extensionsDir = mkdtempSync(path.join(tmpdir(), 'tessera-e2e-ext-'));
let studio: RunningStudio;
let browser: Browser;
const restart = async () => {
  await studio.server.close();
  studio = await startStudio({
    extensionsDir,
    keepData: studio.dataDir,
    keepDatabase: true,
    ...(studio.databaseUrl ? { env: { DATABASE_URL: studio.databaseUrl } } : {}),
  });
};
beforeAll(async () => {
  studio = await startStudio({ extensionsDir, keepDatabase: true });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
  await studio.close();
  rmSync(studio.dataDir, { recursive: true, force: true });
  rmSync(extensionsDir, { recursive: true, force: true });
});

describe('the Extensions page in the browser', () => {
  it('disables an extension after showing the cascade, installs a package, and both apply at the next start', async () => {
    const { context, email } = await signedInContext(browser, studio.url, {
      language: 'en-US',
      viewport: { width: 1400, height: 900 },
    });
    const page = await context.newPage();
    // The administrator finds Settings in the sidebar; someone else does not see it.
    await page.goto(`${studio.url}/`);
    await page.getByTestId('sidebar-settings').click();
    await page.waitForURL(/\/settings/);
    const other = await signedInContext(browser, studio.url, { language: 'en-US' });
    const otherPage = await other.context.newPage();
    await otherPage.goto(`${studio.url}/`);
    await otherPage.getByTestId('sidebar-home').waitFor();
    expect(await otherPage.getByTestId('sidebar-settings').count()).toBe(0);
    await other.context.close();
    await page.goto(`${studio.url}/settings/extensions`);
    await page.getByTestId('ext-toggle-models').click();
    await expect
      .poll(() => page.getByTestId('cascade-item').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.id)))
      .toEqual(expect.arrayContaining(['models', 'node-llm', 'provider-openai']));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => page.getByTestId('ext-pending-models').getAttribute('data-pending')).toBe('disable');
    await page.getByTestId('extensions-pending').waitFor();

    await restart();
    await page.goto(`${studio.url}/settings/extensions`);
    await expect.poll(() => page.getByTestId('ext-state-models').getAttribute('data-state')).toBe('disabled');
    expect(await page.getByTestId('sidebar-models').count()).toBe(0);

    await page
      .getByTestId('extensions-install-input')
      .setInputFiles({ name: 'text-stats-1.0.0.tgz', mimeType: 'application/gzip', buffer: textStatsTarball() });
    await expect.poll(() => page.getByTestId('ext-pending-text-stats').getAttribute('data-pending')).toBe('install');

    await restart();
    const api = new Agent(studio.url);
    await api.post('/api/passport/web/email/login', { email, password: 'correct horse battery' });
    const spaceId = (await api.post('/api/space/list', {})).spaces[0].space_id;
    const { workflow_id } = await api.post('/api/workflow_api/create', { space_id: spaceId, name: 'Counts' });
    await page.goto(`${studio.url}/workflows/${workflow_id}?space_id=${spaceId}`);
    await page.getByTestId('workflow-editor').waitFor();
    await page.getByTestId('node-search').fill('stats');
    await page.getByTestId('add-node-text_stats').waitFor();
    await page.goto(`${studio.url}/settings/extensions`);
    await expect.poll(() => page.getByTestId('ext-state-text-stats').getAttribute('data-state')).toBe('started');
    await context.close();
  });
});
