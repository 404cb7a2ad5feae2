// One call of a plugin API: the request built from its parameters, the plugin's auth and common
// parameters, sent through the outbound guard; the response read and parsed.
import { badRequest, isRecord } from '@tessera/sdk';
import {
  OutboundHttpService,
  ServerContextToken,
  describeOutboundError,
  type ServerContext,
} from '@tessera/sdk/server';
import {
  AuthorizationType,
  METHOD_NAMES,
  ParameterLocation,
  ParameterType,
  type APIParameter,
} from '../shared/index.ts';
import { OAuthTokens } from './oauth.ts';
import { PluginStore, type ApiDef, type PluginDef } from './store.ts';

export const CALL_TIMEOUT_MS = 30_000;
const SHOWN_BODY = 100_000;

export interface CallTrace {
  request: { method: string; url: string; headers: Record<string, string>; body: string };
  response?: { status: number; headers: Record<string, string>; body: string };
  duration_ms: number;
}
export type CallOutcome =
  | { status: 'ok'; http_status: number; output: unknown; trace: CallTrace }
  | { status: 'http_error'; http_status: number; output: unknown; trace: CallTrace; message: string }
  | { status: 'needs_auth'; authorize_url: string };

/** Thrown for what the caller gave wrong (a missing required parameter, a value of the wrong type). */
export class InputError extends Error {}

function coerce(p: APIParameter, v: unknown, path: string): unknown {
  if (v === undefined || v === null) return v;
  switch (p.type) {
    case ParameterType.Integer:
    case ParameterType.Number: {
      const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
      if (!Number.isFinite(n) || (p.type === ParameterType.Integer && !Number.isInteger(n)))
        throw new InputError(
          `${path} must be ${p.type === ParameterType.Integer ? 'an integer' : 'a number'}, not ${JSON.stringify(v).slice(0, 50)}.`,
        );
      return n;
    }
    case ParameterType.Bool:
      if (typeof v === 'boolean') return v;
      if (v === 'true' || v === 'false') return v === 'true';
      throw new InputError(`${path} must be true or false.`);
    case ParameterType.Object: {
      const o = typeof v === 'string' ? safeJson(v) : v;
      if (!isRecord(o)) throw new InputError(`${path} must be an object.`);
      return p.sub_parameters?.length ? fill(p.sub_parameters, o, `${path}.`) : o;
    }
    case ParameterType.Array: {
      const a = typeof v === 'string' ? safeJson(v) : v;
      if (!Array.isArray(a)) throw new InputError(`${path} must be an array.`);
      const item = p.sub_parameters?.[0] ?? (p.sub_type ? { name: 'item', type: p.sub_type } : undefined);
      return item ? a.map((x, i) => coerce(item, x, `${path}[${i}]`)) : a;
    }
    default:
      return typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
  }
}
const safeJson = (s: string) => {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
};

/** Values of parameters: given, else their default; required ones missing refused by name. */
function fill(params: APIParameter[], input: Record<string, unknown>, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of params) {
    let v = p.global_disable ? undefined : input[p.name];
    if ((v === undefined || v === '') && p.global_default !== undefined && p.global_default !== '')
      v = p.type === ParameterType.String ? p.global_default : (safeJson(p.global_default) ?? p.global_default);
    if (v === undefined || v === null || v === '') {
      if (p.is_required && !p.global_disable) throw new InputError(`The parameter ${prefix}${p.name} is required.`);
      continue;
    }
    out[p.name] = coerce(p, v, `${prefix}${p.name}`);
  }
  return out;
}

const asText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

export interface BuiltRequest {
  url: URL;
  method: string;
  headers: Headers;
  body?: string;
  /** Header and query names whose values are secrets (masked in what the caller sees). */
  secret: Set<string>;
}

/** The HTTP request an API call makes (without OAuth's bearer token, added by the caller). */
export function buildRequest(
  plugin: Pick<PluginDef, 'url' | 'auth_type' | 'auth' | 'common_params'>,
  api: ApiDef,
  input: Record<string, unknown>,
  serviceToken: string,
): BuiltRequest {
  if (!plugin.url) throw new InputError("The plugin has no server URL: set it in the plugin's settings.");
  const values = fill(api.request_params, input ?? {});
  const at = (loc: number) =>
    api.request_params.filter((p) => (p.location ?? ParameterLocation.Body) === loc && values[p.name] !== undefined);
  let path = api.path.startsWith('/') ? api.path : `/${api.path}`;
  for (const p of at(ParameterLocation.Path))
    path = path.replaceAll(`{${p.name}}`, encodeURIComponent(asText(values[p.name])));
  const missing = /\{([^}]+)\}/.exec(path);
  if (missing) throw new InputError(`The path parameter ${missing[1]} has no value.`);
  const url = new URL(plugin.url.replace(/\/+$/, '') + path);
  const headers = new Headers();
  const secret = new Set<string>();
  for (const p of at(ParameterLocation.Query)) {
    const v = values[p.name];
    if (Array.isArray(v)) for (const x of v) url.searchParams.append(p.name, asText(x));
    else url.searchParams.set(p.name, asText(v));
  }
  for (const p of at(ParameterLocation.Header)) headers.set(p.name, asText(values[p.name]));
  const common = plugin.common_params ?? {};
  for (const c of common['2'] ?? []) if (!url.searchParams.has(c.name)) url.searchParams.set(c.name, c.value);
  for (const c of common['4'] ?? []) if (!headers.has(c.name)) headers.set(c.name, c.value);
  if (plugin.auth_type === AuthorizationType.Service && plugin.auth.key) {
    secret.add(plugin.auth.key.toLowerCase());
    if (plugin.auth.location === 2) url.searchParams.set(plugin.auth.key, serviceToken);
    else headers.set(plugin.auth.key, serviceToken);
  }
  const method = METHOD_NAMES[api.method] ?? 'GET';
  let body: string | undefined;
  const bodyParams = at(ParameterLocation.Body);
  if (method !== 'GET' && (bodyParams.length || common['3']?.length)) {
    const single =
      bodyParams.length === 1 &&
      bodyParams[0].name === 'body' &&
      api.request_params.filter((p) => (p.location ?? 3) === 3).length === 1;
    const obj: Record<string, unknown> = single
      ? (values.body as Record<string, unknown>)
      : Object.fromEntries(bodyParams.map((p) => [p.name, values[p.name]]));
    if (obj && typeof obj === 'object' && !Array.isArray(obj))
      for (const c of common['3'] ?? []) if (!(c.name in obj)) obj[c.name] = c.value;
    body = JSON.stringify(obj);
    headers.set('content-type', 'application/json');
  }
  if (!headers.has('accept')) headers.set('accept', 'application/json, */*');
  return { url, method, headers, body, secret };
}

