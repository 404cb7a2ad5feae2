import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Fastify, { LogController, type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import fastifyStatic from '@fastify/static';
import {
  ExtensionHost,
  type ExtensionCandidate,
  type ExtensionContext,
  type Logger,
  type Injectable,
  describeError,
} from '@tessera/core';
import {
  ApiError,
  ErrorCode,
  fieldOf,
  illFormedMessage,
  jsonIllFormedAt,
  jsonNestsDeeper,
  LOG_ID_HEADER,
  MAX_JSON_DEPTH,
  StudioStarted,
} from '@tessera/sdk';
import {
  ApiRoutes,
  BackgroundJobs,
  BulkWriterService,
  DatabaseService,
  ErrorTexts,
  ExtensionAdminService,
  localizedMessage,
  HostInfoService,
  WebEntriesService,
  BroadcastService,
  JobQueueService,
  WebSocketRoutes,
  SchedulesService,
  OutboundHttpService,
  RateLimiter,
  Migrations,
  RequestAuthenticators,
  RequestsCompleted,
  ServerRequestInterceptors,
  SecretsService,
  SpaceAuthorizers,
  SpaceConnectors,
  SpaceConnectorsService,
  Connectors,
  type Database,
  type HostInfo,
  type ServerContext,
} from '@tessera/sdk/server';
import { z } from 'zod';
import type { TesseraConfig } from './config.ts';
import { kyselyBulkWriter, threadedBulkWriter } from './bulk-writer.ts';
import { ensureMigrationTable, migrateExtension, openDatabase } from './database.ts';
import { discoverExtensions, settleIds, type DiscoveredExtension, type DiscoveryProblem } from './discovery.ts';
import { asApiError, errorEnvelope, OPEN_API_PATH, openApiErrorBody, toJson } from './http/envelope.ts';
import { checkDataDir } from './data-dir.ts';
import { provideHostModules } from './runtime-modules.ts';
import { prettyStream } from './pretty-log.ts';
import { createExtensionAdmin } from './extension-admin.ts';
import { completedRequest } from './http/completed.ts';
import { securityHeaders } from './http/security.ts';
import { webEntriesOf } from './web-entries.ts';
import { buildOpenApi } from './http/openapi.ts';
import { RequestDiagnostics } from './http/diagnostics.ts';
import { mountRoute } from './http/routes.ts';
import type {} from './http/fastify-types.ts';
import { mountWebSockets } from './http/websockets.ts';
import { createIdGenerator, newLogId } from './ids.ts';
import { InProcessQueue } from './jobs.ts';
import { DatabaseSchedules, ensureSchedulesTable, type HostSchedules } from './schedules.ts';
import { checkOutbound, guardedFetch, OutboundAllowList } from './outbound.ts';
import type { BullQueue } from './jobs-bullmq.ts';
import { createSecrets, loadSecretKey } from './secrets.ts';

const requireHere = createRequire(import.meta.url);
/** Fastify's default validator and serializer factories, required the first time one is built. */
function lazySchemaCompilers(): NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']> {
  type Factory = (...args: unknown[]) => never;
  let validator: Factory | undefined;
  let serializer: Factory | undefined;
  return {
    buildValidator: (...args: unknown[]) =>
      (validator ??= (requireHere('@fastify/ajv-compiler') as () => Factory)())(...args),
    buildSerializer: (...args: unknown[]) =>
      (serializer ??= (requireHere('@fastify/fast-json-stringify-compiler') as () => Factory)())(...args),
  };
}

export interface TesseraServer {
  app: FastifyInstance;
  host: ExtensionHost<ServerContext>;
  config: TesseraConfig;
  database: Database;
  queue: InProcessQueue | BullQueue;
  /**
   * The scheduler: on the database, or on Redis's job schedulers (`config.queue.scheduler`). Tests of the database's
   * fire what is due at a time of their choosing: `(schedules as DatabaseSchedules).runDue(ms)`.
   */
  schedules: HostSchedules;
  extensions: DiscoveredExtension[];
  /** Starts listening; resolves to the base URL. */
  listen(): Promise<string>;
  /**
   * An error that escaped every handler (a timer's throw, a promise nobody awaited): reported with the
   * extension whose folder its stack names, and the process goes on.
   */
  reportUncaught(error: unknown, kind: 'uncaught exception' | 'unhandled rejection'): void;
  /** The extension whose folder an error's stack names first (undefined when none does). */
  ownerOf(error: unknown): string | undefined;
  close(): Promise<void>;
}

