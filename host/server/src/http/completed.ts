// What RequestsCompleted is told of an answered API request: its route, caller, space, status, and the audit
// declaration's action with the target's id read from the request.
import type { CompletedRequest, RouteAudit } from '@tessera/sdk/server';
import type { Caller } from '@tessera/sdk/server';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A field of a request as sent: the path's, then the body's, then the query's ('' when none has it). */
export function requestField(request: FastifyRequest, name: string): string {
  for (const where of [request.params, request.body, request.query]) {
    const v = (where as Record<string, unknown> | undefined)?.[name];
    if (typeof v === 'string' || typeof v === 'number') return String(v).slice(0, 200);
  }
  return '';
}

export function completedRequest(
  request: FastifyRequest,
  reply: FastifyReply,
  extensionId: string,
  audit: RouteAudit | undefined,
): CompletedRequest {
  const r = request as FastifyRequest & { tesseraCaller?: Caller | { rejected: true } | null; tesseraSpaceId?: string };
  const caller = r.tesseraCaller && !('rejected' in r.tesseraCaller) ? r.tesseraCaller : undefined;
  return {
    method: request.method,
    route: request.routeOptions.url ?? request.url,
    url: request.url,
    extensionId,
    caller,
    spaceId: r.tesseraSpaceId,
    status: reply.statusCode,
    logId: request.id,
    ip: request.ip,
    userAgent: String(request.headers['user-agent'] ?? '').slice(0, 300),
    durationMs: reply.elapsedTime,
    ...(audit
      ? { audit: { action: audit.action, targetId: audit.target ? requestField(request, audit.target) : '' } }
      : {}),
  };
}
