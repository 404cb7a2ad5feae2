import type { EventBus, HookCaller, ReportedError } from '@tessera/core';
import {
  ApiError,
  ErrorCode,
  LOG_ID_HEADER,
  SPECIAL_CODES,
  type Endpoint,
  fillEndpointPath,
  type EndpointInput,
  type EndpointOutput,
} from '../api.ts';
import { CountryRestricted, TokenInsufficient, Unauthorized } from '../events.ts';
import type { OutgoingRequest } from './points.ts';

export interface RequestOptions {
  method?: string;
  url: string;
  body?: unknown;
  query?: Record<string, string | number | boolean | (string | number)[] | undefined | null>;
  headers?: Record<string, string>;
  /**
   * Do not show the error notice for this call: it is reported to the error sinks, so the error panel
   * shows it instead (one place per error).
   */
  suppressNotice?: boolean;
  /** Errors the caller handles itself (a save conflict it resolves with the user): neither shown nor reported. */
  handled?(err: ApiError): boolean;
  signal?: AbortSignal;
}

export interface RequestClient {
  request<T = unknown>(opts: RequestOptions): Promise<T>;
  get<T = unknown>(url: string, query?: RequestOptions['query'], opts?: Partial<RequestOptions>): Promise<T>;
  post<T = unknown>(url: string, body?: unknown, opts?: Partial<RequestOptions>): Promise<T>;
  /** Calls an endpoint (its contract from the owner's `shared/`): the input and the answer typed by its schemas. */
  call<E extends Endpoint>(
    endpoint: E,
    input: EndpointInput<E>,
    opts?: Partial<RequestOptions>,
  ): Promise<EndpointOutput<E>>;
  /**
   * POSTs and reads the server-sent events of the answer, calling onEvent for each; resolves when the
   * stream ends. An answer that is not a stream (an error envelope) fails like post.
   */
  stream(
    url: string,
    body: unknown,
    onEvent: (e: ServerSentEvent) => void,
    opts?: Partial<RequestOptions>,
  ): Promise<void>;
  /** POSTs and reads an answer that is not JSON (audio, a file) as a Blob; an error envelope fails like post. */
  blob(url: string, body: unknown, opts?: Partial<RequestOptions>): Promise<Blob>;
}

export interface ServerSentEvent {
  event: string;
  data: string;
  id?: string;
}

/** Splits server-sent event text into events; returns the events and what is left of an unfinished one. */
export function parseSse(buffer: string): { events: ServerSentEvent[]; rest: string } {
  const events: ServerSentEvent[] = [];
  const blocks = buffer.split(/\r?\n\r?\n/);
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    const e: ServerSentEvent = { event: 'message', data: '' };
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (!line || line.startsWith(':')) continue;
      const i = line.indexOf(':');
      const field = i < 0 ? line : line.slice(0, i);
      const value = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
      if (field === 'event') e.event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id') e.id = value;
    }
    e.data = data.join('\n');
    if (data.length || e.event !== 'message') events.push(e);
  }
  return { events, rest };
}

export interface RequestClientDeps {
  interceptors?: HookCaller<[OutgoingRequest], OutgoingRequest>;
  bus?: EventBus;
  report?: (e: Omit<ReportedError, 'timestamp'>) => void;
  /** Shows the error notice (message, log id, copy). */
  notify?: (err: ApiError) => void;
  fetch?: typeof fetch;
  /** Where a 401 with data.redirect_uri sends the browser. */
  redirect?: (uri: string) => void;
}

/** Query strings: arrays are joined by commas (the marketplace convention of spec 000). */
export function toQueryString(query: RequestOptions['query']): string {
  if (!query) return '';
  const parts: string[] = [];
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(Array.isArray(v) ? v.join(',') : String(v))}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

/**
 * The one request client: applies the interceptors, unwraps the envelope, raises the special-code
 * events (without a toast), shows a notice with the log id otherwise, reports every failure to the sinks.
 */
