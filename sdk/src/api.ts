import type { z, ZodType } from 'zod';
import { describeError } from '@tessera/core';
import { isRecord } from './values.ts';

/** The version of the platform an extension's `engines.tessera` range is checked against. */
export const TESSERA_VERSION = '0.1.0';

/** The envelope every internal API call answers with. code 0 is success. */
export interface ApiEnvelope<T = unknown> {
  code: number;
  msg: string;
  data?: T;
}

/**
 * Envelope codes. The three large "special" codes are handled by the request client without a toast:
 * it raises the matching bus event instead (spec 000 section 8).
 */
export const ErrorCode = {
  OK: 0,
  INVALID_PARAMS: 400_001,
  MALFORMED_BODY: 400_002,
  UNAUTHENTICATED: 401_001,
  FORBIDDEN: 403_001,
  NOT_FOUND: 404_001,
  ROUTE_NOT_FOUND: 404_002,
  CONFLICT: 409_001,
  PAYLOAD_TOO_LARGE: 413_001,
  RATE_LIMITED: 429_001,
  INTERNAL: 500_001,
  UNAVAILABLE: 503_001,
  /** Special: raises `unauthorized` (sign in again). */
  UNAUTHORIZED: 700_012_006,
  /** Special: raises `countryRestricted`. */
  COUNTRY_RESTRICTED: 700_012_015,
  /** Special: raise `tokenInsufficient` (quota used up). */
  TOKEN_INSUFFICIENT: 702_082_020,
  TOKEN_INSUFFICIENT_BOT: 702_082_021,
} as const;

export const SPECIAL_CODES = new Set<number>([
  ErrorCode.UNAUTHORIZED,
  ErrorCode.COUNTRY_RESTRICTED,
  ErrorCode.TOKEN_INSUFFICIENT,
  ErrorCode.TOKEN_INSUFFICIENT_BOT,
]);

export type ApiErrorKind = 'api' | 'business' | 'unknown';

/**
 * An API error: HTTP status, envelope code, message and log id; `String(err)` gives those four on
 * one line. 'api' = transport/HTTP failure, 'business' = 2xx with a non-zero code, 'unknown' = no envelope.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: number;
  readonly msg: string;
  logId: string;
  readonly kind: ApiErrorKind;
  /** Extra machine-readable facts (e.g. the failing field). */
  readonly detail?: Record<string, unknown>;
  /**
   * The code the open API (/v1, /v3) answers with instead of `code` (Coze's codes: 4000, 4100 ...).
   * When absent the host maps `code` (see `OpenApiCode` and docs/api.md).
   */
  readonly openCode?: number;
  /**
   * The message in other languages: a key of the `ErrorTexts` point (server) with its parameters. The
   * host answers in the caller's language (Accept-Language) when a text is registered, else with `msg`.
   */
  readonly text?: { key: string; params?: Record<string, string | number> };

  constructor(
    status: number,
    code: number,
    msg: string,
    logId = '',
    opts: {
      kind?: ApiErrorKind;
      detail?: Record<string, unknown>;
      openCode?: number;
      text?: { key: string; params?: Record<string, string | number> };
    } = {},
  ) {
    super(msg);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.msg = msg;
    this.logId = logId;
    this.kind = opts.kind ?? (status >= 200 && status < 300 ? 'business' : 'api');
    this.detail = opts.detail;
    this.openCode = opts.openCode;
    this.text = opts.text;
  }

  override toString(): string {
    return `${this.status} ${this.code} ${this.msg} ${this.logId}`;
  }

  static is(err: unknown): err is ApiError {
    return (
      err instanceof ApiError ||
      (typeof err === 'object' && err !== null && (err as { name?: string }).name === 'ApiError' && 'code' in err)
    );
  }
}

/**
 * Codes of the open API (/v1 and /v3), as Coze's open API and its official SDK use them. The studio's
 * own `/api` keeps `ErrorCode`; the host maps one to the other at the open-API boundary.
 */
export const OpenApiCode = {
  BAD_PARAMS: 4000,
  RATE_LIMITED: 4013,
  BAD_TOKEN: 4100,
  NO_PERMISSION: 4101,
  NOT_FOUND: 4200,
  INTERNAL: 5000,
} as const;

