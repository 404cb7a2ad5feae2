import { describeError } from '@tessera/sdk';
import type { NodeTypeDefinition } from '@tessera/ext-workflow/shared';
import { z } from 'zod';

const Pair = z.object({ name: z.string().min(1), value: z.string() });
export const HttpSettings = z.object({
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']).default('GET'),
  /** A template: {{input}} and {{node_id.path}} are filled in (and URL-encoded in the query part). */
  url: z.string().min(1, 'Give the URL.').max(8000),
  headers: z.array(Pair).max(50).default([]),
  query: z.array(Pair).max(50).default([]),
  auth: z
    .discriminatedUnion('type', [
      z.object({ type: z.literal('none') }),
      z.object({ type: z.literal('bearer'), token: z.string() }),
      z.object({ type: z.literal('header'), name: z.string().min(1), value: z.string() }),
      z.object({ type: z.literal('query'), name: z.string().min(1), value: z.string() }),
    ])
    .default({ type: 'none' }),
  body: z
    .discriminatedUnion('type', [
      z.object({ type: z.literal('none') }),
      z.object({ type: z.literal('json'), content: z.string() }),
      z.object({ type: z.literal('raw'), content: z.string(), content_type: z.string().default('text/plain') }),
      z.object({ type: z.literal('form-data'), fields: z.array(Pair) }),
      z.object({ type: z.literal('urlencoded'), fields: z.array(Pair) }),
      z.object({
        type: z.literal('binary'),
        input: z.string().min(1),
        content_type: z.string().default('application/octet-stream'),
      }),
    ])
    .default({ type: 'none' }),
  timeout_ms: z.number().int().min(100).max(300_000).default(30_000),
  retries: z.number().int().min(0).max(5).default(0),
});
type Settings = z.infer<typeof HttpSettings>;

const MAX_BODY = 5 * 1024 * 1024;

export const http: NodeTypeDefinition = {
  key: 'http',
  // GET and HEAD read; other methods may change something on the other side.
  repeatSafe: (s) => s.method === undefined || s.method === 'GET' || s.method === 'HEAD',
  code: 45,
  category: 'utility',
  label: { 'en-US': 'HTTP request', 'zh-CN': 'HTTP 请求' },
  description: {
    'en-US': 'Calls an HTTP API; outputs body, statusCode and headers.',
    'zh-CN': '调用 HTTP 接口；输出 body、statusCode 和 headers。',
  },
  settings: HttpSettings,
  outputsOf: () => [
    { name: 'body', type: 'string' },
    { name: 'statusCode', type: 'integer' },
    { name: 'headers', type: 'string' },
  ],
  async execute(ctx) {
    const s = ctx.settings as Settings;
    const url = new URL(ctx.render(s.url));
    for (const q of s.query) url.searchParams.append(q.name, ctx.render(q.value));
    const headers = new Headers();
    for (const h of s.headers) headers.set(h.name, ctx.render(h.value));
    if (s.auth.type === 'bearer') headers.set('authorization', `Bearer ${ctx.render(s.auth.token)}`);
    if (s.auth.type === 'header') headers.set(s.auth.name, ctx.render(s.auth.value));
    if (s.auth.type === 'query') url.searchParams.set(s.auth.name, ctx.render(s.auth.value));
    let body: BodyInit | undefined;
    switch (s.body.type) {
      case 'json': {
        const text = ctx.render(s.body.content);
        try {
          JSON.parse(text);
        } catch (e) {
          throw new Error(`The JSON body is not valid JSON after filling in the variables: ${describeError(e)}`);
        }
        body = text;
        headers.set('content-type', 'application/json');
        break;
      }
      case 'raw':
        body = ctx.render(s.body.content);
        headers.set('content-type', s.body.content_type);
        break;
      case 'form-data': {
        const form = new FormData();
        for (const f of s.body.fields) form.append(f.name, ctx.render(f.value));
        body = form;
        break;
      }
      case 'urlencoded':
        body = new URLSearchParams(s.body.fields.map((f) => [f.name, ctx.render(f.value)]));
        break;
      case 'binary': {
        const v = ctx.inputs[s.body.input];
        body = new Uint8Array(
          typeof v === 'string'
            ? Buffer.from(v, 'base64')
            : v instanceof Uint8Array
              ? v
              : Buffer.from(JSON.stringify(v ?? null)),
        ) as unknown as BodyInit;
        headers.set('content-type', s.body.content_type);
        break;
      }
    }
    let last: unknown;
    for (let attempt = 0; attempt <= s.retries; attempt++) {
      try {
        return await ctx.span(
          'http request',
          { method: s.method, url: `${url.origin}${url.pathname}`, attempt },
          async () => {
            const res = await ctx.fetch(url.toString(), {
              method: s.method,
              headers,
              body: s.method === 'GET' || s.method === 'HEAD' ? undefined : body,
              timeoutMs: s.timeout_ms,
            });
            const buf = new Uint8Array(await res.arrayBuffer());
            if (buf.byteLength > MAX_BODY) throw new Error(`The response is larger than ${MAX_BODY / 1024 / 1024} MB.`);
            const text = new TextDecoder().decode(buf);
            if (res.status >= 500 && attempt < s.retries) throw new Error(`HTTP ${res.status}`);
            return {
              outputs: { body: text, statusCode: res.status, headers: JSON.stringify(Object.fromEntries(res.headers)) },
            };
          },
        );
      } catch (e) {
        last = e;
        if (ctx.signal.aborted) break;
      }
    }
    const err = last instanceof Error ? last : undefined;
    throw new Error(
      err?.name === 'TimeoutError' || /aborted|timeout/i.test(err?.message ?? '')
        ? `The request timed out after ${s.timeout_ms} ms.`
        : `The request failed: ${err?.message ?? err}`,
    );
  },
};