export function createRequestClient(deps: RequestClientDeps = {}): RequestClient {
  const doFetch = deps.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  /** Applies the interceptors and sends; a network failure is an ApiError (reported). */
  const send = async (opts: RequestOptions, accept = 'application/json'): Promise<{ res: Response; url: string }> => {
    let out: OutgoingRequest = {
      method: (opts.method ?? 'GET').toUpperCase(),
      url: opts.url + toQueryString(opts.query),
      // A form (file uploads) carries its own multipart type and boundary.
      headers: {
        accept,
        ...(opts.body !== undefined && !(opts.body instanceof FormData) ? { 'content-type': 'application/json' } : {}),
        ...opts.headers,
      },
      body: opts.body,
    };
    if (deps.interceptors && deps.interceptors.size) out = (await deps.interceptors.call(out)) ?? out;
    try {
      const res = await doFetch(out.url, {
        method: out.method,
        headers: out.headers,
        body:
          out.body === undefined
            ? undefined
            : typeof out.body === 'string' || out.body instanceof FormData
              ? (out.body as BodyInit)
              : JSON.stringify(out.body),
        credentials: 'same-origin',
        signal: opts.signal,
      });
      return { res, url: out.url };
    } catch (e) {
      if (e instanceof Error && e.name === 'AbortError') throw e;
      const err = new ApiError(
        0,
        ErrorCode.UNAVAILABLE,
        `Network error: ${e instanceof Error ? e.message : 'the server could not be reached'}. Check your connection and try again.`,
        '',
        { kind: 'api' },
      );
      console.warn('[request] network error', out.method, out.url, e);
      fail(err, opts, out.url);
      throw err;
    }
  };

  /** The envelope's data, or the error it carries (shown and reported as the options say). */
  const unwrap = async <T>(res: Response, opts: RequestOptions, url: string): Promise<T> => {
    const logId = res.headers.get(LOG_ID_HEADER) ?? '';
    let body: any = undefined;
    const text = await res.text();
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    if (res.status === 401 && typeof body?.data?.redirect_uri === 'string') {
      (deps.redirect ?? ((u) => window.location.assign(u)))(body.data.redirect_uri);
    }
    if (res.ok && body && typeof body === 'object' && 'code' in body && body.code === 0) return body.data as T;
    let err: ApiError;
    if (body && typeof body === 'object' && typeof body.code === 'number') {
      err = new ApiError(res.status, body.code, String(body.msg ?? ''), logId, {
        kind: res.ok ? 'business' : 'api',
        detail: body.data ?? undefined,
      });
    } else {
      err = new ApiError(
        res.status,
        res.ok ? ErrorCode.INTERNAL : res.status * 1000 + 1,
        res.ok ? 'The server answered without an envelope.' : `${res.status} ${res.statusText}`.trim(),
        logId,
        { kind: 'unknown' },
      );
    }
    fail(err, opts, url);
    throw err;
  };

  const request = async <T>(opts: RequestOptions): Promise<T> => {
    const { res, url } = await send(opts);
    return unwrap<T>(res, opts, url);
  };

  const blob = async (url: string, body: unknown, o: Partial<RequestOptions> = {}): Promise<Blob> => {
    const opts: RequestOptions = { ...o, method: 'POST', url, body: body ?? {} };
    const sent = await send(opts, '*/*');
    if (!sent.res.ok || (sent.res.headers.get('content-type') ?? '').includes('application/json')) {
      await unwrap(sent.res, opts, sent.url);
      throw new ApiError(
        sent.res.status,
        ErrorCode.INTERNAL,
        'The server answered JSON where a file was expected.',
        '',
      );
    }
    return sent.res.blob();
  };

  const stream = async (
    url: string,
    body: unknown,
    onEvent: (e: ServerSentEvent) => void,
    o: Partial<RequestOptions> = {},
  ): Promise<void> => {
    const opts: RequestOptions = { ...o, method: 'POST', url, body: body ?? {} };
    const sent = await send(opts, 'text/event-stream');
    if (!sent.res.ok || !sent.res.body || !(sent.res.headers.get('content-type') ?? '').includes('text/event-stream')) {
      await unwrap(sent.res, opts, sent.url);
      return;
    }
    const reader = sent.res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      const { events, rest } = parseSse(done ? `${buffer}\n\n` : buffer);
      buffer = rest;
      for (const e of events) onEvent(e);
      if (done) return;
    }
  };

  function fail(err: ApiError, opts: RequestOptions, url: string) {
    if (opts.handled?.(err)) return;
    const payload = { url, logId: err.logId };
    // One place per error: a handled one nowhere (its caller shows it), else the notice, else (notice
    // suppressed, or no message) the error sinks' displays such as the error panel.
    let shown = false;
    if (SPECIAL_CODES.has(err.code)) {
      if (err.code === ErrorCode.UNAUTHORIZED) deps.bus?.emit(Unauthorized, payload);
      else if (err.code === ErrorCode.COUNTRY_RESTRICTED) deps.bus?.emit(CountryRestricted, payload);
      else deps.bus?.emit(TokenInsufficient, { ...payload, code: err.code });
    } else if (err.msg && !opts.suppressNotice && deps.notify) {
      deps.notify(err);
      shown = true;
    }
    deps.report?.({
      source: 'request',
      message: err.msg || `Request failed: ${url}`,
      error: err,
      api: { status: err.status, code: err.code, msg: err.msg, logId: err.logId, url },
      detail: { kind: err.kind, suppressed: !!opts.suppressNotice || SPECIAL_CODES.has(err.code), shown },
    });
  }

  return {
    request,
    get: (url, query, o) => request({ ...o, method: 'GET', url, query }),
    post: (url, body, o) => request({ ...o, method: 'POST', url, body: body ?? {} }),
    call: (endpoint, input, o) => {
      const { url, rest } = fillEndpointPath(endpoint.path, input);
      return endpoint.method === 'GET' || (endpoint.method === 'DELETE' && !endpoint.body)
        ? request({ ...o, method: endpoint.method, url, query: (rest ?? undefined) as RequestOptions['query'] })
        : request({ ...o, method: endpoint.method, url, body: rest ?? {} });
    },
    stream,
    blob,
  };
}