const OPEN_CODES: Record<number, number> = {
  [ErrorCode.INVALID_PARAMS]: OpenApiCode.BAD_PARAMS,
  [ErrorCode.MALFORMED_BODY]: OpenApiCode.BAD_PARAMS,
  [ErrorCode.CONFLICT]: OpenApiCode.BAD_PARAMS,
  [ErrorCode.PAYLOAD_TOO_LARGE]: OpenApiCode.BAD_PARAMS,
  [ErrorCode.UNAUTHENTICATED]: OpenApiCode.BAD_TOKEN,
  [ErrorCode.UNAUTHORIZED]: OpenApiCode.BAD_TOKEN,
  [ErrorCode.FORBIDDEN]: OpenApiCode.NO_PERMISSION,
  [ErrorCode.NOT_FOUND]: OpenApiCode.NOT_FOUND,
  [ErrorCode.ROUTE_NOT_FOUND]: OpenApiCode.NOT_FOUND,
  [ErrorCode.RATE_LIMITED]: OpenApiCode.RATE_LIMITED,
  [ErrorCode.INTERNAL]: OpenApiCode.INTERNAL,
};

/**
 * What went wrong, in words a person reads: an API error's `msg` (the studio's envelope, as the client's calls throw
 * it), else an Error's message, else the value itself as text. For an alert, a log line or a stored failure.
 */
export function messageOf(err: unknown): string {
  if (err && typeof err === 'object' && 'msg' in err && typeof err.msg === 'string' && err.msg) return err.msg;
  return describeError(err);
}

/** The open-API code of an error: its own `openCode`, else the mapping of its studio code (by HTTP status as a last resort). */
export function openApiCodeOf(err: ApiError): number {
  if (err.openCode) return err.openCode;
  const mapped = OPEN_CODES[err.code];
  if (mapped) return mapped;
  if (err.status === 401) return OpenApiCode.BAD_TOKEN;
  if (err.status === 403) return OpenApiCode.NO_PERMISSION;
  if (err.status === 404) return OpenApiCode.NOT_FOUND;
  if (err.status === 429) return OpenApiCode.RATE_LIMITED;
  return err.status >= 500 ? OpenApiCode.INTERNAL : OpenApiCode.BAD_PARAMS;
}

export const badRequest = (msg: string, detail?: Record<string, unknown>) =>
  new ApiError(400, ErrorCode.INVALID_PARAMS, msg, '', { detail });
export const unauthenticated = (msg = 'Sign in to continue.') => new ApiError(401, ErrorCode.UNAUTHENTICATED, msg);
export const forbidden = (msg = 'You do not have access to this resource.') =>
  new ApiError(403, ErrorCode.FORBIDDEN, msg);
export const notFound = (msg: string) => new ApiError(404, ErrorCode.NOT_FOUND, msg);
export const conflict = (msg: string, detail?: Record<string, unknown>) =>
  new ApiError(409, ErrorCode.CONFLICT, msg, '', detail ? { detail } : undefined);

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);
// PostgreSQL's connection exceptions (class 08) and shutdowns (57P01-57P03).
const PG_UNAVAILABLE = /^(08\d\d\d|57P0[123])$/;
const UNREACHABLE_MESSAGE =
  /connection terminated|connection is closed|connect ECONNREFUSED|timeout exceeded when trying to connect|Connection ended unexpectedly|the database system is (shutting down|starting up)|socket hang up|MaxRetriesPerRequest/i;

/** Whether an error says that a service the studio talks to (database, Redis, a store) could not be reached. */
export function isUnreachableError(err: unknown): boolean {
  for (
    let e = err as { code?: unknown; errno?: unknown; name?: unknown; message?: unknown; cause?: unknown } | undefined,
      depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    if (typeof e.code === 'string' && (UNREACHABLE_CODES.has(e.code) || PG_UNAVAILABLE.test(e.code))) return true;
    if (typeof e.errno === 'string' && UNREACHABLE_CODES.has(e.errno)) return true;
    if (e.name === 'MaxRetriesPerRequestError') return true;
    if (
      Array.isArray((e as { errors?: unknown[] }).errors) &&
      (e as { errors: unknown[] }).errors.some(isUnreachableError)
    )
      return true;
    if (typeof e.message === 'string' && UNREACHABLE_MESSAGE.test(e.message)) return true;
  }
  return false;
}

/** A 503 naming the service that could not be reached ("the file store (s3)"); nothing was changed. */
export const unavailable = (service: string, detail?: string) =>
  new ApiError(
    503,
    ErrorCode.UNAVAILABLE,
    `${service[0].toUpperCase()}${service.slice(1)} cannot be reached right now${detail ? ` (${detail})` : ''}; nothing was changed. Try again in a moment, or ask an administrator to check it.`,
  );

