import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { renderExtension } from '@tessera/sdk/testing/client';
import home from '../src/client/index.tsx';

const extensions = {
  platformName: 'Tessera Studio',
  extensions: [
    { id: 'home', version: '0.1.0', state: 'started', source: 'builtin' },
    { id: 'billing', version: '0.1.0', state: 'disabled', source: 'builtin', reason: 'disabled by configuration' },
    { id: 'invoices', version: '0.1.0', state: 'disabled', source: 'builtin', reason: "requires 'billing', which is disabled" },
  ],
};
const fakeFetch = (async (url: string) =>
  new Response(JSON.stringify(url.startsWith('/api/extensions') ? { code: 0, msg: '', data: extensions } : { code: 404002, msg: 'no' }), {
    status: url.startsWith('/api/extensions') ? 200 : 404,
    headers: { 'content-type': 'application/json', 'x-tt-logid': 'L1' },
  })) as unknown as typeof fetch;

afterEach(cleanup);

describe('home extension', () => {
  it('shows the welcome page with its sidebar entry, in English', async () => {
    await renderExtension(home, { path: '/', fetch: fakeFetch });
    expect(await screen.findByText('Welcome to Tessera Studio')).toBeTruthy();
    expect(screen.getByTestId('sidebar-home').textContent).toBe('Home');
    expect(document.title).toBe('Home - Tessera Studio');
  });

  it('speaks Chinese when the language is zh-CN', async () => {
    await renderExtension(home, { path: '/', fetch: fakeFetch, language: 'zh-CN' });
    expect(await screen.findByText('欢迎使用 Tessera Studio')).toBeTruthy();
  });
});