export interface CreateServerOptions {
  /** Extensions beyond the discovered ones (the SDK tester, host tests). */
  candidates?: ExtensionCandidate<ServerContext>[];
  /** Look in extensions/ and extensionsDir (default true). */
  discover?: boolean;
  /** SQLite file; default <dataDir>/tessera.db, ':memory:' for tests. */
  sqliteFile?: string;
  /** Only these discovered extensions (plus their requirements) are considered. */
  only?: string[];
  /** Run background jobs in this process (default true; TESSERA_QUEUE_CONSUMER=false turns it off). */
  consumeJobs?: boolean;
  /** Stand-ins for services, kept over what an extension provides (the extension tester). */
  serviceOverrides?: [Injectable, unknown][];
}

const CLIENT_ERROR = z.object({
  message: z.string().max(4000),
  source: z.string().max(64).optional(),
  extensionId: z.string().max(128).optional(),
  url: z.string().max(2000).optional(),
  api: z.object({ status: z.number(), code: z.number(), msg: z.string(), logId: z.string() }).partial().optional(),
  detail: z.record(z.string(), z.unknown()).optional(),
});

export async function createServer(config: TesseraConfig, options: CreateServerOptions = {}): Promise<TesseraServer> {
  const app = Fastify({
    // JSON lines for log collectors; readable lines when a person watches a terminal.
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            ...(process.stdout.isTTY && process.env.TESSERA_LOG_FORMAT !== 'json' ? { stream: prettyStream() } : {}),
          },
    genReqId: () => newLogId(),
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 10 * 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
    forceCloseConnections: true,
    // The client address (rate limits, logs) comes from X-Forwarded-For only behind a trusted proxy.
    trustProxy: config.trustProxy as boolean | string, // a hop count works too (Fastify's types omit it)
    // Routes are checked with their zod schemas and answer JSON text: Fastify's JSON-schema compilers (ajv,
    // fast-json-stringify: 14 MiB and 40 ms at start) load only if a route (a plugin's) ever gives Fastify a schema.
    schemaController: { compilersFactory: lazySchemaCompilers() },
  });
  // Bodies are parsed as before (prototype poisoning refused), and refused when nested too deeply
  // (serialising such a value later would overflow the stack).
  const parseJson = app.getDefaultJsonParser('error', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    // A route that checks a signature over the bytes sent (an incoming webhook) keeps the text as received.
    if (request.routeOptions?.config?.rawBody) request.rawBody = text;
    void parseJson(request, text, (err: Error | null, value?: unknown) => {
      if (err) return done(err, undefined);
      if (jsonNestsDeeper(value))
        return done(
          new ApiError(
            400,
            ErrorCode.MALFORMED_BODY,
            `The request body nests more than ${MAX_JSON_DEPTH} levels deep; flatten it.`,
          ),
          undefined,
        );
      const illFormed = jsonIllFormedAt(value, text);
      if (illFormed)
        return done(
          new ApiError(
            400,
            ErrorCode.MALFORMED_BODY,
            illFormedMessage(illFormed === '(the body)' ? 'The request body' : `The request body at ${illFormed}`),
          ),
          undefined,
        );
      done(null, value);
    });
  });
  // Upload routes read their body themselves, as a stream (multipart, raw bytes or protobuf); other routes refuse those.
  const isUpload = (request: FastifyRequest) => !!request.routeOptions?.config?.upload;
  const unsupported = (request: { headers: Record<string, unknown> }) =>
    Object.assign(new Error(`Unsupported Media Type: ${String(request.headers['content-type'] ?? 'none')}`), {
      code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
      statusCode: 415,
    });
  app.addContentTypeParser(
    ['multipart/form-data', 'application/octet-stream', 'application/x-protobuf', 'application/protobuf'],
    (request, _payload, done) => {
      if (isUpload(request)) return done(null, undefined);
      done(unsupported(request), undefined);
    },
  );
  // A form's body reaches only the routes that take one (formBody: OAuth's token endpoint, a webhook trigger), as an
  // object of strings (and its text as received with rawBody).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (request, body, done) => {
    const config = request.routeOptions?.config;
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (!config?.formBody) return text === '' ? done(null, undefined) : done(unsupported(request), undefined);
    if (config.rawBody) request.rawBody = text;
    done(null, Object.fromEntries(new URLSearchParams(text)));
  });
  // A POST without a body may come with any content type (HTTP clients such as Coze's SDK send one for
  // calls whose parameters are all in the query): an empty body is no body; anything else must be JSON.
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    done(unsupported(request), undefined);
  });
  const logger = pinoLogger(app.log);

  // A data folder that cannot be written (read-only, full, not a folder) is refused now, by name,
  // rather than found out half-way (a half-started studio, or SQLite's "unable to open database file").
  checkDataDir(config.dataDir);
  const sqliteFile = options.sqliteFile ?? path.join(config.dataDir, 'tessera.db');
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    sqliteFile,
    onConnectionError: (e) => logger.warn(`database connection lost (the pool reconnects): ${e.message}`),
  });
  await ensureMigrationTable(database.db);
  await ensureSchedulesTable(database.db);
  const diagnostics = config.diagnostics ? new RequestDiagnostics() : undefined;
  if (diagnostics) database.db = database.db.withPlugin(diagnostics.plugin);

  const host: ExtensionHost<ServerContext> = new ExtensionHost<ServerContext>({
    logger,
    serviceOverrides: options.serviceOverrides,
    defaultStartTimeoutMs: config.startupDefault.timeoutMs,
    defaultOnFailure: config.startupDefault.onFailure,
    memory: () => process.memoryUsage.rss(),
    extendContext: (base: ExtensionContext) => serverContext(base, host),
    beforeStart: async (id) => {
      const applied = await migrateExtension(database.db, id, host.points.registry(Migrations).list());
      if (applied.length) logger.info(`migrated ${id}`, { extensionId: id, migrations: applied });
    },
  });

  const newId = createIdGenerator();
  const info: HostInfo = {
    platformName: config.platformName,
    dataDir: config.dataDir,
    publicUrl: config.publicUrl,
    allowPrivateNetwork: config.allowPrivateNetwork,
    distributed: !!config.redisUrl,
    newId,
  };
  const jobFailed = (job: string, error: unknown) =>
    host.report({
      source: 'job',
      message: `background job '${job}' failed: ${describeError(error)}`,
      error,
      extensionId: host.points.registry(BackgroundJobs).ownerOf(job),
    });
  // BullMQ and its Redis client load only when a Redis URL is configured (the scale-out engine).
  const queue = config.redisUrl
    ? new (await import('./jobs-bullmq.ts')).BullQueue(
        config.redisUrl,
        host.points.registry(BackgroundJobs),
        jobFailed,
        config.queue.prefix,
        config.queue.stallMs,
      )
    : new InProcessQueue(host.points.registry(BackgroundJobs), jobFailed);
  host.provideHostService(DatabaseService, database);
  // Records written behind the request path go through a worker thread on the SQLite file (the second core).
  const directWriter = kyselyBulkWriter(database.db);
  const bulkWriter =
    database.dialect === 'sqlite' && sqliteFile !== ':memory:' && process.env.TESSERA_BULK_WRITER !== 'main'
      ? threadedBulkWriter(sqliteFile, directWriter, (e) =>
          logger.warn(`the bulk writer's thread failed (writing on the main thread instead): ${e.message}`),
        )
      : undefined;
  host.provideHostService(BulkWriterService, bulkWriter ?? directWriter);
  host.provideHostService(SecretsService, createSecrets(loadSecretKey(config.dataDir, config.secretKey)));
  host.provideHostService(HostInfoService, info);
  host.provideHostService(WebEntriesService, webEntriesOf(path.join(config.webDist, 'entries')));
  host.provideHostService(JobQueueService, queue);
  const reportBroadcast = (message: string, error: unknown) => host.report({ source: 'broadcast', message, error });
  const broadcast = config.redisUrl
    ? await (await import('./broadcast.ts')).redisBroadcast(config.redisUrl, config.queue.prefix, reportBroadcast)
    : new (await import('./broadcast.ts')).LocalBroadcast(reportBroadcast);
  host.provideHostService(BroadcastService, broadcast);
  const scheduleErrors = (error: unknown) =>
    host.report({ source: 'job', message: `scheduler: ${describeError(error)}`, error });
  const schedules: HostSchedules =
    queue instanceof InProcessQueue || config.queue.scheduler === 'database'
      ? new DatabaseSchedules(database.db, queue, {
          pollMs: config.queue.schedulePollMs,
          jobs: () =>
            host.points
              .registry(BackgroundJobs)
              .list()
              .map((j) => j.name),
          onError: scheduleErrors,
        })
      : (await import('./schedules-bullmq.ts')).bullSchedulesOn(database.db, queue, { onError: scheduleErrors });
  host.provideHostService(SchedulesService, schedules);
  host.provideHostService(SpaceConnectorsService, {
    of: async (spaceId, kind) => {
      const built = host.points.registry(Connectors).list();
      const all = await host.points.hook(SpaceConnectors).call(built, spaceId);
      return kind ? all.filter((c) => c.kinds.includes(kind)) : all;
    },
  });
  const outboundAllow = new OutboundAllowList(config.outbound.allow);
  host.provideHostService(OutboundHttpService, {
    fetch: guardedFetch(() => config.allowPrivateNetwork, config.outbound),
    check: async (url, opts) =>
      void (await checkOutbound(url, config.allowPrivateNetwork || opts?.allowPrivate === true, outboundAllow)),
  });

  const problems: DiscoveryProblem[] = [];
  const warnings: DiscoveryProblem[] = [];
  let discovered: DiscoveredExtension[] = [];
  if (options.discover !== false) {
    provideHostModules(config.extensionsDir);
    discovered = settleIds(
      discoverExtensions(config.builtinExtensionsDir, 'builtin', problems, warnings),
      discoverExtensions(config.extensionsDir, 'runtime', problems, warnings),
      problems,
    );
    if (options.only) discovered = discovered.filter((d) => withRequirements(options.only!, discovered).has(d.pkg.id));
  }
  for (const p of problems)
    host.report({ source: 'extension', extensionId: p.id, message: `extension in ${p.dir} skipped: ${p.message}` });
  for (const w of warnings) logger.warn(`extension '${w.id}' in ${w.dir}: ${w.message}`);
  host.provideHostService(ExtensionAdminService, createExtensionAdmin(host, config, discovered, problems));
  for (const t of HOST_ERROR_TEXTS) host.points.registry(ErrorTexts).register('host', t);
  try {
    await host.start(
      [...discovered.map((d) => d.candidate), ...(options.candidates ?? [])],
      (id) => config.extensions[id] ?? {},
    );
  } catch (e) {
    // An aborting extension stops the start: release what was opened before rethrowing.
    await host.stop();
    await database.db.destroy();
    throw e;
  }
  host.bus.emit(StudioStarted, {
    extensions: host
      .status()
      .filter((s) => s.state === 'started')
      .map((s) => s.id),
  });
  // An id the configuration names that no installed extension has (a typo, one removed) is said, not ignored.
  if (options.discover !== false) {
    const known = new Set([...host.status().map((x) => x.id), ...problems.flatMap((p) => (p.id ? [p.id] : []))]);
    for (const [id, where] of Object.entries(config.extensionMentions ?? {})) {
      if (!known.has(id))
        logger.warn(
          `${where} names the extension '${id}', which is not installed; it is ignored. The installed ones are: ${[...known].sort((a, b) => a.localeCompare(b)).join(', ')}.`,
        );
    }
  }

  // ---- HTTP: every response carries the log id; every error is an envelope.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(LOG_ID_HEADER, request.id);
    done();
  });
  app.addHook('onSend', securityHeaders);
  // Answered API requests, told to RequestsCompleted (audit logs) after the response went out.
  const completed = host.points.hook(RequestsCompleted);
  app.addHook('onResponse', (request, reply, done) => {
    done();
    const config = request.routeOptions?.config;
    if (!completed.size || !config?.extensionId) return;
    void Promise.resolve(completed.call(completedRequest(request, reply, config.extensionId, config.audit))).catch(
      (error: unknown) => host.report({ source: 'hook', message: `requestsCompleted: ${describeError(error)}`, error }),
    );
  });
  diagnostics?.install(app);
  app.setErrorHandler((err, request, reply) => {
    let apiErr = asApiError(err);
    apiErr.logId = request.id;
    // In the caller's language when the error's text is registered (the page sends Accept-Language).
    const msg = localizedMessage(
      apiErr,
      String(request.headers['accept-language'] ?? ''),
      host.points.registry(ErrorTexts),
    );
    if (msg !== apiErr.msg)
      apiErr = new ApiError(apiErr.status, apiErr.code, msg, apiErr.logId, {
        kind: apiErr.kind,
        detail: apiErr.detail,
        openCode: apiErr.openCode,
      });
    // A failed route reaches the error sinks (which log it), with its extension, status and log id.
    if (apiErr.status >= 500) {
      const extensionId = request.routeOptions?.config?.extensionId;
      host.report({
        source: 'request',
        extensionId,
        message: `${request.method} ${request.routeOptions?.url ?? request.url} failed: ${describeError(err)}`,
        error: err,
        api: { status: apiErr.status, code: apiErr.code, msg: apiErr.msg, logId: request.id, url: request.url },
      });
    }
    if (OPEN_API_PATH.test(request.url)) {
      // The open API speaks Coze's codes; a streaming route answers 200 so that SSE clients read the body.
      const stream = request.routeOptions?.config?.stream;
      return reply
        .code(stream ? 200 : apiErr.status)
        .type('application/json; charset=utf-8')
        .send(openApiErrorBody(apiErr));
    }
    reply.code(apiErr.status).type('application/json; charset=utf-8').send(errorEnvelope(apiErr));
  });
  const hasWeb = existsSync(path.join(config.webDist, 'index.html'));
  const indexHtml = hasWeb ? readFileSync(path.join(config.webDist, 'index.html'), 'utf8') : '';
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0];
    if (request.method === 'GET' && hasWeb && !/^\/(api|v1|v3|_extensions)(\/|$)/.test(url) && !path.extname(url)) {
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml);
    }
    const err = new ApiError(
      404,
      ErrorCode.ROUTE_NOT_FOUND,
      `No API route ${request.method} ${url}. See /openapi.json for the routes.`,
      request.id,
    );
    reply
      .code(404)
      .type('application/json; charset=utf-8')
      .send(OPEN_API_PATH.test(url) ? openApiErrorBody(err) : errorEnvelope(err));
  });

  const limiter = new RateLimiter();
  const mountOpts = {
    authenticators: host.points.hook(RequestAuthenticators),
    spaceAuthorizers: host.points.hook(SpaceAuthorizers),
    interceptors: host.points.hook(ServerRequestInterceptors),
  };
  for (const { value, owner } of host.points.registry(ApiRoutes).entries())
    mountRoute(app, value, mountOpts, limiter, owner);
  const sockets = mountWebSockets(app.server, host.points.registry(WebSocketRoutes), {
    ...mountOpts,
    newId,
    report: (message, error) => host.report({ source: 'websocket', message, error }),
    localize: (error, language) => localizedMessage(error, language, host.points.registry(ErrorTexts)),
  });

  const startedAt = Date.now();
  app.get('/healthz', async (_req, reply) => {
    reply.type('application/json').send(
      toJson({
        status: 'ok',
        uptimeMs: Date.now() - startedAt,
        extensions: host.status().filter((s) => s.state === 'started').length,
      }),
    );
  });
  let openapi: string | undefined;
  app.get('/openapi.json', async (_req, reply) => {
    openapi ??= toJson(
      buildOpenApi(host.points.registry(ApiRoutes).entries(), {
        title: `${config.platformName} API`,
        version: '0.1.0',
      }),
    );
    reply.type('application/json').send(openapi);
  });

  const byId = new Map(discovered.map((d) => [d.pkg.id, d]));
  app.get('/api/extensions', async (_req, reply) => {
    const extensions = host.status().map((s) => {
      const d = byId.get(s.id);
      const client = !d?.pkg.client
        ? null
        : d.candidate.source === 'builtin'
          ? { type: 'builtin' as const }
          : {
              type: 'remote' as const,
              entry: `/_extensions/${s.id}/${path.basename(d.pkg.client)}`,
              remoteName: d.pkg.remoteName ?? `tessera_ext_${s.id.replace(/[^a-z0-9]/g, '_')}`,
            };
      return {
        id: s.id,
        version: s.version,
        state: s.state,
        reason: s.reason,
        source: s.source,
        folder: s.dir ?? null,
        name: d?.pkg.name,
        description: d?.pkg.description,
        requires: d?.pkg.requires ?? [],
        optional: d?.pkg.optional ?? [],
        client,
      };
    });
    // Folders that were found but not loaded (an invalid manifest, an id already taken, a version not met).
    for (const p of problems)
      extensions.push({
        id: p.id ?? path.basename(p.dir),
        version: '',
        state: 'failed',
        reason: p.message,
        source: p.source ?? 'runtime',
        folder: p.dir,
        name: undefined,
        description: undefined,
        requires: [],
        optional: [],
        client: null,
      });
    reply
      .type('application/json')
      .send(toJson({ code: 0, msg: '', data: { platformName: config.platformName, extensions } }));
  });
  app.get('/_extensions/:id/*', async (request, reply) => {
    const { id, '*': file } = request.params as { id: string; '*': string };
    const d = byId.get(id);
    if (
      !d ||
      d.candidate.source !== 'runtime' ||
      !d.pkg.client ||
      !host.status().some((s) => s.id === id && s.state === 'started')
    ) {
      throw new ApiError(404, ErrorCode.NOT_FOUND, `No client bundle for extension '${id}'.`);
    }
    return reply.sendFile(file, path.dirname(path.resolve(d.dir, d.pkg.client)));
  });
  // Anyone may report a browser error (signed-out pages fail too), so what reaches the log is bounded:
  // a small body, a rate per address and for everyone, and text with its line breaks escaped.
  app.post('/api/host/client_errors', { bodyLimit: 16 * 1024 }, async (request, reply) => {
    if (!limiter.take(`client_errors ${request.ip}`, 120, 60_000) || !limiter.take('client_errors *', 1200, 60_000))
      throw new ApiError(429, ErrorCode.RATE_LIMITED, 'Too many error reports.');
    const parsed = CLIENT_ERROR.safeParse(request.body);
    if (!parsed.success) throw new ApiError(400, ErrorCode.INVALID_PARAMS, 'Invalid error report.');
    const report = logSafe(parsed.data) as z.infer<typeof CLIENT_ERROR>;
    request.log.warn({ clientError: report, logId: request.id }, `client error: ${report.message.slice(0, 500)}`);
    reply.type('application/json').send(toJson({ code: 0, msg: '', data: null }));
  });

  await app.register(fastifyStatic, {
    root: hasWeb ? config.webDist : path.join(config.root, 'host/web'),
    prefix: '/',
    index: false,
    wildcard: true,
    serve: hasWeb,
    setHeaders: (res: { header(n: string, v: string): unknown }, file: string) => {
      res.header(
        'cache-control',
        /[.-][0-9a-f]{8,}\./.test(path.basename(file)) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  if (hasWeb)
    app.get('/', (_req, reply) =>
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml),
    );

  if (!(queue instanceof InProcessQueue)) {
    if (options.consumeJobs ?? config.queue.consumer) await queue.consume();
  } else queue.schedule();
  await schedules.start();

  // Which extension an escaped error came from: the first extension folder its stack names.
  const folders = discovered
    .map((d) => ({ id: d.pkg.id, dir: d.dir + path.sep }))
    .sort((a, b) => b.dir.length - a.dir.length);
  const ownerOfStack = (error: unknown) => {
    const stack = String(fieldOf(error, 'stack') ?? '');
    for (const line of stack.split('\n').slice(1)) {
      const hit = folders.find((f) => line.includes(f.dir) || line.includes(`file://${f.dir}`));
      if (hit) return hit.id;
    }
    return undefined;
  };

  let closed = false;
  return {
    app,
    ownerOf: ownerOfStack,
    reportUncaught(error, kind) {
      const extensionId = ownerOfStack(error);
      host.report({
        source: 'process',
        extensionId,
        message: `${kind}${extensionId ? ` in extension '${extensionId}'` : ''}: ${describeError(error)}`,
        error,
      });
    },
    host,
    config,
    database,
    queue,
    schedules,
    extensions: discovered,
    async listen() {
      await app.listen({ port: config.port, host: config.host });
      const addr = app.server.address();
      const port = typeof addr === 'object' && addr ? addr.port : config.port;
      // Links the studio hands out (debug URLs) use the port it really got unless a public URL was set.
      if (config.publicUrl === `http://localhost:${config.port}`)
        config.publicUrl = info.publicUrl = `http://localhost:${port}`;
      return `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
    },
    async close() {
      if (closed) return;
      closed = true;
      await sockets.close();
      await app.close();
      await schedules.stop();
      await queue.stop();
      if ('close' in broadcast) await broadcast.close();
      await host.stop();
      await bulkWriter?.close();
      await database.db.destroy();
    },
  };
}

/** The host's own error messages in the studio's languages (ApiError.text keys 'host.*'). */
const HOST_ERROR_TEXTS = [
  {
    key: 'host.scheduleCron',
    texts: {
      'en-US':
        '"{{cron}}" is not a cron expression ({{reason}}): give five fields (minute hour day month weekday), such as "0 9 * * 1-5".',
      'zh-CN': '“{{cron}}”不是有效的 cron 表达式（{{reason}}）：请填写五个字段（分 时 日 月 周），例如“0 9 * * 1-5”。',
    },
  },
  {
    key: 'host.scheduleTimeZone',
    texts: {
      'en-US': '"{{zone}}" is not a time zone: give an IANA name such as Asia/Shanghai or Europe/Berlin.',
      'zh-CN': '“{{zone}}”不是时区：请填写 IANA 时区名，例如 Asia/Shanghai 或 Europe/Berlin。',
    },
  },
  {
    key: 'host.scheduleKind',
    texts: {
      'en-US': 'Give a schedule either a cron expression or one time, not both.',
      'zh-CN': '定时请填写 cron 表达式或一个时间，二者选一。',
    },
  },
  {
    key: 'host.scheduleAt',
    texts: { 'en-US': '"{{at}}" is not a time (ISO 8601).', 'zh-CN': '“{{at}}”不是有效时间（ISO 8601）。' },
  },
  { key: 'host.schedulePast', texts: { 'en-US': 'The time {{at}} has passed.', 'zh-CN': '时间 {{at}} 已经过去。' } },
  {
    key: 'host.signIn',
    texts: {
      'en-US': 'Sign in to continue: this call needs a signed-in user or an access token.',
      'zh-CN': '请先登录：此操作需要已登录的用户或访问令牌。',
    },
  },
  { key: 'host.notMember', texts: { 'en-US': 'You are not a member of this space.', 'zh-CN': '你不是此空间的成员。' } },
  {
    key: 'host.needsRole',
    texts: { 'en-US': 'This needs the {{role}} role in the space.', 'zh-CN': '此操作需要空间中的 {{role}} 角色。' },
  },
  {
    key: 'host.platformAdmin',
    texts: { 'en-US': 'Only a platform administrator may do this.', 'zh-CN': '只有平台管理员可以执行此操作。' },
  },
  {
    key: 'host.rateLimited',
    texts: { 'en-US': 'Too many attempts. Wait a minute and try again.', 'zh-CN': '尝试次数过多，请稍等一分钟再试。' },
  },
  {
    key: 'host.invalidRequest',
    texts: { 'en-US': 'Invalid request: {{fields}}', 'zh-CN': '请求参数有误：{{fields}}' },
  },
  {
    key: 'host.internal',
    texts: {
      'en-US': 'Something went wrong on our side. Quote the log id when you report it.',
      'zh-CN': '服务出错了。反馈问题时请附上日志 ID。',
    },
  },
  {
    key: 'host.invalidJsonBody',
    texts: {
      'en-US': 'The request body is not valid JSON (its Content-Type says application/json).',
      'zh-CN': '请求体不是有效的 JSON（其 Content-Type 为 application/json）。',
    },
  },
  {
    key: 'host.emptyJsonBody',
    texts: {
      'en-US': 'The request body is empty; with Content-Type application/json send a JSON value (at least {}).',
      'zh-CN': '请求体为空；Content-Type 为 application/json 时请发送 JSON 值（至少是 {}）。',
    },
  },
  {
    key: 'host.malformedJson',
    texts: { 'en-US': 'The request body is not valid JSON: {{detail}}', 'zh-CN': '请求体不是有效的 JSON：{{detail}}' },
  },
];

/** Strings with control characters (line breaks ...) escaped, so one report is one log line. */
export function logSafe(value: unknown): unknown {
  if (typeof value === 'string') return logSafeText(value);
  if (Array.isArray(value)) return value.map(logSafe);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [logSafeText(k), logSafe(v)]));
  return value;
}

/** A text with its control characters escaped. */
function logSafeText(value: string): string {
  // oxlint-disable-next-line no-control-regex -- control characters are what this escapes
  return value.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) =>
    c === '\n'
      ? '\\n'
      : c === '\r'
        ? '\\r'
        : c === '\t'
          ? '\\t'
          : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function withRequirements(ids: string[], all: DiscoveredExtension[]): Set<string> {
  const byId = new Map(all.map((d) => [d.pkg.id, d]));
  const out = new Set<string>();
  const visit = (id: string) => {
    if (out.has(id)) return;
    out.add(id);
    for (const r of byId.get(id)?.pkg.requires ?? []) visit(r);
  };
  ids.forEach(visit);
  return out;
}

function serverContext(base: ExtensionContext, host: ExtensionHost<ServerContext>): ServerContext {
  return Object.assign(base, {
    route: (r: Parameters<ServerContext['route']>[0]) => base.register(ApiRoutes, r as never),
    websocket: (r: Parameters<ServerContext['websocket']>[0]) => base.register(WebSocketRoutes, r as never),
    migrations: (list: Parameters<ServerContext['migrations']>[0]) => {
      for (const m of list) base.register(Migrations, { ...m, extensionId: base.extensionId });
    },
    job: (j: Parameters<ServerContext['job']>[0]) => base.register(BackgroundJobs, j as never),
    get db() {
      return host.hostService(DatabaseService).db;
    },
    get host() {
      return host.hostService(HostInfoService);
    },
  }) as ServerContext;
}

interface PinoLike {
  debug(o: object, m: string): void;
  info(o: object, m: string): void;
  warn(o: object, m: string): void;
  error(o: object, m: string): void;
  child(b: object): PinoLike;
}

function pinoLogger(p: PinoLike): Logger {
  return {
    debug: (m, d) => p.debug(d ?? {}, m),
    info: (m, d) => p.info(d ?? {}, m),
    warn: (m, d) => p.warn(d ?? {}, m),
    error: (m, d) => p.error(d ?? {}, m),
    child: (b) => pinoLogger(p.child(b)),
  };
}
