import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { greetingCanvas } from '../workflow-kit.ts';
import { userSession, withStudioAndBrowser } from './browser.ts';

// The receiver runs on 127.0.0.1: this studio may call private addresses.
const env = withStudioAndBrowser({ env: { TESSERA_ALLOW_PRIVATE_NETWORK: 'true' } });
const received: { event: string; body: { header: { event_type: string }; event: Record<string, unknown> } }[] = [];
let receiver: Server;
let url = '';
beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const parsed = JSON.parse(body || '{}');
      res.setHeader('content-type', 'application/json');
      if (parsed.type === 'url_verification') return res.end(JSON.stringify({ challenge: parsed.challenge }));
      received.push({ event: String(req.headers['x-tessera-event']), body: parsed });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/events`;
});
afterAll(() => receiver.close());

describe('API apps in the browser', () => {
  it("makes an app, shows its secret once, checks and saves its address, subscribes it, and shows each delivery with the receiver's answer", async () => {
    const { api, spaceId, page, errors, context } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    await page.goto(`${env.studio.url}/api-apps`);
    await page.getByTestId('api-apps-empty').waitFor();
    await page.getByTestId('api-app-name').fill('Order system');
    await page.getByTestId('api-app-create').click();
    const panel = page.getByTestId('api-app-panel');
    await expect.poll(() => panel.getByTestId('api-app-secret').textContent()).toMatch(/^[\w-]{32}$/);

    await panel.getByTestId('api-app-url').fill(url);
    await panel.getByTestId('api-app-url-save').click();
    await expect.poll(() => panel.getByTestId('api-app-url-save').isDisabled()).toBe(true);
    await panel.getByTestId('api-app-event-workflow.run.finished').click();
    await expect
      .poll(() => panel.getByTestId('api-app-event-workflow.run.finished').locator('input').isChecked())
      .toBe(true);

    // A test event, and a real one: a workflow run of the space ends.
    await panel.getByTestId('api-app-ping').click();
    await expect
      .poll(() => panel.getByTestId('api-app-delivery').first().getAttribute('data-status'))
      .toBe('succeeded');
    const { workflow_id } = await api.post('/api/workflow_api/create', { space_id: spaceId, name: 'Greeter' });
    await api.post('/api/workflow_api/save', { space_id: spaceId, workflow_id, schema: greetingCanvas() });
    await api.post('/api/workflow_api/test_run', { space_id: spaceId, workflow_id, input: { name: 'Ada' } });
    await expect
      .poll(() => received.filter((r) => r.event === 'workflow.run.finished').length, { timeout: 15_000 })
      .toBe(1);
    const finished = received.find((r) => r.event === 'workflow.run.finished')!;
    expect(finished.body.event).toMatchObject({ workflow_id, status: 'success' });
    // The panel follows the deliveries (read again while one waits).
    await page.reload();
    await page.getByTestId('api-app-open').click();
    await expect.poll(() => page.getByTestId('api-app-delivery').count(), { timeout: 15_000 }).toBe(2);
    expect(await page.getByTestId('api-app-delivery').first().textContent()).toContain('workflow.run.finished');
    expect(await page.getByTestId('api-app-delivery').first().textContent()).toContain('{"ok":true}');
    // The secret is not shown again.
    expect(await page.getByTestId('api-app-secret').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
