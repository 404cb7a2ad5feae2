// WebSocket routes (`WebSocketRoutes`): on the HTTP server's upgrades, the caller is authenticated as for an API
// route (a session cookie — from the studio's own origin only — or a token, in the Authorization header or, as
// browsers' WebSockets cannot send headers, `?authorization=Bearer ...` as Coze's clients do), the token's permission
// and the query checked; a refusal is an HTTP answer with the JSON error before any upgrade. The `ws` library loads
// with the first upgrade.
import { describeError } from '@tessera/core';
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { HookPoint, RegistryView } from '@tessera/core';
import { ApiError, ErrorCode, forbidden, notFound } from '@tessera/sdk';
import {
  isAuthRejection,
  type AuthRejection,
  type AuthRequest,
  type Caller,
  type InterceptedRequest,
  type SocketConnection,
  type SpaceAccess,
  type SpaceRole,
  type WebSocketRoute,
} from '@tessera/sdk/server';
import type { WebSocketServer } from 'ws';
import { parseCookies } from './routes.ts';

/** The largest message a client may send (a second of 48 kHz audio is under 200 KB in base64). */
const MAX_PAYLOAD = 16 * 1024 * 1024;

export interface WebSocketMountOptions {
  authenticators: HookPoint<[AuthRequest], Caller | AuthRejection>;
  spaceAuthorizers: HookPoint<[Caller, string], SpaceAccess>;
  interceptors: HookPoint<[InterceptedRequest], ApiError | undefined>;
  newId: () => string;
  report: (message: string, error: unknown) => void;
  /** An error's message in the caller's language (Accept-Language). */
  localize: (error: ApiError, language: string) => string;
}

