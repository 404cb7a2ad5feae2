import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { HookPoint } from '@tessera/core';
import { ApiError, ErrorCode, forbidden } from '@tessera/sdk';
import {
  RateLimiter,
  isAuthRejection,
  type ApiReply,
  type ApiRequest,
  type ApiRoute,
  type AuthRejection,
  type AuthRequest,
  type Caller,
  type InterceptedRequest,
  type SpaceAccess,
  type SpaceRole,
  type SseStream,
} from '@tessera/sdk/server';
import { envelope, OPEN_API_PATH, toJson, validationError } from './envelope.ts';
import { requestField } from './completed.ts';

const ROLE_RANK: Record<SpaceRole, number> = { member: 1, admin: 2, owner: 3 };

export interface RouteMountOptions {
  authenticators: HookPoint<[AuthRequest], Caller | AuthRejection>;
  spaceAuthorizers: HookPoint<[Caller, string], SpaceAccess>;
  interceptors?: HookPoint<[InterceptedRequest], ApiError | undefined>;
}

export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    const k = part.slice(0, i).trim();
    if (k) out[k] = decodeURIComponent(part.slice(i + 1).trim());
  }
  return out;
}

/** Resolves the caller once per request (the authenticators hook decides). */
export async function callerOf(
  request: FastifyRequest,
  authenticators: RouteMountOptions['authenticators'],
): Promise<Caller | AuthRejection | undefined> {
  const r = request as FastifyRequest & { tesseraCaller?: Caller | AuthRejection | null };
  if (r.tesseraCaller !== undefined) return r.tesseraCaller ?? undefined;
  const caller =
    authenticators.size === 0
      ? undefined
      : ((await authenticators.call({
          headers: request.headers,
          cookies: parseCookies(request.headers.cookie),
          method: request.method,
          url: request.url,
          ip: request.ip,
        })) ?? undefined);
  r.tesseraCaller = caller ?? null;
  return caller;
}

