import type { EventBus, HookCaller, ReportedError } from '@tessera/core';
import { ApiError, ErrorCode, LOG_ID_HEADER, SPECIAL_CODES } from '../api.ts';
import { CountryRestricted, TokenInsufficient, Unauthorized } from '../events.ts';
import type { OutgoingRequest } from './points.ts';

export interface RequestOptions {
  method?: string;
  url: string;
  body?: unknown;
  query?: Record<string, string | number | boolean | (string | number)[] | undefined | null>;
  headers?: Record<string, string>;
  /** Do not show the error notice for this call (it is still reported to the error sinks). */
  suppressNotice?: boolean;
  /** Errors the caller handles itself (a save conflict it resolves with the user): neither shown nor reported. */
  handled?(err: ApiError): boolean;
  signal?: AbortSignal;
}

export interface RequestClient {
  request<T = unknown>(opts: RequestOptions): Promise<T>;
  get<T = unknown>(url: string, query?: RequestOptions['query'], opts?: Partial<RequestOptions>): Promise<T>;
  post<T = unknown>(url: string, body?: unknown, opts?: Partial<RequestOptions>): Promise<T>;
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
  const request = async <T>(opts: RequestOptions): Promise<T> => {
    let out: OutgoingRequest = {
      method: (opts.method ?? 'GET').toUpperCase(),
      url: opts.url + toQueryString(opts.query),
      headers: { accept: 'application/json', ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}), ...opts.headers },
      body: opts.body,
    };
    if (deps.interceptors && deps.interceptors.size) out = (await deps.interceptors.call(out)) ?? out;
    let res: Response;
    try {
      res = await doFetch(out.url, {
        method: out.method,
        headers: out.headers,
        body: out.body === undefined ? undefined : typeof out.body === 'string' || out.body instanceof FormData ? (out.body as BodyInit) : JSON.stringify(out.body),
        credentials: 'same-origin',
        signal: opts.signal,
      });
    } catch (e) {
      if ((e as Error)?.name === 'AbortError') throw e;
      const err = new ApiError(0, ErrorCode.UNAVAILABLE, `Network error: ${(e as Error)?.message ?? 'the server could not be reached'}. Check your connection and try again.`, '', { kind: 'api' });
      console.warn('[request] network error', out.method, out.url, e);
      fail(err, opts, out.url);
      throw err;
    }
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
      err = new ApiError(res.status, body.code, String(body.msg ?? ''), logId, { kind: res.ok ? 'business' : 'api', detail: body.data ?? undefined });
    } else {
      err = new ApiError(res.status, res.ok ? ErrorCode.INTERNAL : res.status * 1000 + 1, res.ok ? 'The server answered without an envelope.' : `${res.status} ${res.statusText}`.trim(), logId, { kind: 'unknown' });
    }
    fail(err, opts, out.url);
    throw err;
  };

  function fail(err: ApiError, opts: RequestOptions, url: string) {
    if (opts.handled?.(err)) return;
    const payload = { url, logId: err.logId };
    if (SPECIAL_CODES.has(err.code)) {
      if (err.code === ErrorCode.UNAUTHORIZED) deps.bus?.emit(Unauthorized, payload);
      else if (err.code === ErrorCode.COUNTRY_RESTRICTED) deps.bus?.emit(CountryRestricted, payload);
      else deps.bus?.emit(TokenInsufficient, { ...payload, code: err.code });
    } else if (err.msg && !opts.suppressNotice) {
      deps.notify?.(err);
    }
    deps.report?.({
      source: 'request',
      message: err.msg || `Request failed: ${url}`,
      error: err,
      api: { status: err.status, code: err.code, msg: err.msg, logId: err.logId, url },
      detail: { kind: err.kind, suppressed: !!opts.suppressNotice || SPECIAL_CODES.has(err.code) },
    });
  }

  return {
    request,
    get: (url, query, o) => request({ ...o, method: 'GET', url, query }),
    post: (url, body, o) => request({ ...o, method: 'POST', url, body: body ?? {} }),
  };
}
