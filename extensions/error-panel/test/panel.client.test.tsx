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
    act(() => r.studio.host.report({ source: 'request', message: 'Quota', api: { status: 400, code: 400001, msg: 'Name is too long', logId: 'LOG-1', url: '/api/x' } }));
    expect(await screen.findByText('Name is too long')).toBeTruthy();
    expect(screen.getByText('400 · 400001 · LOG-1')).toBeTruthy();
    expect(screen.getByTestId('error-panel').dataset.state).toBe('popup');
    for (let i = 0; i < 4; i++) act(() => r.studio.host.report({ source: 'render', message: `render ${i}` }));
    fireEvent.click(screen.getByText('还有 2 条消息'));
    expect(screen.getByTestId('error-panel').dataset.state).toBe('expanded');
    expect(screen.getByText('错误信息')).toBeTruthy();
    expect(screen.getAllByTestId('error-panel-item')).toHaveLength(5);
  });

  it('ignores failed requests without a message and the special codes', async () => {
    const r = await renderExtension(errorPanel, { path: '/x' });
    act(() => r.studio.host.report({ source: 'request', message: '', api: { status: 502, code: 502001, msg: '', logId: 'L' } }));
    act(() => r.studio.host.report({ source: 'request', message: 'sign in', api: { status: 401, code: 700012006, msg: 'sign in', logId: 'L' } }));
    expect(screen.queryByTestId('error-panel')).toBeNull();
  });

  it('falls back to a red icon and reports when the panel itself crashes', async () => {
    const broken = { subscribe: () => () => undefined, getSnapshot: () => { throw new Error('corrupt state'); }, setPath: () => undefined } as unknown as ErrorPanelStore;
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
    await waitFor(() => expect(reports.some((e) => e.source === 'panel' && e.message.includes('corrupt state'))).toBe(true));
  });
});