export function mountWebSockets(
  server: Server,
  routes: RegistryView<WebSocketRoute>,
  { authenticators, spaceAuthorizers, interceptors, newId, report, localize }: WebSocketMountOptions,
): { close(): Promise<void> } {
  let wss: Promise<WebSocketServer> | undefined;
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    void upgrade(req, socket, head).catch((e: unknown) => {
      report(`a WebSocket upgrade failed: ${describeError(e)}`, e);
      refuse(socket, 500, 'The connection could not be opened.', '');
    });
  });

  async function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    const url = new URL(req.url ?? '/', 'http://studio');
    const route = routes.get(url.pathname);
    const logId = newId();
    if (!route) return refuse(socket, 404, `No WebSocket route ${url.pathname}.`, logId);
    const query: Record<string, string> = Object.fromEntries(url.searchParams);
    const headers: Record<string, string | string[] | undefined> = { ...req.headers };
    if (!headers.authorization && query.authorization) headers.authorization = query.authorization;
    delete query.authorization;
    // A session cookie is the studio's own pages' only: another site's page may not open a socket in its name.
    const origin = req.headers.origin;
    if (!headers.authorization && origin && hostOf(origin) !== req.headers.host)
      return refuse(socket, 403, 'A WebSocket from another site needs a token.', logId);
    const found =
      authenticators.size === 0
        ? undefined
        : await authenticators.call({
            headers,
            cookies: parseCookies(req.headers.cookie),
            method: 'GET',
            url: req.url ?? '/',
            ip: req.socket.remoteAddress ?? '',
          });
    if (isAuthRejection(found)) return refuse(socket, found.status, found.msg, logId);
    const caller = found ?? undefined;
    if (route.auth === 'user' && !caller)
      return refuse(
        socket,
        401,
        'Sign in to continue: this connection needs a signed-in user or an access token.',
        logId,
      );
    if (caller?.kind === 'token' && caller.tokenAllows && !caller.tokenAllows(route.permission, undefined))
      return refuse(socket, 403, `This access token lacks the permission '${route.permission}'.`, logId);
    const parsed = route.query ? route.query.safeParse(query) : { success: true as const, data: query };
    if (!parsed.success)
      return refuse(
        socket,
        400,
        `Invalid query: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
        logId,
      );
    let checked: Checked;
    try {
      checked = await check(route, caller, parsed.data, req.url ?? '/', headers, req.socket.remoteAddress ?? '');
    } catch (e) {
      if (!ApiError.is(e)) throw e;
      return refuse(socket, e.status, localize(e, String(req.headers['accept-language'] ?? '')), logId, e.code);
    }
    const server = await (wss ??= import('ws').then(
      (m) => new m.WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD }),
    ));
    server.handleUpgrade(req, socket, head, (ws) => {
      const closed = new AbortController();
      const listeners: ((text: string) => void | Promise<void>)[] = [];
      const binaryListeners: ((data: Uint8Array) => void | Promise<void>)[] = [];
      // Messages are handled one after the other (an audio chunk is not read before the settings before it); those
      // that arrive before the route listens (it may look things up first) wait for it.
      let queue = Promise.resolve();
      const early: (string | Uint8Array)[] = [];
      const listening = () => listeners.length + binaryListeners.length > 0;
      const dispatch = (message: string | Uint8Array) => {
        queue = queue.then(async () => {
          const text = typeof message === 'string';
          for (const l of text ? listeners : binaryListeners)
            try {
              await (l as (m: string | Uint8Array) => void | Promise<void>)(message);
            } catch (e) {
              report(`a WebSocket message on ${route.path} failed: ${describeError(e)}`, e);
              conn.send({
                id: newId(),
                event_type: 'error',
                data: { code: 500, msg: describeError(e) },
                detail: { logid: logId },
              });
            }
        });
      };
      const conn: SocketConnection = {
        send: (m) => {
          if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
        },
        sendBinary: (data) => {
          if (ws.readyState === ws.OPEN) ws.send(data, { binary: true });
        },
        close: (code, reason) => ws.close(code, reason),
        onMessage: (l) => {
          listeners.push(l);
          for (const m of early.splice(0)) dispatch(m);
        },
        onBinary: (l) => {
          binaryListeners.push(l);
          for (const m of early.splice(0)) dispatch(m);
        },
        get buffered() {
          return ws.bufferedAmount;
        },
        signal: closed.signal,
      };
      ws.on('message', (data, binary) => {
        if (binary && !route.binary) return ws.close(1003, 'Send JSON text messages.');
        const message = binary ? bytesOf(data) : data.toString();
        if (!listening()) {
          if (early.length < 1000) early.push(message);
          return;
        }
        dispatch(message);
      });
      ws.on('close', () => closed.abort());
      ws.on('error', () => closed.abort());
      Promise.resolve(route.handler(conn, { caller, query: parsed.data, logId, ...checked })).catch((e: unknown) => {
        report(`the WebSocket route ${route.path} failed: ${describeError(e)}`, e);
        ws.close(1011, 'The server failed.');
      });
    });
  }

  return {
    /** Closes every open connection (1001, going away): the studio is stopping. */
    async close() {
      const open = await wss;
      for (const ws of open?.clients ?? []) ws.close(1001, 'The studio is stopping.');
      open?.close();
    },
  };

  type Checked = { spaceId?: string; spaceRole?: SpaceRole; readOnly: boolean };
  /** The route's space (membership, a token's reach) and resource (the change policies), as for an API route. */
  async function check(
    route: WebSocketRoute,
    caller: Caller | undefined,
    query: unknown,
    url: string,
    headers: Record<string, string | string[] | undefined>,
    ip: string,
  ): Promise<Checked> {
    if (!route.space) return { readOnly: false };
    const spaceId = await route.space(query);
    if (!spaceId || !caller) throw notFound('The space this connection touches was not found.');
    const access = spaceAuthorizers.size ? await spaceAuthorizers.call(caller, spaceId) : undefined;
    if (!access?.allowed)
      throw new ApiError(403, ErrorCode.FORBIDDEN, 'You are not a member of this space.', '', {
        text: { key: 'host.notMember' },
      });
    if (caller.kind === 'token' && caller.tokenAllows && !caller.tokenAllows(route.permission, spaceId))
      throw forbidden(`This access token does not reach space ${spaceId}.`);
    const resource = route.resource?.(query);
    let readOnly = false;
    if (resource && interceptors.size) {
      const owner = routes.entries().find((e) => e.value === route)?.owner ?? '';
      const refused = await interceptors.call({
        method: 'GET',
        route: route.path,
        url,
        extensionId: owner,
        caller,
        spaceId,
        spaceRole: access.role,
        resource: { kind: resource.kind, id: resource.id, write: resource.write !== false },
        headers,
        ip,
      });
      if (refused && resource.write === 'or-read-only') readOnly = true;
      else if (refused) throw ApiError.is(refused) ? refused : forbidden('This connection was refused by a policy.');
    }
    return { spaceId, spaceRole: access.role, readOnly };
  }
}

/** A binary message's bytes (ws hands a Buffer, or fragments as a list). */
function bytesOf(data: Buffer | ArrayBuffer | Buffer[]): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data);
  return data instanceof ArrayBuffer ? new Uint8Array(data) : data;
}

/** An HTTP answer instead of the upgrade: the status and a JSON error (what `@coze/api` reads), then closed. */
function refuse(socket: Duplex, status: number, msg: string, logId: string, code = status * 1000) {
  if (socket.destroyed) return;
  const body = JSON.stringify({ code, msg, detail: { logid: logId } });
  socket.write(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Tt-Logid: ${logId}\r\nConnection: close\r\n\r\n${body}`,
  );
  socket.destroy();
}

/** An Origin header's host ('' for one that is not a URL: treated as another site's). */
function hostOf(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return '';
  }
}