/** How deeply JSON that callers send may nest (request bodies, run parameters, canvases). */
export const MAX_JSON_DEPTH = 100;

/** Whether a parsed JSON value nests deeper than `max` levels (walked without recursion). */
export function jsonNestsDeeper(value: unknown, max = MAX_JSON_DEPTH): boolean {
  if (value === null || typeof value !== 'object') return false;
  const stack: [object, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (depth > max) return true;
    for (const x of Array.isArray(v) ? v : Object.values(v))
      if (x !== null && typeof x === 'object') stack.push([x, depth + 1]);
  }
  return false;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Whether a string is well-formed UTF-16 (no lone surrogate), as String.prototype.isWellFormed. */
export const isWellFormedText = (s: string) => !LONE_SURROGATE.test(s);

/**
 * The path of the first string (or key) of a parsed JSON value that is not well-formed UTF-16 (a lone
 * surrogate, which JSON can carry as `\ud800` but no database or client stores as sent), or undefined.
 * `text`, when given, is the JSON it was parsed from: without a `\uD8..`-`\uDF..` escape in it, nothing is walked.
 */
export function jsonIllFormedAt(value: unknown, text?: string): string | undefined {
  if (text !== undefined && !/\\u[dD][89a-fA-F]/.test(text)) return undefined;
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length) {
    const [v, at] = stack.pop()!;
    if (typeof v === 'string') {
      if (!isWellFormedText(v)) return at || '(the body)';
    } else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        const here = Array.isArray(v) ? `${at}[${k}]` : at ? `${at}.${k}` : k;
        if (!isWellFormedText(k)) return here;
        stack.push([x, here]);
      }
    }
  }
  return undefined;
}

/** The message for text that is not well-formed at `at`. */
export const illFormedMessage = (at: string) =>
  `${at} holds text that is not well-formed (a lone UTF-16 surrogate such as \\ud800); send valid Unicode text.`;

/**
 * JSON the studio stored, parsed (and checked with `schema` when given). Text that does not parse is never
 * read as empty (a later save would lose what was there): it is an error that says what could not be read.
 */
export function parseStoredJson<T = unknown>(
  text: string,
  what: string,
  schema?: {
    safeParse(
      v: unknown,
    ): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
  },
): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new ApiError(
      500,
      ErrorCode.INTERNAL,
      `${what} is stored in a form the studio cannot read (${describeError(e)}); nothing was changed. Quote the log id to an administrator.`,
      '',
      { kind: 'unknown' },
    );
  }
  if (!schema) return value as T;
  const r = schema.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new ApiError(
      500,
      ErrorCode.INTERNAL,
      `${what} is stored in a form the studio cannot read (${issue ? `${issue.path.join('.') || 'the value'}: ${issue.message}` : 'unexpected shape'}); nothing was changed. Quote the log id to an administrator.`,
      '',
      { kind: 'unknown' },
    );
  }
  return r.data;
}

/** A check that a value is a JSON object (not an array, a scalar or null): for `parseStoredJson`, cheaper than a schema. */
export const JsonObject = {
  safeParse(
    v: unknown,
  ):
    | { success: true; data: Record<string, unknown> }
    | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } {
    return isRecord(v)
      ? { success: true, data: v }
      : { success: false, error: { issues: [{ path: [], message: 'not an object' }] } };
  },
};

/** Stored JSON that must be an object (an item's data, a task's input ...), parsed; otherwise the error `parseStoredJson` gives. */
export const parseStoredObject = (text: string, what: string): Record<string, unknown> =>
  parseStoredJson(text, what, JsonObject);

/** A check that a value is an array of strings (tags, names, event types ...): for `parseStoredJson`. */
export const JsonStrings = {
  safeParse(
    v: unknown,
  ):
    | { success: true; data: string[] }
    | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } {
    if (!Array.isArray(v)) return { success: false, error: { issues: [{ path: [], message: 'not a list' }] } };
    const at = v.findIndex((x) => typeof x !== 'string');
    return at < 0
      ? { success: true, data: v as string[] }
      : { success: false, error: { issues: [{ path: [at], message: 'not a text' }] } };
  },
};

/** Stored JSON that must be a list of strings, parsed; otherwise the error `parseStoredJson` gives. */
export const parseStoredStrings = (text: string, what: string): string[] => parseStoredJson(text, what, JsonStrings);

/**
 * A value as JSON text to store, whole up to `maxChars`; a larger one as a note of its size, `{ "truncated": true,
 * "characters": n }` (cutting the text leaves JSON that no longer parses, and what reads it back fails).
 */