/** The request as the debug panel shows it: secrets masked. */
export function shownRequest(r: BuiltRequest): CallTrace['request'] {
  const url = new URL(r.url);
  for (const k of Array.from(url.searchParams.keys()))
    if (r.secret.has(k.toLowerCase())) url.searchParams.set(k, '****');
  const headers: Record<string, string> = {};
  r.headers.forEach((v, k) => (headers[k] = r.secret.has(k) || k === 'authorization' ? '****' : v));
  return { method: r.method, url: url.toString(), headers, body: r.body ?? '' };
}

export class PluginCaller {
  static readonly inject = [ServerContextToken, PluginStore, OAuthTokens] as const;
  private ctx: ServerContext<unknown>;
  private store: PluginStore;
  private tokens: OAuthTokens;
  constructor(ctx: ServerContext<unknown>, store: PluginStore, tokens: OAuthTokens) {
    this.ctx = ctx;
    this.store = store;
    this.tokens = tokens;
  }

  /** Calls `api` of `plugin` for `userId`; network failures throw with a message a person can act on. */
  async call(
    plugin: PluginDef,
    api: ApiDef,
    input: Record<string, unknown>,
    userId: string,
    signal?: AbortSignal,
  ): Promise<CallOutcome> {
    const { row, secret } = await this.store.credentials(plugin.plugin_id);
    const serviceToken = plugin.auth_type === AuthorizationType.Service ? secret : '';
    const req = buildRequest(plugin, api, input, serviceToken);
    if (plugin.auth_type === AuthorizationType.OAuth) {
      const token = await this.tokens.accessToken(row, userId);
      if (!token) return { status: 'needs_auth', authorize_url: await this.tokens.authorizeUrl(row, userId) };
      req.headers.set('authorization', `Bearer ${token}`);
    }
    let outcome = await this.send(req, signal);
    if (plugin.auth_type === AuthorizationType.OAuth && outcome.trace.response?.status === 401) {
      // An access token the server no longer takes: refresh once, else ask for authorisation again.
      const token = await this.tokens.accessToken(row, userId, { force: true });
      if (!token) return { status: 'needs_auth', authorize_url: await this.tokens.authorizeUrl(row, userId) };
      req.headers.set('authorization', `Bearer ${token}`);
      outcome = await this.send(req, signal);
    }
    return outcome;
  }

  private async send(req: BuiltRequest, signal?: AbortSignal): Promise<Exclude<CallOutcome, { status: 'needs_auth' }>> {
    const started = performance.now();
    const request = shownRequest(req);
    let res: Response;
    let text: string;
    try {
      res = await this.ctx.service(OutboundHttpService).fetch(req.url, {
        method: req.method,
        headers: req.headers,
        body: req.body,
        signal,
        timeoutMs: CALL_TIMEOUT_MS,
      });
      text = await res.text();
    } catch (e) {
      throw new Error(describeOutboundError(e, req.url.toString()));
    }
    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => (headers[k] = v));
    const trace: CallTrace = {
      request,
      response: {
        status: res.status,
        headers,
        body: text.length > SHOWN_BODY ? `${text.slice(0, SHOWN_BODY)}…` : text,
      },
      duration_ms: Math.round((performance.now() - started) * 100) / 100,
    };
    const parsed =
      /json/i.test(res.headers.get('content-type') ?? '') || /^\s*[[{]/.test(text) ? (safeJson(text) ?? text) : text;
    if (!res.ok)
      return {
        status: 'http_error',
        http_status: res.status,
        output: parsed,
        trace,
        message: `The API answered HTTP ${res.status}${text ? `: ${text.slice(0, 300)}` : ''}`,
      };
    return { status: 'ok', http_status: res.status, output: parsed, trace };
  }
}

/** Refuses a request body field that is not an object (what `input` of the calls must be). */
export function inputObject(v: unknown, what = 'The input'): Record<string, unknown> {
  if (v === undefined || v === null || v === '') return {};
  const o = typeof v === 'string' ? safeJson(v) : v;
  if (!isRecord(o)) throw badRequest(`${what} must be a JSON object of parameter values.`);
  return o;
}
