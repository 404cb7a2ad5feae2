import { describe, expect, it } from 'vitest';
import { greetingCanvas } from '../workflow-kit.ts';
import { userSession, withStudioAndBrowser } from './browser.ts';

// Content reports in the browser: a person reports a marketplace product from its page, once; the platform
// administrator sees it in Settings > Reports and marks it acted on.
const env = withStudioAndBrowser();

describe('content reports in the browser', () => {
  it('reports a product once from its page; the administrator answers in Settings', async () => {
    const admin = await userSession(env, { language: 'en-US', viewport: { width: 1440, height: 900 } });
    const { workflow_id } = await admin.api.post('/api/workflow_api/create', {
      space_id: admin.spaceId,
      name: 'Free money',
    });
    await admin.api.post('/api/workflow_api/save', { space_id: admin.spaceId, workflow_id, schema: greetingCanvas() });
    const { product_id } = await admin.api.post('/api/marketplace/product/listing', {
      space_id: admin.spaceId,
      entity_type: 'workflow',
      entity_id: workflow_id,
      name: 'Free money',
      description: 'Too good to be true.',
      version_name: '1.0.0',
    });
    await admin.api.post('/api/marketplace/admin/listing/approve', { product_id });

    const reader = await userSession(env, { language: 'zh-CN', viewport: { width: 1280, height: 800 } });
    await reader.page.goto(`${env.studio.url}/explore/${product_id}`);
    await reader.page.getByTestId('report-open').click();
    await reader.page.getByTestId('report-reasons').getByText('垃圾信息或诈骗').click();
    await reader.page.getByTestId('report-detail').fill('A scam');
    await reader.page.getByTestId('report-send').click();
    await expect.poll(() => reader.page.getByTestId('report-open').isDisabled()).toBe(true);
    expect(await reader.page.getByTestId('report-open').textContent()).toContain('已举报');

    await admin.page.goto(`${env.studio.url}/settings/reports`);
    await expect.poll(() => admin.page.getByTestId('report-row').textContent()).toContain('Free money');
    await admin.page.getByTestId('report-resolve').click();
    await admin.page.locator('.arco-popconfirm .arco-btn-primary').click();
    await admin.page.getByTestId('reports-empty').waitFor();
    expect([...admin.errors, ...reader.errors]).toEqual([]);
    await admin.context.close();
    await reader.context.close();
  });
});
