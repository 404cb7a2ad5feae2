import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderExtension } from '@tessera/sdk/testing/client';
import client from '../src/client/index.tsx';

const rows = [
  {
    id: 'workflow',
    version: '0.1.0',
    state: 'started',
    source: 'builtin',
    folder: '/x/extensions/workflow',
    name: { 'en-US': 'Workflows', 'zh-CN': '工作流' },
    description: { 'en-US': 'Canvas and runs.', 'zh-CN': '画布与运行。' },
    contributions: [{ point: 'server.apiRoutes', keys: ['POST /api/workflow_api/create'] }],
  },
  {
    id: 'billing',
    version: '0.1.0',
    state: 'disabled',
    source: 'builtin',
    reason: 'disabled by configuration',
    folder: '/x/extensions/billing',
    contributions: [],
  },
  {
    id: 'invoices',
    version: '0.1.0',
    state: 'disabled',
    source: 'builtin',
    reason: "requires 'billing', which is disabled",
    folder: '/x/extensions/invoices',
    contributions: [],
  },
  {
    id: 'text-stats',
    version: '1.0.0',
    state: 'started',
    source: 'runtime',
    folder: '/srv/extensions.d/text-stats',
    contributions: [{ point: 'workflow.nodeTypes', keys: ['text_stats'] }],
  },
];

/** The server as an administrator (admin: true) or someone else sees it; records what was posted. */
function fakeServer(admin: boolean) {
  const posted: { url: string; body: unknown }[] = [];
  const json = (data: unknown, status = 200, code = 0, msg = '') =>
    new Response(JSON.stringify({ code, msg, data }), {
      status,
      headers: { 'content-type': 'application/json', 'x-tt-logid': 'L1' },
    });
  const fetch = (async (url: string, init?: RequestInit) => {
    if (init?.body) posted.push({ url, body: JSON.parse(String(init.body)) });
    if (url.startsWith('/api/admin/extensions/list'))
      return admin ? json({ extensions: rows }) : json(null, 403, 403001, 'Only a platform administrator may do this.');
    if (url.startsWith('/api/extensions'))
      return json({ platformName: 'Tessera Studio', extensions: rows.map(({ contributions: _c, ...r }) => r) });
    if (url.startsWith('/api/admin/extensions/preview'))
      return json({
        changes: [
          { id: 'workflow', change: 'disable', reason: 'disabled by configuration' },
          {
            id: 'text-stats',
            change: 'disable',
            reason: "requires 'workflow', which is disabled (disabled by configuration)",
          },
        ],
      });
    if (url.startsWith('/api/admin/extensions/set_enabled')) return json({ changes: [] });
    return json(null, 404, 404002, 'no');
  }) as unknown as typeof globalThis.fetch;
  return { fetch, posted };
}

afterEach(cleanup);

describe('the Extensions settings page', () => {
  it('shows everyone what runs and why the others do not, in their language, without actions', async () => {
    await renderExtension(client, { path: '/settings/extensions', fetch: fakeServer(false).fetch, language: 'zh-CN' });
    await waitFor(() => expect(screen.getByText("requires 'billing', which is disabled")).toBeTruthy());
    expect(screen.getByTestId('ext-state-billing').textContent).toBe('已停用');
    expect(screen.queryByTestId('extensions-install')).toBeNull();
    expect(screen.queryByTestId('ext-toggle-workflow')).toBeNull();
  });

  it('lets an administrator disable an extension after showing the cascade', async () => {
    const server = fakeServer(true);
    await renderExtension(client, { path: '/settings/extensions', fetch: server.fetch });
    expect((await screen.findByTestId('ext-toggle-workflow')).textContent).toBe('Disable');
    expect(screen.getByTestId('ext-toggle-billing').textContent).toBe('Enable');
    expect(screen.getByTestId('ext-remove-text-stats')).toBeTruthy();
    expect(screen.queryByTestId('ext-remove-workflow')).toBeNull();
    fireEvent.click(screen.getByTestId('ext-toggle-workflow'));
    await waitFor(() =>
      expect(screen.getAllByTestId('cascade-item').map((e) => `${e.dataset.id}:${e.dataset.change}`)).toEqual([
        'workflow:disable',
        'text-stats:disable',
      ]),
    );
    fireEvent.click(screen.getByText('Confirm'));
    await waitFor(() =>
      expect(server.posted.find((p) => p.url.startsWith('/api/admin/extensions/set_enabled'))?.body).toEqual({
        changes: { workflow: false },
      }),
    );
  });

  it('names each extension in the language shown, with its id and what it adds, and finds one by any of them', async () => {
    await renderExtension(client, { path: '/settings/extensions', fetch: fakeServer(false).fetch, language: 'zh-CN' });
    await waitFor(() => expect(screen.getByTestId('ext-name-workflow').textContent).toBe('工作流'));
    expect(screen.getByTestId('ext-workflow').textContent).toContain('画布与运行。');
    expect(screen.getByTestId('ext-workflow').textContent).toContain('workflow');
    // One without a name shows its id.
    expect(screen.getByTestId('ext-name-billing').textContent).toBe('billing');
    const search = screen.getByTestId('extensions-search');
    fireEvent.change(search.querySelector('input') ?? search, { target: { value: '画布' } });
    await waitFor(() => expect(screen.queryByTestId('ext-billing')).toBeNull());
    expect(screen.getByTestId('ext-workflow')).toBeTruthy();
    fireEvent.change(search.querySelector('input') ?? search, { target: { value: 'stats' } });
    await waitFor(() => expect(screen.queryByTestId('ext-workflow')).toBeNull());
    expect(screen.getByTestId('ext-text-stats')).toBeTruthy();
  });
});