/** Mounts one API route: authenticate, authorize (space, role, token), validate, run, wrap in the envelope. */
export function mountRoute(
  app: FastifyInstance,
  route: ApiRoute,
  opts: RouteMountOptions,
  limiter: RateLimiter,
  extensionId?: string,
): void {
  const isOpenApi = OPEN_API_PATH.test(route.path);
  app.route({
    method: route.method,
    url: route.path,
    config: {
      stream: !!route.stream,
      upload: !!route.upload,
      rawBody: !!route.rawBody,
      formBody: !!route.formBody,
      audit: route.audit,
      extensionId,
    },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const found = await callerOf(request, opts.authenticators);
      // A refused credential fails every route that needs a caller; anonymous routes just go without one.
      if (isAuthRejection(found) && route.auth !== 'anonymous') {
        throw new ApiError(
          found.status,
          found.status === 401 ? ErrorCode.UNAUTHORIZED : ErrorCode.FORBIDDEN,
          found.msg,
        );
      }
      const caller = isAuthRejection(found) ? undefined : found;
      if (route.rateLimit) {
        const key = route.rateLimit.key === 'caller' && caller ? caller.userId : request.ip;
        if (
          !limiter.take(`${route.method} ${route.path} ${key}`, route.rateLimit.max, route.rateLimit.windowMs ?? 60_000)
        ) {
          throw new ApiError(429, ErrorCode.RATE_LIMITED, 'Too many attempts. Wait a minute and try again.', '', {
            text: { key: 'host.rateLimited' },
          });
        }
      }
      let spaceId: string | undefined;
      let spaceRole: SpaceRole | undefined;
      if (route.auth !== 'anonymous') {
        if (!caller)
          throw new ApiError(
            401,
            ErrorCode.UNAUTHORIZED,
            'Sign in to continue: this call needs a signed-in user or an access token.',
            '',
            { text: { key: 'host.signIn' } },
          );
        if (caller.kind === 'token' && !isOpenApi)
          throw forbidden('Personal access tokens work on the open API (/v1, /v3, /open_api and /open-api) only.');
        if (route.auth === 'platformAdmin' && !caller.isPlatformAdmin)
          throw new ApiError(403, ErrorCode.FORBIDDEN, 'Only a platform administrator may do this.', '', {
            text: { key: 'host.platformAdmin' },
          });
        if (typeof route.auth === 'object') {
          const loc = route.auth.space;
          const raw = {
            body: request.body ?? {},
            query: request.query ?? {},
            params: request.params ?? {},
            headers: request.headers,
          };
          const located =
            typeof loc === 'function'
              ? await loc(raw)
              : (raw[loc.from === 'header' ? 'headers' : loc.from] as Record<string, unknown>)?.[loc.field];
          if (located === undefined || located === null || located === '') {
            const where = typeof loc === 'function' ? 'the request' : `${loc.from}.${loc.field}`;
            throw new ApiError(
              400,
              ErrorCode.INVALID_PARAMS,
              `Invalid request: ${where} must name the space (space id is missing).`,
            );
          }
          spaceId = String(located);
          const access = opts.spaceAuthorizers.size ? await opts.spaceAuthorizers.call(caller, spaceId) : undefined;
          if (!access?.allowed)
            throw new ApiError(403, ErrorCode.FORBIDDEN, 'You are not a member of this space.', '', {
              text: { key: 'host.notMember' },
            });
          spaceRole = access.role;
          (request as FastifyRequest & { tesseraSpaceId?: string }).tesseraSpaceId = spaceId;
          const need = route.auth.role;
          if (need && (!spaceRole || ROLE_RANK[spaceRole] < ROLE_RANK[need]))
            throw new ApiError(403, ErrorCode.FORBIDDEN, `This needs the ${need} role in the space.`, '', {
              text: { key: 'host.needsRole', params: { role: need } },
            });
        }
        if (caller.kind === 'token' && caller.tokenAllows && !caller.tokenAllows(route.permission, spaceId)) {
          throw forbidden(
            `This access token lacks the permission${route.permission ? ` '${route.permission}'` : ''}${spaceId ? ` in space ${spaceId}` : ''}.`,
          );
        }
      }

      if (opts.interceptors?.size) {
        const refused = await opts.interceptors.call({
          method: route.method,
          route: route.path,
          url: request.url,
          extensionId: extensionId ?? '',
          caller,
          spaceId,
          spaceRole,
          ...(route.resource
            ? {
                resource: {
                  kind: route.resource.kind,
                  id: requestField(request, route.resource.id),
                  write: route.resource.write,
                },
              }
            : {}),
          headers: request.headers,
          ip: request.ip,
        });
        // A refusal that is not an ApiError (an extension's mistake) still refuses, with a clear 403.
        if (refused)
          throw ApiError.is(refused)
            ? refused
            : forbidden('This request was refused by a request policy of the studio.');
      }

      const params = parse(route, 'params', request.params);
      const query = parse(route, 'query', request.query);
      const body = parse(route, 'body', request.body);

      const controller = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) controller.abort();
      });
      let handled = false;
      let sseOpen: SseStream | undefined;
      const apiReply: ApiReply = {
        header: (n, v) => void reply.header(n, v),
        status: (c) => void reply.code(c),
        sse: () => {
          handled = true;
          sseOpen = openSse(reply, request.id);
          return sseOpen;
        },
        send: (b, type) => {
          handled = true;
          reply.type(type).send(b);
        },
        raw: reply,
      };
      const req: ApiRequest = {
        body,
        query,
        params,
        headers: request.headers,
        caller,
        spaceId,
        spaceRole,
        logId: request.id,
        ip: request.ip,
        signal: controller.signal,
        ...(route.upload ? { stream: request.raw } : {}),
        ...(route.rawBody ? { rawBody: request.rawBody ?? '' } : {}),
        raw: request,
      };
      let result: unknown;
      try {
        result = await route.handler(req, apiReply);
      } catch (e) {
        // Once a stream is open the reply is the stream's: the failure becomes its last event.
        if (!handled || !sseOpen) throw e;
        const err = ApiError.is(e) ? e : undefined;
        (request.log as { error(o: object, m: string): void }).error({ err: e, logId: request.id }, 'stream failed');
        sseOpen.send('Error', {
          error_code: err?.code ?? ErrorCode.INTERNAL,
          error_message: err?.msg ?? 'Something went wrong on our side. Quote the log id when you report it.',
          logid: request.id,
        });
        sseOpen.close();
        return reply;
      }
      if (handled) return reply;
      if (route.produces && checkResponses)
        throw new ApiError(
          500,
          ErrorCode.INTERNAL,
          `${route.method} ${route.path} declares that it answers ${route.produces === 'redirect' ? 'with a redirect' : [route.produces].flat().join(' or ')}, but answered JSON.`,
        );
      // What goes out is checked against the route's response schema where TESSERA_CHECK_RESPONSES=1 (the test
      // suite): a handler that drifts from its contract fails there, loudly. What is sent is the handler's value
      // either way, so a studio answers the same with the check and without it.
      if (route.response && checkResponses) {
        const checked = route.response.safeParse(result);
        if (!checked.success)
          throw new ApiError(
            500,
            ErrorCode.INTERNAL,
            `${route.method} ${route.path} answered what its response schema does not describe: ${checked.error.issues
              .slice(0, 3)
              .map((i) => `${i.path.join('.') || '(the answer)'}: ${i.message}`)
              .join('; ')}`,
          );
      }
      reply.type('application/json; charset=utf-8');
      return reply.send(route.rawResponse ? toJson(result) : envelope(result));
    },
  });
}

/** Responses checked against their schemas (the test suite sets it; a running studio does not pay for it). */
const checkResponses = process.env.TESSERA_CHECK_RESPONSES === '1';

function parse(route: ApiRoute, where: 'body' | 'query' | 'params', value: unknown): any {
  const schema = route[where];
  if (!schema) return value ?? (where === 'body' ? undefined : {});
  const r = schema.safeParse(value ?? (where === 'body' ? {} : {}));
  if (!r.success) throw validationError(where, r.error);
  return r.data;
}

function openSse(reply: FastifyReply, logId: string): SseStream {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-tt-logid': logId,
  });
  // The client learns at once that the stream is open.
  res.flushHeaders();
  let closed = false;
  res.on('close', () => {
    closed = true;
  });
  return {
    send(event, data, id) {
      if (closed) return;
      const payload = typeof data === 'string' ? data : toJson(data);
      res.write(`${id ? `id: ${id}\n` : ''}event: ${event}\ndata: ${payload.split('\n').join('\ndata: ')}\n\n`);
      // Node holds writes back until the next tick (to batch them); an event is sent now, not after
      // whatever else the current chain of promises does (a model stream parses its remaining chunks).
      res.socket?.uncork();
    },
    close() {
      if (!closed) {
        closed = true;
        res.end();
      }
    },
    get closed() {
      return closed;
    },
  };
}
