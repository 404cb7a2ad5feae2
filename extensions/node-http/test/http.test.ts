import { describe, expect, it } from 'vitest';
import type { CanvasNode, NodeRunContext } from '@tessera/ext-workflow/shared';
import { http, HttpSettings } from '../src/server/http-node.ts';

function ctxWith(
  settings: Record<string, unknown>,
  inputs: Record<string, unknown>,
  fetchImpl: (url: string, init: RequestInit & { timeoutMs?: number }) => Promise<Response>,
) {
  const node: CanvasNode = {
    node_id: 'h',
    type: '45',
    node_param: { inputs: [], outputs: [], settings },
    layout: { x: 0, y: 0 },
  };
  return {
    node,
    settings: HttpSettings.parse(settings),
    inputs,
    signal: new AbortController().signal,
    render: (t: string) => t.replace(/\{\{(\w+)\}\}/g, (_, k) => String(inputs[k] ?? '')),
    span: (_n: string, _a: unknown, fn: () => Promise<unknown>) => fn(),
    fetch: fetchImpl,
  } as unknown as NodeRunContext;
}

describe('the HTTP node', () => {
  it('builds the request from templates: query, headers, auth and a JSON body', async () => {
    let seen: { url: string; init: RequestInit } | undefined;
    const r = await http.execute(
      ctxWith(
        {
          method: 'POST',
          url: 'https://api.example.com/items/{{id}}',
          query: [{ name: 'q', value: '{{term}}' }],
          headers: [{ name: 'x-trace', value: 't-{{id}}' }],
          auth: { type: 'header', name: 'x-key', value: 'k' },
          body: { type: 'json', content: '{"term":"{{term}}"}' },
        },
        { id: '7', term: 'red shoes' },
        async (url, init) => (
          (seen = { url, init }),
          new Response('{"ok":true}', { status: 201, headers: { 'x-r': '1' } })
        ),
      ),
    );
    expect(seen!.url).toBe('https://api.example.com/items/7?q=red+shoes');
    const headers = seen!.init.headers as Headers;
    expect([headers.get('x-trace'), headers.get('x-key'), headers.get('content-type')]).toEqual([
      't-7',
      'k',
      'application/json',
    ]);
    expect(seen!.init.body).toBe('{"term":"red shoes"}');
    expect(r).toMatchObject({ outputs: { body: '{"ok":true}', statusCode: 201 } });
    expect(JSON.parse((r as { outputs: { headers: string } }).outputs.headers)['x-r']).toBe('1');
  });

  it('encodes form bodies and names a JSON body that is not JSON after filling in', async () => {
    let body: unknown;
    await http.execute(
      ctxWith(
        {
          method: 'POST',
          url: 'https://x.example/',
          body: { type: 'urlencoded', fields: [{ name: 'a', value: '{{v}}' }] },
        },
        { v: '1 2' },
        async (_u, init) => ((body = init.body), new Response('')),
      ),
    );
    expect(String(body)).toBe('a=1+2');
    await expect(
      http.execute(
        ctxWith(
          { url: 'https://x.example/', method: 'POST', body: { type: 'json', content: '{"a": {{v}} }' } },
          { v: 'not json' },
          async () => new Response(''),
        ),
      ),
    ).rejects.toThrow(/not valid JSON after filling in/);
  });

  it('retries server errors and reports the last failure', async () => {
    let calls = 0;
    const ok = await http.execute(
      ctxWith({ url: 'https://x.example/', retries: 2 }, {}, async () =>
        ++calls < 3 ? new Response('', { status: 503 }) : new Response('fine'),
      ),
    );
    expect(calls).toBe(3);
    expect(ok).toMatchObject({ outputs: { body: 'fine', statusCode: 200 } });
    await expect(
      http.execute(
        ctxWith({ url: 'https://x.example/' }, {}, async () => Promise.reject(new Error('connection refused'))),
      ),
    ).rejects.toThrow('The request failed: connection refused');
  });
});
