import { describe, expect, it } from 'vitest';
import { userSession, withStudioAndBrowser } from './browser.ts';

// Prompt releases in the browser: a space of one lets its owner approve their own releases (Settings), releases a
// version to production (waits for approval, approved from the history), releases another to staging as a gray
// release first and then to everyone; the page in Chinese.
const env = withStudioAndBrowser();

async function promptWithVersions(api: { post(p: string, b: unknown): Promise<any> }, spaceId: string) {
  const base = '/api/prompt/v1/prompts';
  const { prompt_id } = await api.post(base, {
    workspace_id: spaceId,
    prompt_key: 'support.reply',
    prompt_name: 'Reply',
  });
  for (const system of ['You answer politely.', 'You answer briefly.']) {
    await api.post(`${base}/${prompt_id}/drafts/save`, {
      prompt_draft: {
        detail: { prompt_template: { template_type: 'normal', messages: [{ role: 'system', content: system }] } },
      },
    });
    await api.post(`${base}/${prompt_id}/drafts/commit`, {});
  }
  return prompt_id as string;
}

describe('prompt releases in the browser', () => {
  it('approves a release to production, gray-releases to staging, then to everyone', async () => {
    const { api, spaceId, page, errors, context } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    const promptId = await promptWithVersions(api, spaceId);

    // A space of one: its owner may approve their own releases.
    await page.goto(`${env.studio.url}/prompt-releases`);
    await page.getByTestId('prompt-releases-page').waitFor();
    await page.getByRole('tab', { name: 'Environments and approvers' }).click();
    await page.getByTestId('release-settings-self').click();
    await page.getByTestId('release-settings-save').click();
    await page.getByTestId('release-settings-saved').waitFor();

    await page.goto(`${env.studio.url}/prompts/${promptId}?space_id=${spaceId}`);
    await page.getByTestId('prompt-releases-button').click();
    await page.getByTestId('prompt-releases').waitFor();
    await page.getByTestId('release-to-production').click();
    await page.getByTestId('release-needs-approval').waitFor();
    await page.getByTestId('release-comment').fill('First answer style');
    await page.getByTestId('release-submit').click();
    const status = page.getByTestId('release-task-status').first();
    await expect.poll(() => status.getAttribute('data-status')).toBe('waiting_approval');
    expect(await page.getByTestId('release-env-production').getAttribute('data-version')).toBe('');
    await page.getByTestId('release-task-decide').click();
    await page.getByTestId('release-decide-approve').click();
    await expect.poll(() => status.getAttribute('data-status')).toBe('done');
    await expect.poll(() => page.getByTestId('release-env-production').getAttribute('data-version')).toBe('0.0.2');

    // Staging: a gray release first (10 % by default), then to everyone.
    await page.getByTestId('release-to-staging').click();
    await page.getByTestId('release-gray').click();
    expect(await page.getByTestId('release-gray-value').textContent()).toBe('10 %');
    await page.getByTestId('release-gray-users').fill('vip-1, vip-2');
    await page.getByTestId('release-submit').click();
    await expect.poll(() => page.getByTestId('release-env-staging-gray').textContent()).toBe('Gray 0.0.2 to 10 %');
    // The history is read again beside the environments: it may come a moment later.
    await expect
      .poll(() => page.getByTestId('release-task-gray').first().textContent())
      .toBe('Gray: 10 % and 2 listed users');
    await page.getByTestId('release-task-full').click();
    await expect.poll(() => page.getByTestId('release-env-staging').getAttribute('data-version')).toBe('0.0.2');
    expect(await page.getByTestId('release-env-staging-gray').count()).toBe(0);

    // The space's page lists both releases; nothing waits for approval.
    await page.goto(`${env.studio.url}/prompt-releases`);
    await page.getByTestId('release-tasks-empty').waitFor();
    await page.getByRole('tab', { name: 'All releases' }).click();
    await expect.poll(() => page.getByTestId('release-task').count()).toBe(2);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('speaks Chinese', async () => {
    const { page, errors, context } = await userSession(env, { language: 'zh-CN' });
    await page.goto(`${env.studio.url}/prompt-releases`);
    await page.getByTestId('prompt-releases-page').waitFor();
    expect(await page.getByRole('tab', { name: '环境与审批人' }).count()).toBe(1);
    expect(await page.getByTestId('release-tasks-empty').textContent()).toContain('没有等待你审批的发布');
    expect(errors).toEqual([]);
    await context.close();
  });
});
