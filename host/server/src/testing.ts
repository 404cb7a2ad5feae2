import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ExtensionCandidate, ExtensionDefinition, Injectable, ServiceToken } from '@tessera/core';
import { LOG_ID_HEADER } from '@tessera/sdk';
import {
  RequestAuthenticators,
  SpaceAuthorizers,
  type Caller,
  type ServerContext,
  type SpaceRole,
} from '@tessera/sdk/server';
import { loadConfig } from './config.ts';
import { createServer, type TesseraServer } from './server.ts';

export interface ExtensionStub {
  id: string;
  /** Services the stub provides (tokens owned by `id`). */
  services?: [ServiceToken<any>, unknown][];
  register?(ctx: ServerContext): void;
}

export interface ExtensionTesterOptions {
  /** The extension's package folder: its package.json "tessera" field gives requires/optional. */
  packageDir?: string;
  requires?: string[];
  optional?: string[];
  config?: unknown;
  /** Stand-ins for what the extension requires. */
  stubs?: ExtensionStub[];
  /** Test users: `as: 'ann'` in a request makes ann the caller. */
  users?: Record<string, Partial<Caller>>;
  /** Space memberships: { spaceId: { userId: role } }. */
  spaces?: Record<string, Record<string, SpaceRole>>;
  /**
   * Stand-ins for any service, the extension's own included: bound first and kept when the extension provides the
   * same token (a clock, a model registry, a store), so a test rebinds what it needs without stubbing an extension.
   * A class as the key stands in for one of the extension's own classes (what `ctx.resolve` and `inject` lists make).
   */
  services?: [Injectable, unknown][];
  /** Outbound HTTP may reach loopback and private addresses (a receiver the test runs on 127.0.0.1). */
  allowPrivateNetwork?: boolean;
}

export interface TestResponse<T = any> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON (the envelope for internal routes). */
  body: T;
  text: string;
  logId: string;
}

export interface ExtensionTester {
  server: TesseraServer;
  /** A body of bytes (a multipart upload) is sent as it is, with the headers given; anything else as JSON. */
  request<T = any>(opts: {
    method?: string;
    url: string;
    body?: unknown;
    headers?: Record<string, string>;
    as?: string;
  }): Promise<TestResponse<T>>;
  /** Calls an internal route and returns `data`, failing with the envelope's message when code != 0. */
  call<T = any>(method: string, url: string, body?: unknown, as?: string): Promise<T>;
  close(): Promise<void>;
}

/**
 * Starts one extension alone, on in-memory SQLite, with stubs for what it requires and test
 * callers (`as`). Requests go through the real Fastify stack (auth, validation, envelope).
 */
export async function createExtensionTester(
  extension: ExtensionDefinition<ServerContext>,
  options: ExtensionTesterOptions = {},
): Promise<ExtensionTester> {
  let requires = options.requires ?? [];
  let optional = options.optional ?? [];
  let version = '0.0.0-test';
  if (options.packageDir) {
    const pkg = JSON.parse(readFileSync(path.join(options.packageDir, 'package.json'), 'utf8'));
    requires = pkg.tessera?.requires ?? requires;
    optional = pkg.tessera?.optional ?? optional;
    version = pkg.version ?? version;
  }
  const users = options.users ?? {};
  const spaces = options.spaces ?? {};
  const harness: ExtensionDefinition<ServerContext> = {
    id: 'test-harness',
    register(ctx) {
      ctx.tap(RequestAuthenticators, 'test-users', (req) => {
        const id = req.headers['x-test-user'];
        if (typeof id !== 'string') return undefined;
        return { kind: 'user', userId: id, isPlatformAdmin: false, ...users[id] } satisfies Caller;
      });
      // Spaces named in the options answer here; others are left to the extension under test.
      ctx.tap(SpaceAuthorizers, 'test-spaces', (caller, spaceId) => {
        if (!(spaceId in spaces)) return undefined;
        const role = spaces[spaceId][caller.userId];
        return role ? { allowed: true, role } : { allowed: false };
      });
    },
  };
  const stubCandidates: ExtensionCandidate<ServerContext>[] = (options.stubs ?? []).map((s) => ({
    manifest: { id: s.id, version: '0.0.0-stub', requires: [], optional: [] },
    source: 'test',
    load: async () => ({
      id: s.id,
      register(ctx) {
        for (const [token, value] of s.services ?? []) ctx.provide(token, value);
        s.register?.(ctx);
      },
    }),
  }));
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tessera-test-'));
  const config = loadConfig({
    root: process.cwd(),
    env: {
      TESSERA_LOG_LEVEL: process.env.TESSERA_LOG_LEVEL ?? 'silent',
      ...(options.allowPrivateNetwork ? { TESSERA_ALLOW_PRIVATE_NETWORK: 'true' } : {}),
    },
    overrides: { dataDir, port: 0 },
  });
  config.extensions[extension.id] = { config: options.config, onFailure: 'abort' };
  const server = await createServer(config, {
    discover: false,
    sqliteFile: ':memory:',
    serviceOverrides: options.services,
    candidates: [
      {
        manifest: { id: 'test-harness', version: '0', requires: [], optional: [] },
        source: 'test',
        load: async () => harness,
      },
      ...stubCandidates,
      { manifest: { id: extension.id, version, requires, optional }, source: 'test', load: async () => extension },
    ],
  });
  const request: ExtensionTester['request'] = async ({ method = 'GET', url, body, headers = {}, as }) => {
    const res = await server.app.inject({
      method: method as 'GET',
      url,
      payload:
        body === undefined
          ? undefined
          : typeof body === 'string' || body instanceof Uint8Array
            ? body
            : JSON.stringify(body),
      headers: {
        ...(body !== undefined && !(body instanceof Uint8Array) ? { 'content-type': 'application/json' } : {}),
        ...(as ? { 'x-test-user': as } : {}),
        ...headers,
      },
    });
    let parsed: unknown = undefined;
    try {
      parsed = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      parsed = undefined;
    }
    return {
      status: res.statusCode,
      headers: res.headers as TestResponse['headers'],
      body: parsed as any,
      text: res.body,
      logId: String(res.headers[LOG_ID_HEADER] ?? ''),
    };
  };
  return {
    server,
    request,
    async call(method, url, body, as) {
      const r = await request({ method, url, body, as });
      if (r.body?.code !== 0)
        throw new Error(`${method} ${url} answered ${r.status} ${r.body?.code} ${r.body?.msg} ${r.logId}`);
      return r.body.data;
    },
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
