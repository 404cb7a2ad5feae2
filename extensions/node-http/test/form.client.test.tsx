import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderNodeForm } from '@tessera/ext-workflow/testing';
import enUS from '../src/locales/en-US.json';
import zhCN from '../src/locales/zh-CN.json';
import { HttpForm } from '../src/client/form.tsx';

afterEach(cleanup);

const base = {
  method: 'GET',
  url: '',
  headers: [],
  query: [],
  auth: { type: 'none' },
  body: { type: 'none' },
  timeout_ms: 30000,
  retries: 0,
};
const render = (
  settings: Record<string, unknown>,
  opts: { problems?: Record<string, string>; language?: 'en-US' | 'zh-CN' } = {},
) =>
  renderNodeForm({
    extension: 'node-http',
    locales: { 'en-US': enUS, 'zh-CN': zhCN },
    Form: HttpForm,
    param: { inputs: [{ name: 'id', type: 'string', value: { kind: 'literal', value: '' } }], settings },
    upstream: [{ node_id: 'start', node_title: 'Start', field: { name: 'q', type: 'string' } }],
    language: 'en-US',
    ...opts,
  });

describe('the HTTP request form', () => {
  it('edits the URL with completion, a query parameter, bearer auth and a JSON body', async () => {
    const form = await render(base);
    const url = screen.getByTestId<HTMLTextAreaElement>('http-url');
    expect(url.placeholder).toBe('https://api.example.com/items/{{id}}');
    fireEvent.change(url, {
      target: { value: 'https://api.example.com/items/{{', selectionStart: 32, selectionEnd: 32 },
    });
    fireEvent.mouseDown(await screen.findByText('id'));
    await waitFor(() => expect(form.settings()!.url).toBe('https://api.example.com/items/{{id}}'));
    fireEvent.click(screen.getByTestId('http-query-add'));
    fireEvent.change(screen.getByTestId('http-query-0-name'), { target: { value: 'q' } });
    fireEvent.change(screen.getByTestId('http-query-0-value'), { target: { value: '{{start.q}}' } });
    fireEvent.click(screen.getByTestId('http-auth'));
    fireEvent.click(await screen.findByText('Bearer token'));
    fireEvent.change(screen.getByTestId('http-auth-token'), { target: { value: 'sk-1' } });
    fireEvent.click(screen.getByTestId('http-body-type'));
    fireEvent.click(await screen.findByText('JSON'));
    await waitFor(() =>
      expect(form.settings()).toMatchObject({
        query: [{ name: 'q', value: '{{start.q}}' }],
        auth: { type: 'bearer', token: 'sk-1' },
        body: { type: 'json', content: '{}' },
      }),
    );
  });

  it('shows the problem with the URL, in Chinese', async () => {
    await render({ ...base }, { problems: { 'settings.url': 'Give the URL.' }, language: 'zh-CN' });
    expect(screen.getByTestId('field-problem').textContent).toBe('Give the URL.');
    expect(screen.getByText('鉴权')).toBeTruthy();
  });
});
