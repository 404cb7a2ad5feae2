import { ApiError, ErrorCode, isUnreachableError, openApiCodeOf, unavailable } from '@tessera/sdk';
import type { ZodError } from 'zod';

/** JSON with 64-bit safety: bigint values travel as strings. */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
}

export function envelope(data: unknown): string {
  return toJson({ code: 0, msg: '', data: data ?? null });
}

export function errorEnvelope(err: ApiError): string {
  return toJson({ code: err.code, msg: err.msg, ...(err.detail ? { data: err.detail } : {}) });
}

/**
 * An error of the open API (/v1, /v3) as Coze's open API answers it and its official SDK reads it:
 * Coze's code (4000, 4100 ...), the message, and the log id under `detail.logid`.
 */
export function openApiErrorBody(err: ApiError): string {
  return toJson({
    code: openApiCodeOf(err),
    msg: err.msg,
    detail: { logid: err.logId },
    ...(err.detail ? { data: err.detail } : {}),
  });
}

/** Paths of the open API: Coze's /v1, /v3 and the knowledge calls under /open_api; the evaluation family's /open-api. */
export const OPEN_API_PATH = /^\/(v[13]|open_api|open-api)(\/|$)/;

/** A zod failure as a 400 that names every field, e.g. "body.name: expected string, received undefined". */
export function validationError(where: 'body' | 'query' | 'params', error: ZodError): ApiError {
  const fields = error.issues.map((i) => ({ field: [where, ...i.path.map(String)].join('.'), message: i.message }));
  // People read the field's name; the full path stays in data.fields for programs.
  const list = fields.map((f) => `${f.field.split('.').slice(1).join('.') || f.field}: ${f.message}`).join('; ');
  return new ApiError(400, ErrorCode.INVALID_PARAMS, `Invalid request: ${list}`, '', {
    detail: { fields },
    text: { key: 'host.invalidRequest', params: { fields: list } },
  });
}

const STATUS_CODES: Record<number, number> = {
  400: ErrorCode.INVALID_PARAMS,
  401: ErrorCode.UNAUTHENTICATED,
  403: ErrorCode.FORBIDDEN,
  404: ErrorCode.NOT_FOUND,
  409: ErrorCode.CONFLICT,
  413: ErrorCode.PAYLOAD_TOO_LARGE,
  415: ErrorCode.MALFORMED_BODY,
  429: ErrorCode.RATE_LIMITED,
};

/** Any thrown value as an ApiError; a Fastify client error keeps its status, anything else is a 500. */
export function asApiError(err: unknown): ApiError {
  if (ApiError.is(err)) return err;
  const e = err as { statusCode?: number; code?: string; message?: string };
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    // Fastify's two cases have texts of their own in each language; a parser's message (where it broke) is kept as it is.
    if (e.code === 'FST_ERR_CTP_INVALID_JSON_BODY')
      return new ApiError(
        400,
        ErrorCode.MALFORMED_BODY,
        'The request body is not valid JSON (its Content-Type says application/json).',
        '',
        { text: { key: 'host.invalidJsonBody' } },
      );
    if (e.code === 'FST_ERR_CTP_EMPTY_JSON_BODY')
      return new ApiError(
        400,
        ErrorCode.MALFORMED_BODY,
        'The request body is empty; with Content-Type application/json send a JSON value (at least {}).',
        '',
        { text: { key: 'host.emptyJsonBody' } },
      );
    if ((e.message ?? '').includes('JSON')) {
      return new ApiError(400, ErrorCode.MALFORMED_BODY, `The request body is not valid JSON: ${e.message}`, '', {
        text: { key: 'host.malformedJson', params: { detail: e.message ?? '' } },
      });
    }
    if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return new ApiError(
        415,
        ErrorCode.MALFORMED_BODY,
        `${e.message}. Send JSON with Content-Type: application/json.`,
      );
    }
    return new ApiError(
      e.statusCode,
      STATUS_CODES[e.statusCode] ?? ErrorCode.INVALID_PARAMS,
      e.message ?? 'Bad request',
    );
  }
  // A dependency that dropped (PostgreSQL, Redis, a store) is a 503 naming it, not a fault of the request.
  if (isUnreachableError(err)) return unavailable(serviceOf(err));
  return new ApiError(
    500,
    ErrorCode.INTERNAL,
    'Something went wrong on our side. Quote the log id when you report it.',
    '',
    { kind: 'unknown', text: { key: 'host.internal' } },
  );
}

/** Which service an unreachable-service error comes from, as far as it tells. */
function serviceOf(err: unknown): string {
  const e = err as {
    code?: unknown;
    message?: unknown;
    name?: unknown;
    $metadata?: unknown;
    severity?: unknown;
    command?: unknown;
  };
  const text = `${String(e?.message ?? '')} ${String(e?.name ?? '')}`;
  if (typeof e?.code === 'string' && /^(08|57P)/.test(e.code)) return 'the database (PostgreSQL)';
  if (e?.severity || /postgres|database system|trying to connect|Connection terminated/i.test(text))
    return 'the database (PostgreSQL)';
  if (e?.command || /redis|MaxRetriesPerRequest|Connection is closed/i.test(text)) return 'the job queue (Redis)';
  if (e?.$metadata) return 'the file store';
  return 'a service the studio depends on';
}
