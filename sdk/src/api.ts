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

  constructor(status: number, code: number, msg: string, logId = '', opts: { kind?: ApiErrorKind; detail?: Record<string, unknown> } = {}) {
    super(msg);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.msg = msg;
    this.logId = logId;
    this.kind = opts.kind ?? (status >= 200 && status < 300 ? 'business' : 'api');
    this.detail = opts.detail;
  }

  override toString(): string {
    return `${this.status} ${this.code} ${this.msg} ${this.logId}`;
  }

  static is(err: unknown): err is ApiError {
    return err instanceof ApiError || (typeof err === 'object' && err !== null && (err as { name?: string }).name === 'ApiError' && 'code' in err);
  }
}

export const badRequest = (msg: string, detail?: Record<string, unknown>) => new ApiError(400, ErrorCode.INVALID_PARAMS, msg, '', { detail });
export const unauthenticated = (msg = 'Sign in to continue.') => new ApiError(401, ErrorCode.UNAUTHENTICATED, msg);
export const forbidden = (msg = 'You do not have access to this resource.') => new ApiError(403, ErrorCode.FORBIDDEN, msg);
export const notFound = (msg: string) => new ApiError(404, ErrorCode.NOT_FOUND, msg);
export const conflict = (msg: string) => new ApiError(409, ErrorCode.CONFLICT, msg);

/** The header carrying the log id of every response. */
export const LOG_ID_HEADER = 'x-tt-logid';
