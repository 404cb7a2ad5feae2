import { describe, expect, it } from 'vitest';
import { EventBus, type ReportedError } from '@tessera/core';
import { ApiError, CountryRestricted, ErrorCode, TokenInsufficient, Unauthorized } from '../src/index.ts';
import { createRequestClient, parseSse, toQueryString, type ServerSentEvent } from '../src/client/request.ts';

function respond(status: number, body: unknown, logId = 'LOG1') {
  return (async () =>
    new Response(typeof body === 'string' ? body : JSON.stringify(body), {
      status,
      headers: { 'x-tt-logid': logId },
    })) as unknown as typeof fetch;
}

function client(f: typeof fetch) {
  const bus = new EventBus();
  const events: string[] = [];
  for (const e of [Unauthorized, CountryRestricted, TokenInsufficient]) bus.on(e).subscribe(() => events.push(e.name));
  const notices: ApiError[] = [];
  const reports: Omit<ReportedError, 'timestamp'>[] = [];
  const redirects: string[] = [];
  const api = createRequestClient({
    fetch: f,
    bus,
    notify: (e) => notices.push(e),
    report: (r) => reports.push(r),
    redirect: (u) => redirects.push(u),
  });
  return { api, events, notices, reports, redirects };
}

describe('request client', () => {
  it('unwraps the envelope', async () => {
    const { api } = client(respond(200, { code: 0, msg: '', data: { a: 1 } }));
    await expect(api.get('/api/x')).resolves.toEqual({ a: 1 });
  });

  it('shows a notice with the log id for a failure with a message and reports it', async () => {
    const { api, notices, reports } = client(respond(403, { code: 403001, msg: 'No access' }, 'L-403'));
    const err = await api.post('/api/x', {}).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(String(err)).toBe('403 403001 No access L-403');
    expect(notices.map((n) => `${n.msg}|${n.logId}`)).toEqual(['No access|L-403']);
    expect(reports[0].api).toMatchObject({ status: 403, code: 403001, logId: 'L-403' });
  });

  it('classes 2xx with a non-zero code as a business error', async () => {
    const { api } = client(respond(200, { code: 123, msg: 'quota' }));
    expect(((await api.get('/api/x').catch((e) => e)) as ApiError).kind).toBe('business');
  });

  it('suppresses the notice when asked, but still reports', async () => {
    const { api, notices, reports } = client(respond(400, { code: 400001, msg: 'bad' }));
    await api.get('/api/x', undefined, { suppressNotice: true }).catch(() => undefined);
    expect(notices).toEqual([]);
    expect(reports).toHaveLength(1);
  });

  it('neither shows nor reports an error the caller handles, and still throws it', async () => {
    const { api, notices, reports } = client(respond(409, { code: 409001, msg: 'changed' }));
    const err = (await api.post('/api/x', {}, { handled: (e) => e.status === 409 }).catch((e) => e)) as ApiError;
    expect(err.code).toBe(409001);
    expect(notices).toEqual([]);
    expect(reports).toEqual([]);
  });

  it('raises events for the special codes without a notice', async () => {
    for (const [code, name] of [
      [ErrorCode.UNAUTHORIZED, 'api.unauthorized'],
      [ErrorCode.COUNTRY_RESTRICTED, 'api.countryRestricted'],
      [ErrorCode.TOKEN_INSUFFICIENT, 'api.tokenInsufficient'],
      [ErrorCode.TOKEN_INSUFFICIENT_BOT, 'api.tokenInsufficient'],
    ] as const) {
      const { api, events, notices } = client(respond(200, { code, msg: 'special' }));
      await api.get('/api/x').catch(() => undefined);
      expect(events).toEqual([name]);
      expect(notices).toEqual([]);
    }
  });

  it('follows data.redirect_uri on an HTTP 401', async () => {
    const { api, redirects } = client(
      respond(401, { code: 401001, msg: 'sign in', data: { redirect_uri: '/sign-in?next=%2F' } }),
    );
    await api.get('/api/x').catch(() => undefined);
    expect(redirects).toEqual(['/sign-in?next=%2F']);
  });

  it('turns a network failure into an API error', async () => {
    const { api, notices } = client(async () => {
      throw new TypeError('fetch failed');
    });
    const err = (await api.get('/api/x').catch((e) => e)) as ApiError;
    expect(err.code).toBe(ErrorCode.UNAVAILABLE);
    expect(notices[0].msg).toMatch(/Network error/);
  });

  it('joins array query parameters with commas', () => {
    expect(toQueryString({ ids: [1, 2, 3], q: 'a b', skip: undefined })).toBe('?ids=1%2C2%2C3&q=a%20b');
  });

  it('reads a server-sent event stream split anywhere across chunks', async () => {
    const chunks = [
      'id: 0\nevent: Node\ndata: {"a"',
      ':1}\n\nevent: Message\ndata: line one\ndata: line two\n',
      '\n: a comment\n\nevent: Done\ndata: {}\n\n',
    ];
    const f = (async () =>
      new Response(
        new ReadableStream({
          start(c) {
            for (const x of chunks) c.enqueue(new TextEncoder().encode(x));
            c.close();
          },
        }),
        { status: 200, headers: { 'content-type': 'text/event-stream' } },
      )) as unknown as typeof fetch;
    const { api } = client(f);
    const seen: ServerSentEvent[] = [];
    await api.stream('/api/run', { a: 1 }, (e) => seen.push(e));
    expect(seen).toEqual([
      { event: 'Node', data: '{"a":1}', id: '0' },
      { event: 'Message', data: 'line one\nline two' },
      { event: 'Done', data: '{}' },
    ]);
    expect(parseSse('event: x\ndata: 1\n\nevent: y').rest).toBe('event: y');
  });

  it('fails a stream whose answer is an error envelope like any call', async () => {
    const { api, notices } = client(respond(400, { code: 400001, msg: 'The workflow has 1 problem(s)' }));
    const err = (await api.stream('/api/run', {}, () => undefined).catch((e) => e)) as ApiError;
    expect(err.msg).toMatch(/problem/);
    expect(notices).toHaveLength(1);
  });
});
