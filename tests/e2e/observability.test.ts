import { describe, expect, it } from 'vitest';
import { greetingCanvas } from '../workflow-kit.ts';
import { userSession, withStudioAndBrowser } from './browser.ts';

const env = withStudioAndBrowser();

describe('traces in the browser', () => {
  it('lists workflow runs and OpenTelemetry traces, opens one as a tree, annotates a span, and shows metrics', async () => {
    const { api, spaceId, context, page, errors } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    await context.addInitScript((id) => localStorage.setItem('tessera.space', id), spaceId);
    const { workflow_id } = await api.post('/api/workflow_api/create', { space_id: spaceId, name: 'greeter' });
    await api.post('/api/workflow_api/save', { space_id: spaceId, workflow_id, schema: greetingCanvas() });
    const { execute_id } = await api.post('/api/workflow_api/test_run', {
      space_id: spaceId,
      workflow_id,
      input: { name: 'Ada' },
    });
    const { token } = await api.post('/api/permission_api/pat/create', {
      name: 'otel',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: spaceId, permissions: ['trace.ingest'] }],
    });
    const now = BigInt(Date.now()) * 1_000_000n;
    const sent = await fetch(`${env.studio.url}/v1/traces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-tessera-space-id': spaceId },
      body: JSON.stringify({
        resourceSpans: [
          {
            resource: { attributes: [{ key: 'service.name', value: { stringValue: 'shop' } }] },
            scopeSpans: [
              {
                spans: [
                  {
                    traceId: 'ab'.repeat(16),
                    spanId: 'cd'.repeat(8),
                    name: 'GET /cart',
                    kind: 2,
                    startTimeUnixNano: String(now),
                    endTimeUnixNano: String(now + 4_000_000n),
                  },
                ],
              },
            ],
          },
        ],
      }),
    });
    expect(sent.status).toBe(200);

    await page.goto(`${env.studio.url}/traces`);
    await expect
      .poll(() => page.getByTestId('obs-trace').allTextContents())
      .toEqual(expect.arrayContaining(['greeter', 'GET /cart']));
    // By an attribute of a span (here a resource attribute of the outside app), then all again.
    await page.getByTestId('obs-attr-key').fill('resource.service.name');
    await page.getByTestId('obs-attr-value').fill('shop');
    await page.getByTestId('obs-attr-value').press('Enter');
    await expect.poll(() => page.getByTestId('obs-trace').allTextContents()).toEqual(['GET /cart']);
    await page.getByTestId('obs-attr-value').fill('');
    await page.getByTestId('obs-attr-value').press('Enter');
    await expect.poll(() => page.getByTestId('obs-trace').count()).toBe(2);
    // Only OpenTelemetry ones.
    await page.getByTestId('obs-source').click();
    await page.locator('.arco-select-option:visible').filter({ hasText: 'OpenTelemetry' }).click();
    await expect.poll(() => page.getByTestId('obs-trace').allTextContents()).toEqual(['GET /cart']);
    // Found by the run's id, opened as a tree with its nodes.
    await page.getByTestId('obs-find').fill(execute_id);
    await page.getByTestId('obs-find').press('Enter');
    await expect.poll(() => page.locator('[data-testid="trace-span"][data-kind="workflow"]').count()).toBe(1);
    expect(await page.locator('[data-testid="trace-span"][data-kind="node"]').count()).toBeGreaterThanOrEqual(2);
    await page.locator('[data-testid="trace-span"][data-kind="node"]').last().click();
    await expect.poll(() => page.getByTestId('span-output').textContent()).toContain('Ada');
    await page.getByTestId('span-annotations-tab').click();
    await page.getByTestId('annotation-key').fill('correctness');
    await page
      .locator('input[data-testid="annotation-score"], [data-testid="annotation-score"] input')
      .first()
      .fill('1');
    await page.getByTestId('annotation-save').click();
    await expect.poll(() => page.getByTestId('span-annotation').textContent()).toContain('correctness');
    expect(new URL(page.url()).searchParams.get('trace_id')).toBe(execute_id);
    await page.locator('.arco-drawer-close-icon').click();

    // Metrics: the runs of the last week, as charts.
    await page.getByTestId('obs-metrics-tab').click();
    await expect.poll(() => page.getByTestId('obs-metrics-runs').textContent()).toBe('2');
    await page.locator('[data-testid="obs-metrics"] .recharts-surface').first().waitFor();
    expect(errors).toEqual([]);
  });

  it('shows traces in Chinese', async () => {
    const { page, errors } = await userSession(env, { language: 'zh-CN' });
    await page.goto(`${env.studio.url}/traces`);
    await page.getByText('还没有链路', { exact: false }).waitFor();
    expect(errors).toEqual([]);
  });
});