export function jsonWithin(value: unknown, maxChars: number): string {
  const text = JSON.stringify(value);
  return text.length <= maxChars ? text : JSON.stringify({ truncated: true, characters: text.length });
}

/** JSON text from a caller, parsed, or a 400 naming `what` (not JSON, or nested deeper than MAX_JSON_DEPTH). */
export function parseCallerJson(text: string, what: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest(`${what} is not valid JSON.`);
  }
  if (jsonNestsDeeper(value)) throw badRequest(`${what} nests more than ${MAX_JSON_DEPTH} levels deep; flatten it.`);
  const bad = isWellFormedText(text) ? jsonIllFormedAt(value, text) : '(the text)';
  if (bad) throw badRequest(illFormedMessage(`${what}${bad === '(the text)' ? '' : ` at ${bad}`}`));
  return value;
}

/** The header carrying the log id of every response. */
export const LOG_ID_HEADER = 'x-tt-logid';

// ---------------------------------------------------------------- endpoints

/**
 * A route's contract, in its extension's `shared/`: one source of truth for both halves. The server registers it
 * with its handler (`ctx.route({ ...ListTemplates, auth, handler })`: what comes in is validated by `body`/`query`,
 * the handler must return what `response` describes, and in tests what goes out is checked against it); the page
 * calls it (`api.call(ListTemplates, input)`), typed by the same schemas; `/openapi.json` carries both.
 */
export type EndpointMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export interface Endpoint<
  B extends ZodType | undefined = ZodType | undefined,
  Q extends ZodType | undefined = ZodType | undefined,
  R extends ZodType = ZodType,
  M extends EndpointMethod = EndpointMethod,
  P extends ZodType | undefined = ZodType | undefined,
> {
  readonly method: M;
  /**
   * Fastify path syntax. An internal API takes its ids in the body or query; one that follows a published API with
   * ids in its path (`/datasets/:datasetID/items`) declares them in `params`: the page passes them with the input,
   * and `api.call` puts them into the path.
   */
  readonly path: string;
  readonly summary?: string;
  readonly params?: P;
  readonly body?: B;
  readonly query?: Q;
  readonly response: R;
}

/** A contract (see Endpoint); `as const` is not needed: the schemas (and the method) carry the types. */
export function defineEndpoint<
  B extends ZodType | undefined = undefined,
  Q extends ZodType | undefined = undefined,
  R extends ZodType = ZodType,
  const M extends EndpointMethod = EndpointMethod,
  P extends ZodType | undefined = undefined,
>(endpoint: Endpoint<B, Q, R, M, P>): Endpoint<B, Q, R, M, P> {
  return Object.freeze({ ...endpoint });
}

/** The path with its `:name` parameters filled from the input, and the input without them. */
export function fillEndpointPath(path: string, input: unknown): { url: string; rest: unknown } {
  if (!path.includes(':') || !isRecord(input)) return { url: path, rest: input };
  const rest: Record<string, unknown> = { ...input };
  const url = path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const v = rest[name];
    delete rest[name];
    return encodeURIComponent(String(v ?? ''));
  });
  return { url, rest };
}

/** The schema an endpoint validates its body (or query) with, present. */
export type EndpointBody<E> =
  E extends Endpoint<infer B, ZodType | undefined, ZodType, EndpointMethod> ? Exclude<B, undefined> : never;

/** What a page sends to an endpoint: its body (its query for GET), before the server's defaults apply. */
// Not distributed over I: an optional body's input (`{…} | undefined`) keeps its fields beside the path's; an empty
// one (`Record<string, never>`) adds none.
type BesideParams<I> = [I] extends [void] ? unknown : string extends keyof NonNullable<I> ? unknown : NonNullable<I>;
type WithParams<P, I> = P extends ZodType ? z.input<P> & BesideParams<I> : I;
export type EndpointInput<E> =
  E extends Endpoint<infer B, infer Q, ZodType, infer M, infer P>
    ? WithParams<
        P,
        M extends 'GET' | 'DELETE'
          ? Q extends ZodType
            ? z.input<Q>
            : B extends ZodType
              ? z.input<B>
              : void
          : B extends ZodType
            ? z.input<B>
            : void
      >
    : never;

/** What an endpoint answers (the envelope's data). */
export type EndpointOutput<E> =
  E extends Endpoint<ZodType | undefined, ZodType | undefined, infer R> ? z.output<R> : never;
