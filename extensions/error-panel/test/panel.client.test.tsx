import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderExtension } from '@tessera/sdk/testing/client';
import { defineExtension } from '@tessera/sdk/client';
import type { ReportedError } from '@tessera/sdk';
import errorPanel from '../src/client/index.tsx';
import { ErrorPanelRoot } from '../src/client/ErrorPanel.tsx';
import type { ErrorPanelStore } from '../src/client/store.ts';

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

describe('error panel in the shell', () => {
  it('turns a reported API error into a popup message with status, code and log id, in the chosen language', async () => {
    const r = await renderExtension(errorPanel, { path: '/x', language: 'zh-CN' });
    act(() =>
      r.studio.host.report({
        source: 'request',
        message: 'Quota',
        api: { status: 400, code: 400001, msg: 'Name is too long', logId: 'LOG-1', url: '/api/x' },
      }),
    );
    expect(await screen.findByText('Name is too long')).toBeTruthy();
    expect(screen.getByText('400 · 400001 · LOG-1')).toBeTruthy();
    expect(screen.getByTestId('error-panel').dataset.state).toBe('popup');
    for (let i = 0; i < 4; i++) act(() => r.studio.host.report({ source: 'render', message: `render ${i}` }));
    fireEvent.click(screen.getByText('还有 2 条消息'));
    expect(screen.getByTestId('error-panel').dataset.state).toBe('expanded');
    expect(screen.getByText('错误信息')).toBeTruthy();
    expect(screen.getAllByTestId('error-panel-item')).toHaveLength(5);
  });

  it('ignores failed requests without a message, the special codes, and those the error notice already showed', async () => {
    const r = await renderExtension(errorPanel, { path: '/x' });
    act(() =>
      r.studio.host.report({ source: 'request', message: '', api: { status: 502, code: 502001, msg: '', logId: 'L' } }),
    );
    act(() =>
      r.studio.host.report({
        source: 'request',
        message: 'sign in',
        api: { status: 401, code: 700012006, msg: 'sign in', logId: 'L' },
      }),
    );
    act(() =>
      r.studio.host.report({
        source: 'request',
        message: 'shown',
        api: { status: 400, code: 400001, msg: 'shown', logId: 'L' },
        detail: { shown: true },
      }),
    );
    expect(screen.queryByTestId('error-panel')).toBeNull();
  });

  it('shows one failed request in one place: the notice, or the panel when the caller suppressed the notice', async () => {
    const fail = (async () =>
      new Response(JSON.stringify({ code: 400001, msg: 'Name is too long' }), {
        status: 400,
        headers: { 'content-type': 'application/json', 'x-tt-logid': 'L9' },
      })) as unknown as typeof fetch;
    // A path of its own: earlier tests' panels (still open in this process) sync their paths' messages.
    const r = await renderExtension(errorPanel, { path: '/one-place', fetch: fail });
    await act(() => r.studio.api.get('/api/x').catch(() => undefined));
    expect(r.notices).toEqual([{ msg: 'Name is too long', logId: 'L9' }]);
    expect(screen.queryByTestId('error-panel')).toBeNull();
    await act(() => r.studio.api.get('/api/x', undefined, { suppressNotice: true }).catch(() => undefined));
    expect(r.notices).toHaveLength(1);
    expect(await screen.findByText('Name is too long')).toBeTruthy();
    await act(() => r.studio.api.get('/api/x', undefined, { handled: () => true }).catch(() => undefined));
    expect(r.notices).toHaveLength(1);
    expect(screen.getAllByText('Name is too long')).toHaveLength(1);
  });

  it('falls back to a red icon and reports when the panel itself crashes', async () => {
    const broken = {
      subscribe: () => () => undefined,
      getSnapshot: () => {
        throw new Error('corrupt state');
      },
      setPath: () => undefined,
    } as unknown as ErrorPanelStore;
    const reports: ReportedError[] = [];
    const host = defineExtension({
      id: 'crash-host',
      register(ctx) {
        ctx.errorSink('collect', (e) => void reports.push(e));
        ctx.panel({ key: 'broken-panel', component: () => <ErrorPanelRoot store={broken} /> });
      },
    });
    await renderExtension(host, { path: '/' });
    expect(await screen.findByTestId('error-panel-crashed')).toBeTruthy();
    await waitFor(() =>
      expect(reports.some((e) => e.source === 'panel' && e.message.includes('corrupt state'))).toBe(true),
    );
  });
});
