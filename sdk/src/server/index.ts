// @tessera/sdk/server: the server half of an extension.
import {
  defineHookPoint,
  defineRegistryPoint,
  defineService,
  ExtensionContextToken,
  type Disposable,
  type ExtensionContext,
  type EventToken,
  type ExtensionDefinition,
  type ServiceToken,
} from '@tessera/core';
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { z, type ZodType } from 'zod';
import type { ResourcePackage } from '../resources.ts';
import { ApiError as ApiErrorClass, ErrorCode, type ApiError } from '../api.ts';
import { languageOf } from '../areas.ts';
import { fieldOf } from '../values.ts';

export * from '../index.ts';
export { searchWords } from './text.ts';
export { LocalCache } from './cache.ts';
export { RateLimiter } from './rate-limit.ts';
export { outsideRequest } from './behind.ts';
export {
  cellText,
  readSpreadsheet,
  writeSpreadsheet,
  SPREADSHEET_TYPES,
  type SpreadsheetFormat,
} from './spreadsheet.ts';

/**
 * `column LIKE '%text%'` ignoring case, where %, _ and \ in the text match themselves (not as
 * wildcards), on SQLite and PostgreSQL alike. Use it for every search box: `q.where(containsText('name', search))`.
 */
export function containsText(column: string, text: string): RawBuilder<SqlBool> {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  // Ignoring case on both databases (PostgreSQL's LIKE heeds it; SQLite's ignores ASCII case only).
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
}

/**
 * What went wrong with an outbound call, in words a person acts on: the name did not resolve, the
 * connection was refused or timed out, TLS failed, or the server answered 401/403/404/429/5xx, naming
 * the host (and port) from `url` or the error. For model connection tests, plugin debugging ...
 */
export function describeOutboundError(e: unknown, url?: string): string {
  const chain: Record<string, any>[] = [];
  for (let x: any = e, i = 0; x && typeof x === 'object' && i < 6; x = x.cause, i++) chain.push(x);
  const find = (k: string) => chain.find((x) => x[k] !== undefined)?.[k];
  let host = '';
  try {
    if (url) host = new URL(url).host;
  } catch {
    /* not a URL */
  }
  const address = find('address')
    ? `${find('address')}${find('port') ? `:${find('port')}` : ''}`
    : host || find('hostname') || 'the server';
  const code = String(find('code') ?? '');
  const status = Number(find('statusCode') ?? find('status') ?? 0);
  if (status === 401) return `The server at ${host || address} refused the credentials (HTTP 401): check the API key.`;
  if (status === 403) return `The server at ${host || address} does not allow this key to do that (HTTP 403).`;
  if (status === 404) return `Not found at ${host || address} (HTTP 404): check the base URL and the model name.`;
  if (status === 429)
    return `The server at ${host || address} is limiting requests (HTTP 429): wait, or check the plan's quota.`;
  if (status >= 500) return `The server at ${host || address} failed (HTTP ${status}); try again later.`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `The name ${find('hostname') ?? host} could not be resolved (DNS): check the base URL.`;
  if (code === 'ECONNREFUSED')
    return `Nothing accepts connections at ${address} (connection refused): is the server running, and is the port right?`;
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET')
    return `The connection to ${address} was closed by the other side.`;
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || find('name') === 'TimeoutError')
    return `No answer from ${address} in time (timeout).`;
  if (/CERT|SSL|TLS|SELF_SIGNED/i.test(code))
    return `The TLS certificate of ${host || address} was refused (${code}): check the address, or the server's certificate.`;
  if (status)
    return `The server at ${host || address} answered HTTP ${status}: ${String(find('responseBody') ?? find('message') ?? '').slice(0, 200)}`;
  const message = String(chain.at(-1)?.message ?? fieldOf(e, 'message') ?? e);
  return message === 'fetch failed'
    ? `The request to ${address} failed${code ? ` (${code})` : ''}.`
    : message.slice(0, 500);
}

/** `column` equals `text` ignoring case (names that must be unique: "Report" and "report" are one). */
export function sameText(column: string, text: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`lower(${sql.ref(column)}) = lower(${text})`;
}

/** The space of a live resource kept in one table (id, space_id; deleted_at for a recycle bin), or undefined. */
export async function spaceOfTable(
  db: Kysely<any>,
  opts: { table: string; deletedAt?: string },
  id: string,
): Promise<string | undefined> {
  let q = db.selectFrom(opts.table).select(sql.ref('space_id').as('space_id')).where('id', '=', id);
  if (opts.deletedAt) q = q.where(opts.deletedAt, 'is', null);
  const r = (await q.executeTakeFirst()) as { space_id?: string } | undefined;
  return r?.space_id;
}

/**
 * The list of a resource kind kept in one table with the usual columns (id, space_id, name, description,
 * icon_uri, creator_id, created_at, updated_at as ISO text; deleted_at for a recycle bin): the query of
 * `ResourceKindDefinition.list`, newest first, keyset-paged, on the (space_id, updated_at) index.
 */
export function listResourcesOfTable(
  db: Kysely<any>,
  opts: {
    kind: string;
    table: string;
    deletedAt?: string;
    published?: string;
    columns?: Partial<Record<'name' | 'description' | 'icon_uri' | 'creator_id', string>>;
  },
  q: ResourceQuery,
): Promise<ResourceItem[]> {
  const c = {
    name: 'name',
    description: 'description',
    icon_uri: 'icon_uri',
    creator_id: 'creator_id',
    ...opts.columns,
  };
  let query = db
    .selectFrom(opts.table)
    .select([
      sql.ref('id').as('id'),
      sql.ref('space_id').as('space_id'),
      sql.ref(c.name).as('name'),
      sql.ref(c.description).as('description'),
      sql.ref(c.icon_uri).as('icon_uri'),
      sql.ref(c.creator_id).as('creator_id'),
      sql.ref('created_at').as('created_at'),
      sql.ref('updated_at').as('updated_at'),
    ])
    .where('space_id', '=', q.spaceId);
  if (opts.published) query = query.select(sql.ref(opts.published).as('published'));
  if (opts.deletedAt) {
    query = query.select(sql.ref(opts.deletedAt).as('deleted_at'));
    query = q.deleted ? query.where(opts.deletedAt, 'is not', null) : query.where(opts.deletedAt, 'is', null);
  } else if (q.deleted) return Promise.resolve([]);
  if (q.search?.trim()) query = query.where(containsText(c.name, q.search.trim()));
  if (q.creatorId) query = query.where(c.creator_id, '=', q.creatorId);
  if (q.ids) {
    if (!q.ids.length) return Promise.resolve([]);
    query = query.where('id', 'in', q.ids);
  }
  if (q.after) {
    const at = new Date(q.after.updatedAt).toISOString();
    query = query.where((eb) =>
      eb.or([eb('updated_at', '<', at), eb.and([eb('updated_at', '=', at), eb('id', '<', q.after!.id)])]),
    );
  }
  return query
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(q.limit)
    .execute()
    .then((rows) =>
      (rows as Record<string, unknown>[]).map((r) => ({
        kind: opts.kind,
        id: String(r.id),
        space_id: String(r.space_id),
        name: String(r.name ?? ''),
        description: String(r.description ?? ''),
        icon_uri: String(r.icon_uri ?? ''),
        creator_id: String(r.creator_id ?? ''),
        created_at: Date.parse(String(r.created_at)) || 0,
        updated_at: Date.parse(String(r.updated_at)) || 0,
        ...(opts.published ? { published: !!r.published && r.published !== '0' } : {}),
        ...(r.deleted_at ? { deleted_at: Date.parse(String(r.deleted_at)) || 0 } : {}),
      })),
    );
}

// ---------------------------------------------------------------- callers and authorization

export type SpaceRole = 'owner' | 'admin' | 'member';

/** Who is calling: a signed-in user (cookie session) or a personal access token. */
export interface Caller {
  kind: 'user' | 'token';
  userId: string;
  isPlatformAdmin: boolean;
  sessionId?: string;
  /**
   * For token callers: may the token do `permission` in `spaceId`, or for `enterpriseId` (a route about one enterprise
   * asks it itself)? Identity decides, by the permission's scope (workspace, account, enterprise).
   */
  tokenAllows?(permission: string | undefined, spaceId: string | undefined, enterpriseId?: string): boolean;
  /**
   * For token callers, the credential used: its kind ('pat', 'oauth', 'service' ...), its id, the OAuth app it was
   * issued to and the session name a service app's token carries (audit logs name the caller by it).
   */
  credential?: { kind: string; id: string; appId?: string; sessionName?: string };
}

/** Where a route finds the space it touches. */
export type SpaceLocator =
  | { from: 'body' | 'query' | 'params' | 'header'; field: string }
  | ((req: {
      body: any;
      query: any;
      params: any;
      headers: Record<string, unknown>;
    }) => string | undefined | Promise<string | undefined>);

/**
 * Who may call a route. The host enforces it before the handler runs:
 * anonymous; any signed-in user; platform admin; or a member of the located space with at least `role`.
 */
export type RouteAuth = 'anonymous' | 'user' | 'platformAdmin' | { space: SpaceLocator; role?: SpaceRole };

export interface ApiRequest<B = unknown, Q = unknown, P = unknown> {
  body: B;
  query: Q;
  params: P;
  headers: Record<string, string | string[] | undefined>;
  /** Set for every route but anonymous ones (where it is set when a caller is known). */
  caller?: Caller;
  /** The space the route's auth located, when it has one. */
  spaceId?: string;
  /** The caller's role in that space. */
  spaceRole?: SpaceRole;
  logId: string;
  ip: string;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
  /**
   * For `upload` routes: the request body, unread (multipart/form-data or any other type), to stream
   * where it goes; the route reads and limits it itself.
   */
  stream?: NodeJS.ReadableStream;
  /** For `rawBody` routes: the JSON body's text as received ('' when there was none). */
  rawBody?: string;
  /** The underlying Fastify request, for what the contract does not cover. */
  raw: unknown;
}

export interface SseStream {
  send(event: string, data: unknown, id?: string): void;
  close(): void;
  readonly closed: boolean;
}

export interface ApiReply {
  header(name: string, value: string): void;
  status(code: number): void;
  /** Switch the reply to server-sent events; the handler's return value is then ignored. */
  sse(): SseStream;
  /** Send a raw body (a file, a non-envelope document, a stream of bytes); the return value is then ignored. */
  send(body: string | Uint8Array | NodeJS.ReadableStream, contentType: string): void;
  raw: unknown;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiRoute<B = any, Q = any, P = any, R = any> {
  method: HttpMethod;
  /** Fastify path syntax: '/api/space/:space_id/...'. */
  path: string;
  auth: RouteAuth;
  /** Personal-access-token permission a token caller needs (e.g. 'workflow.run'). */
  permission?: string;
  summary?: string;
  tags?: string[];
  body?: ZodType<B>;
  query?: ZodType<Q>;
  params?: ZodType<P>;
  response?: ZodType<R>;
  /** Answer with the value itself instead of the {code, msg, data} envelope. */
  rawResponse?: boolean;
  /**
   * What the route answers instead of JSON, through `reply.send`: a media type ('text/csv', 'audio/mpeg',
   * 'text/html' ..., or several when it depends on the request), or 'redirect' for a route that sends the browser on (a 302 with a
   * location). /openapi.json describes the answer so; in tests (TESSERA_CHECK_RESPONSES=1) a route that declares it
   * and answers JSON instead fails, as one whose answer drifts from its `response` does.
   */
  produces?: string | string[];
  /**
   * The route answers with server-sent events (`reply.sse()`). On the open API an error raised before
   * the stream opens (a bad token, a bad body, a missing workflow) is then answered with HTTP 200 and the
   * JSON error body, which is how Coze answers and what SSE clients such as `@coze/api` read.
   */
  stream?: boolean;
  /**
   * The body is not parsed: any content type (multipart/form-data uploads, raw bytes) reaches the
   * handler as `req.stream`, unread, so a large file streams to storage instead of into memory. `body`
   * is then undefined; the route enforces its own size limit.
   */
  upload?: boolean;
  /**
   * The JSON body is parsed as usual and its text as received is kept in `req.rawBody` too (a signature over the
   * bytes sent: an incoming webhook's HMAC).
   */
  rawBody?: boolean;
  /**
   * The route also takes an HTML form's body (application/x-www-form-urlencoded), parsed to an object of strings
   * (a field sent twice keeps its last value): OAuth's token endpoint, which standard clients call that way.
   */
  formBody?: boolean;
  /** Limit per caller and minute (login forms, ...). */
  rateLimit?: { max: number; windowMs?: number; key?: 'ip' | 'caller' };
  /** The route is a security event or an administrative change: an audit log records each call (RequestsCompleted). */
  audit?: RouteAudit;
  /**
   * The resource the route reads or changes (a workflow, a bot): interceptors are told it (ServerRequestInterceptors'
   * `resource`), so a policy about single resources (collaborators) can refuse the call before the handler runs.
   */
  resource?: RouteResource;
  handler(req: ApiRequest<B, Q, P>, reply: ApiReply): R | Promise<R>;
}

/** The resource of a route: its kind, the request field that holds its id, and whether the route changes it. */
export interface RouteResource {
  kind: string;
  /** Looked up in the path, then the body, then the query. */
  id: string;
  write: boolean;
}

/** What an audit log records of a route: the action, and the request field that names what it acts on. */
export interface RouteAudit {
  /** Namespaced by area: 'token.create', 'space.member.remove', 'oauth.app.delete' ... */
  action: string;
  /** A field of the request ('appid', 'user_id', 'email'), looked up in the path, then the body, then the query. */
  target?: string;
}

// ---------------------------------------------------------------- points

const fn = z.custom<(...a: unknown[]) => unknown>((v) => typeof v === 'function', 'must be a function');
const zod = z.custom<ZodType>((v) => typeof v === 'object' && v !== null && 'safeParse' in v, 'must be a zod schema');

/** API routes: registered at register(), mounted by the host before it listens. Key: 'METHOD path'. */
export const ApiRoutes = defineRegistryPoint<ApiRoute>({
  id: 'server.apiRoutes',
  owner: 'host',
  description: 'HTTP API routes with their auth; mounted when the host starts listening.',
  schema: z.object({
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
    path: z.string().regex(/^\/[\w\-./:{}*]*$/, 'must start with / and use Fastify path syntax'),
    auth: z.union([
      z.enum(['anonymous', 'user', 'platformAdmin']),
      z.object({
        space: z.union([fn, z.object({ from: z.enum(['body', 'query', 'params', 'header']), field: z.string() })]),
        role: z.enum(['owner', 'admin', 'member']).optional(),
      }),
    ]),
    permission: z.string().optional(),
    body: zod.optional(),
    query: zod.optional(),
    params: zod.optional(),
    response: zod.optional(),
    handler: fn,
  }),
  key: (r) => `${r.method} ${r.path}`,
});

/**
 * Error messages in the studio's languages, by key: an `ApiError` whose `text` names a key is answered
 * in the caller's language (Accept-Language, which the studio's page sends with every call).
 * `{{name}}` placeholders take the error's `text.params`.
 */
export interface ErrorText {
  key: string;
  texts: Partial<Record<'zh-CN' | 'en-US', string>>;
}
export const ErrorTexts = defineRegistryPoint<ErrorText>({
  id: 'server.errorTexts',
  owner: 'host',
  description: 'Error messages in the studio languages, by key (ApiError.text).',
  schema: z.object({ key: z.string().min(1), texts: z.record(z.string(), z.string()) }),
  key: (t) => t.key,
});

/** The message of `err` in `language` when a text is registered for its key, else its own message. */
export function localizedMessage(
  err: { msg: string; text?: { key: string; params?: Record<string, string | number> } },
  language: string,
  texts: { get(key: string): ErrorText | undefined },
): string {
  if (!err.text) return err.msg;
  const template = texts.get(err.text.key)?.texts[languageOf(language)];
  if (!template) return err.msg;
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, k: string) => String(err.text!.params?.[k] ?? ''));
}

type TextParams = Record<string, string | number>;
const fillText = (template: string, params: TextParams) =>
  template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, k: string) => String(params[k] ?? ''));

/** An extension's messages in the studio's languages (see `defineErrorTexts`). */
export interface ExtensionTexts<K extends string> {
  /** Registers the texts (ErrorTexts, keys `<prefix>.<key>`): once, in `register`. */
  register(ctx: Pick<ServerContext, 'register'>): void;
  /** An error a person meets, answered in the caller's language; its code follows the status. */
  error(
    status: 400 | 401 | 403 | 404 | 409 | 429,
    key: K,
    params?: TextParams,
    opts?: { detail?: Record<string, unknown>; openCode?: number },
  ): ApiError;
  /** The message in a language (an Accept-Language header, or 'zh-CN' / 'en-US'): for text that is not an error reply. */
  text(key: K, params: TextParams, language: unknown): string;
}

/**
 * An extension's refusals in both studio languages, written once: `const texts = defineErrorTexts('connectors', {
 * notInstalled: ['Connector {{id}} is not installed here.', '渠道 {{id}} 未安装在此处。'] })`, `texts.register(ctx)`,
 * then `throw texts.error(404, 'notInstalled', { id })`.
 */
export function defineErrorTexts<K extends string>(
  prefix: string,
  table: Record<K, readonly [en: string, zh: string]>,
): ExtensionTexts<K> {
  const entries = Object.entries(table) as [K, readonly [string, string]][];
  return {
    register(ctx) {
      for (const [k, [en, zh]] of entries)
        ctx.register(ErrorTexts, { key: `${prefix}.${k}`, texts: { 'en-US': en, 'zh-CN': zh } });
    },
    error(status, key, params = {}, opts = {}) {
      const code =
        status === 404
          ? ErrorCode.NOT_FOUND
          : status === 403
            ? ErrorCode.FORBIDDEN
            : status === 401
              ? ErrorCode.UNAUTHENTICATED
              : status === 409
                ? ErrorCode.CONFLICT
                : status === 429
                  ? ErrorCode.RATE_LIMITED
                  : ErrorCode.INVALID_PARAMS;
      return new ApiErrorClass(status, code, fillText(table[key][0], params), '', {
        text: { key: `${prefix}.${key}`, params },
        ...opts,
      });
    },
    text(key, params, language) {
      return fillText(table[key][languageOf(language) === 'zh-CN' ? 1 : 0], params);
    },
  };
}

/** One resource of a space as the library sees it, whatever its kind. */
export interface ResourceItem {
  kind: string;
  id: string;
  space_id: string;
  name: string;
  description: string;
  icon_uri: string;
  creator_id: string;
  /** Milliseconds since the epoch. */
  created_at: number;
  updated_at: number;
  /** Published (has a version people use) or draft only; kinds without publishing leave it out. */
  published?: boolean;
  /** In the recycle bin: when it was put there (ms). */
  deleted_at?: number;
}

export interface ResourceQuery {
  spaceId: string;
  /** Part of the name, any case. */
  search?: string;
  creatorId?: string;
  /** Only these ids (a folder's resources). */
  ids?: string[];
  /** The recycle bin instead of the live resources. */
  deleted?: boolean;
  /** Newest first by updated_at then id, strictly after this cursor. */
  after?: { updatedAt: number; id: string };
  limit: number;
}

/**
 * The server half of a resource kind (workflow, bot, plugin, knowledge, table, prompt ...), contributed by
 * the extension that owns the kind: how the library, projects, templates and the marketplace list, delete
 * and copy it without naming it. `list` answers newest first (by updated_at, then id, both descending).
 */
export interface ResourceKindDefinition {
  kind: string;
  list(query: ResourceQuery): Promise<ResourceItem[]>;
  /**
   * The space of a live resource of the kind by its id alone (for calls that name only the resource: the open API's
   * `/v1/bots/{id}/collaborators`), or undefined.
   */
  spaceOf?(id: string): Promise<string | undefined>;
  /** Into the recycle bin (restorable); without `restore`, `remove` deletes for good. */
  remove?(id: string, spaceId: string, userId: string): Promise<void>;
  restore?(id: string, spaceId: string): Promise<void>;
  /** Deletes a resource in the recycle bin for good. */
  purge?(id: string, spaceId: string): Promise<void>;
  /**
   * The resource as packages to export, copy, template or list: itself first, then what it brings along of
   * its own kind (a workflow's sub-workflows). Without it the kind cannot leave its space.
   */
  exportOf?(id: string, spaceId: string): Promise<ResourcePackage[]>;
  /** What of a package this studio lacks (node types, skills ...), in words; empty when it can be imported. */
  missing?(pkg: ResourcePackage): string[];
  /**
   * Creates a resource in `spaceId` from a package and answers its id. `ids` maps the ids packages had where
   * they came from to the new ones (those imported before this one): references between them follow.
   */
  importInto?(
    pkg: ResourcePackage,
    opts: { spaceId: string; userId: string; ids: Map<string, string>; name?: string },
  ): Promise<string>;
  /**
   * Publishes the draft as the kind's next version (projects publish their resources with it); `connectors`
   * are those the publication chose, of which a kind uses the ones that take it, with their `settings` (by connector
   * id, as each connector's schema checked them). Answers the version.
   */
  publish?(
    id: string,
    spaceId: string,
    opts: { userId: string; description: string; connectors: string[]; settings?: Record<string, unknown> },
  ): Promise<{ version: string }>;
}

export const ResourceKinds = defineRegistryPoint<ResourceKindDefinition>({
  id: 'server.resourceKinds',
  owner: 'host',
  description:
    'Kinds of resources a space holds (server half): list, recycle, restore for the library and what builds on it.',
  schema: z.object({
    kind: z.string().regex(/^[a-z][a-z0-9_-]*$/),
    list: fn,
    remove: fn.optional(),
    restore: fn.optional(),
    purge: fn.optional(),
    exportOf: fn.optional(),
    missing: fn.optional(),
    importInto: fn.optional(),
    publish: fn.optional(),
  }),
  key: (k) => k.kind,
});

/**
 * A publishing channel (Coze's connectors): where a resource's published version is offered. The API
 * (1024) and the chat page with its embeddable Web SDK (999) are built in; another channel is an extension.
 * `settings` validates what a publication to it takes (the Web SDK's allowed origins).
 */
export interface ConnectorDefinition {
  /** Coze's connector id ('1024', '999' ...). */
  id: string;
  name: Partial<Record<'zh-CN' | 'en-US', string>>;
  description?: Partial<Record<'zh-CN' | 'en-US', string>>;
  /** The resource kinds published there ('bot', 'workflow', 'project'). */
  kinds: string[];
  settings?: ZodType;
}
export const Connectors = defineRegistryPoint<ConnectorDefinition>({
  id: 'server.connectors',
  owner: 'host',
  description: 'Publishing channels (API, chat page and Web SDK ...) and what a publication to each takes.',
  schema: z.object({
    id: z.string().regex(/^[0-9a-z_-]{1,32}$/),
    name: z.record(z.string(), z.string()),
    kinds: z.array(z.string()).min(1),
    settings: zod.optional(),
  }),
  key: (c) => c.id,
});

/**
 * The connectors one space may publish to. The host starts from the Connectors registry; taps add the channels
 * installed in the space (custom connectors) and take away those it may not use (its enterprise's choice).
 */
export const SpaceConnectors = defineHookPoint<[ConnectorDefinition[], string], ConnectorDefinition[]>({
  id: 'server.spaceConnectors',
  owner: 'host',
  kind: 'waterfall',
  args: ['connectors', 'spaceId'],
  description: 'The connectors a space may publish to: custom connectors installed there added, others taken away.',
});

/** The connectors a space may publish a kind of resource to (SpaceConnectors over the Connectors registry). */
export interface SpaceConnectorList {
  of(spaceId: string, kind?: string): Promise<ConnectorDefinition[]>;
}
export const SpaceConnectorsService = defineService<SpaceConnectorList>({
  id: 'host.spaceConnectors',
  owner: 'host',
  description: 'The connectors a space may publish a kind of resource to (bot, workflow, project).',
});

/** A resource that uses another one (a bot whose skills name a knowledge base, a workflow whose nodes do). */
export interface ResourceReference {
  /** The kind of the resource that holds the reference ('bot', 'workflow' ...). */
  kind: string;
  id: string;
  name: string;
  space_id: string;
}

/**
 * Finds what uses a resource: each extension that keeps resources holding references registers one finder
 * for its kind; the owner of the referenced kind asks them all ("the bots and workflows that use this
 * knowledge base"; library, copy and delete warnings). A finder answers the resources of `spaceId` whose
 * configuration names `id` (quoted, as configurations are JSON).
 */
export interface ReferenceFinder {
  /** The kind of holder it searches ('bot', 'workflow'). */
  kind: string;
  find(query: { id: string; spaceId: string }): Promise<ResourceReference[]>;
}
export const ResourceReferences = defineRegistryPoint<ReferenceFinder>({
  id: 'server.resourceReferences',
  owner: 'host',
  description: 'Finders of what uses a resource, one per kind of holder (bots, workflows ...).',
  schema: z.object({ kind: z.string().regex(/^[a-z][a-z0-9_-]*$/), find: fn }),
  key: (f) => f.kind,
});

export interface Migration {
  /** Sorted by name: use a sortable prefix ('0001_create_users'). */
  name: string;
  up(db: Kysely<any>): Promise<void>;
  down?(db: Kysely<any>): Promise<void>;
}

export interface MigrationRegistration extends Migration {
  extensionId: string;
}

/** Migrations: run by the host for each extension between its register() and start(). */
export const Migrations = defineRegistryPoint<MigrationRegistration>({
  id: 'server.migrations',
  owner: 'host',
  description: "Kysely migrations of an extension's own tables; run at start in name order.",
  schema: z.object({ extensionId: z.string(), name: z.string().regex(/^[\w.-]+$/), up: fn }),
  key: (m) => `${m.extensionId}:${m.name}`,
});

export interface JobContext {
  jobId: string;
  attempt: number;
  signal: AbortSignal;
}

export interface BackgroundJob<P = any> {
  /** Namespaced by convention: '<extension>.<job>'. */
  name: string;
  concurrency?: number;
  attempts?: number;
  /** Repeat every N ms (scheduled job) in addition to being enqueued on demand. */
  everyMs?: number;
  handler(payload: P, job: JobContext): unknown;
}

/** Background jobs: handlers the queue runs (in-process by default, BullMQ workers when REDIS_URL is set). */
export const BackgroundJobs = defineRegistryPoint<BackgroundJob>({
  id: 'server.backgroundJobs',
  owner: 'host',
  description: 'Named job handlers run by the queue.',
  schema: z.object({
    name: z.string().min(1),
    handler: fn,
    concurrency: z.number().int().positive().optional(),
    everyMs: z.number().int().positive().optional(),
  }),
  key: (j) => j.name,
});

export interface AuthRequest {
  headers: Record<string, string | string[] | undefined>;
  cookies: Record<string, string>;
  method: string;
  url: string;
  ip: string;
}

/** An authenticator's refusal: the request carried credentials that must not be used (bad CSRF token ...). */
export interface AuthRejection {
  rejected: true;
  status: 401 | 403;
  msg: string;
}

export function isAuthRejection(v: unknown): v is AuthRejection {
  return typeof v === 'object' && v !== null && (v as AuthRejection).rejected === true;
}

/**
 * Resolves the caller of a request (first answer wins). Called once per API request before the
 * route's auth is checked; a rejection answers the request with its status at once.
 */
export const RequestAuthenticators = defineHookPoint<[AuthRequest], Caller | AuthRejection>({
  id: 'server.requestAuthenticators',
  owner: 'host',
  kind: 'bail',
  args: ['request'],
  description: 'Turns a request into a Caller (session cookie, bearer token ...). First non-undefined answer wins.',
});

/** A request about to reach its route's handler: who calls, which route, which space (after auth). */
export interface InterceptedRequest {
  method: string;
  /** The route's path pattern ('/api/draftbot/create'), and the URL as called. */
  route: string;
  url: string;
  /** The extension that owns the route. */
  extensionId: string;
  caller?: Caller;
  spaceId?: string;
  /** The caller's role in that space. */
  spaceRole?: SpaceRole;
  /** The route's resource (`resource` on the route) with its id as sent ('' when absent). */
  resource?: { kind: string; id: string; write: boolean };
  headers: Record<string, string | string[] | undefined>;
  ip: string;
}

/**
 * Server-side request interceptors: called, in order, for every API request after its caller and space
 * were checked and before its handler runs. A tap refuses the request by returning an ApiError (a policy,
 * a quota, maintenance): the first refusal is the answer. Returning nothing lets it through. A tap that
 * throws is reported and skipped, so a policy that must fail closed catches its own errors and returns a
 * refusal. Taps see no body (audit and policy by route, caller and space).
 */
export const ServerRequestInterceptors = defineHookPoint<[InterceptedRequest], ApiError | undefined>({
  id: 'server.requestInterceptors',
  owner: 'host',
  kind: 'bail',
  args: ['request'],
  description:
    'Called before each API route handler (after auth): audit, policies, quotas; return an ApiError to refuse.',
});

/** An API request that was answered (success or failure), as RequestsCompleted tells it. */
export interface CompletedRequest {
  method: string;
  /** The route's path pattern, and the URL as called. */
  route: string;
  url: string;
  extensionId: string;
  /** Unset for an anonymous call (or a refused credential). */
  caller?: Caller;
  spaceId?: string;
  status: number;
  logId: string;
  ip: string;
  userAgent: string;
  durationMs: number;
  /** The route's audit declaration with the target's id read from the request ('' when the field is absent). */
  audit?: { action: string; targetId: string };
}

/**
 * Told after each API request was answered (its response sent): audit logs, usage meters. The taps run off the
 * request's path (the answer is not delayed); a tap that throws is reported. Cheap checks first: it runs for every
 * request, the published run path included.
 */
export const RequestsCompleted = defineHookPoint<[CompletedRequest], void>({
  id: 'server.requestsCompleted',
  owner: 'host',
  kind: 'series',
  args: ['request'],
  description: 'After each API request was answered: method, route, caller, space, status, audit action and target.',
});

export interface SpaceAccess {
  allowed: boolean;
  role?: SpaceRole;
}

/** Decides whether a caller belongs to a space (first answer wins; no answer means 403). */
export const SpaceAuthorizers = defineHookPoint<[Caller, string], SpaceAccess>({
  id: 'server.spaceAuthorizers',
  owner: 'host',
  kind: 'bail',
  args: ['caller', 'spaceId'],
  description: "Answers a caller's membership and role in a space, for routes whose auth names a space.",
});

// ---------------------------------------------------------------- host services

export interface Database {
  db: Kysely<any>;
  dialect: 'sqlite' | 'postgres';
}
export const DatabaseService = defineService<Database>({
  id: 'host.database',
  owner: 'host',
  description: 'The relational database (Kysely).',
});

/** Rows of one table for `BulkWriter.insert` (every row with the same columns). */
export interface BulkRows {
  table: string;
  rows: Record<string, unknown>[];
  /**
   * A row whose key (`columns`, a primary key or unique index) is already stored: left as it is, or, with
   * `set`, updated. `set` maps a column to an SQL expression over the stored row (`<table>.<column>`) and
   * the row offered (`excluded.<column>`), the same on SQLite and PostgreSQL except for functions (the
   * caller picks `max`/`greatest` by `DatabaseService`'s dialect). Rows of one batch should not share a
   * key (PostgreSQL refuses a statement that updates one row twice).
   */
  onConflict?: { columns: string[]; set?: Record<string, string> };
  /**
   * Columns whose values are objects or arrays, stored as their JSON text: the writer serializes them
   * (in its worker thread, where there is one), so the request thread never does.
   */
  json?: string[];
}

/**
 * Inserts many rows (records written behind the request path: runs, node results, spans) in one
 * transaction, off the main thread where the database allows: on the SQLite file a worker thread with
 * its own connection (WAL) does the writing, so requests are not held up by it; otherwise the
 * database's own connection. Resolves when the rows are stored. Values are strings, numbers, bigints
 * or null (booleans as 0/1). The tables of a batch are written in the order given.
 */
export interface BulkWriter {
  insert(batch: BulkRows[]): Promise<void>;
}
export const BulkWriterService = defineService<BulkWriter>({
  id: 'host.bulkWriter',
  owner: 'host',
  description: 'Batched inserts off the request path.',
});

export interface JobQueue {
  enqueue<P>(name: string, payload: P, opts?: { delayMs?: number; jobId?: string }): Promise<string>;
  /** Resolves when every job enqueued so far has finished (tests, shutdown). */
  drain(): Promise<void>;
}
export const JobQueueService = defineService<JobQueue>({
  id: 'host.jobs',
  owner: 'host',
  description: 'The background job queue.',
});

/**
 * A studio event offered to what reacts to events for people (a workflow's trigger, an API app's callbacks): the
 * extension that emits the event registers it once, with how to find its space and what of it may leave the studio.
 */
export interface StudioEventSource<T = any> {
  /** The event's public name (`workflow.run.finished`): a trigger's `event_id`, an API app's `event_type`. */
  key: string;
  label: { 'en-US': string; 'zh-CN': string };
  event: EventToken<T>;
  /** The space it happened in: only that space's triggers and API apps see it. */
  spaceOf(payload: T): string | undefined;
  /** What of it is handed on (plain JSON, nothing secret): a trigger's mapping reads it, a callback carries it. */
  data(payload: T): Record<string, unknown>;
  /** Fields of `data` a trigger may require a value of (a run's `workflow_id`, its `status`). */
  filters?: { key: string; label: { 'en-US': string; 'zh-CN': string }; choices?: string[] }[];
}

export const StudioEventSources = defineRegistryPoint<StudioEventSource>({
  id: 'server.studioEventSources',
  owner: 'host',
  description: 'Studio events offered to triggers and API apps, registered by the extension that emits each.',
  schema: z.object({
    key: z.string().regex(/^[a-z][a-z0-9_.-]*$/),
    label: z.object({ 'en-US': z.string().min(1), 'zh-CN': z.string().min(1) }),
    event: z.object({ name: z.string().min(1) }),
    spaceOf: fn,
    data: fn,
  }),
  key: (s) => s.key,
});

/**
 * A time-table another extension keeps with the host (a workflow's cron trigger, a bot's task, a renewal). At each
 * of its times the host enqueues the background job `job` (registered by the caller in `BackgroundJobs`) with a
 * {@link ScheduledFiring}: once per time however many studio processes run.
 */
export interface ScheduleSpec<P = unknown> {
  /** Unique in the studio; an owner prefixes its own (`triggers:1234`). Saving under a key again replaces it. */
  key: string;
  /** The background job enqueued at each time. */
  job: string;
  /** Handed to the job with each firing (JSON). */
  payload?: P;
  /**
   * A cron expression: five fields (minute, hour, day of month, month, day of week), six with seconds first, or a
   * preset (`@daily`, `@hourly`, `@weekly`, `@monthly`, `@yearly`, `@weekdays`).
   */
  cron?: string;
  /** The IANA time zone the cron's times are read in (`Asia/Shanghai`); UTC when absent. */
  timeZone?: string;
  /** One time instead of a cron (ISO 8601); it must be in the future. */
  at?: string;
  /**
   * A time passed while no studio process ran (a restart, a stop over the night): `skip` (the default) goes on to
   * the next time; `catch_up` fires once when the studio is back (with `missed`: how many times were passed).
   */
  missed?: 'skip' | 'catch_up';
}

export interface ScheduleState {
  key: string;
  job: string;
  cron: string | null;
  timeZone: string | null;
  at: string | null;
  missed: 'skip' | 'catch_up';
  /** The next time it fires (ISO), null once a one-off time has fired. */
  nextRunAt: string | null;
  lastRunAt: string | null;
}

/** What a scheduled job receives. */
export interface ScheduledFiring<P = unknown> {
  key: string;
  payload: P;
  /** The time it was due (ISO). */
  scheduledFor: string;
  firedAt: string;
  /** Times passed while no studio ran, caught up by this firing (`missed: 'catch_up'`); 0 otherwise. */
  missed: number;
}

/**
 * The host's scheduler: a time fires once however many studio processes run. On the database without Redis (a row
 * per schedule, claimed for each time by one process with a compare-and-set on its next time); on BullMQ's job
 * schedulers when `REDIS_URL` is set (Redis holds each time once; any worker runs the job).
 */
export interface Schedules {
  /** Saves (or replaces) a schedule; a bad cron, time zone or past time is refused with a 400 that names it. */
  save<P>(spec: ScheduleSpec<P>): Promise<ScheduleState>;
  /** Removes a schedule; true when there was one. */
  remove(key: string): Promise<boolean>;
  get(key: string): Promise<ScheduleState | undefined>;
  /** The next `count` times (ISO) of a cron in a time zone, or of a one-off time, after now (or `from`); throws as `save`. */
  preview(spec: Pick<ScheduleSpec, 'cron' | 'timeZone' | 'at'>, count?: number, from?: Date): Promise<string[]>;
}
export const SchedulesService = defineService<Schedules>({
  id: 'host.schedules',
  owner: 'host',
  description: 'Cron and one-off schedules that enqueue a background job at their times, once across processes.',
});

/**
 * Messages to every studio process (pages following something live while its work runs in another process): Redis
 * pub/sub with the scale-out engine (REDIS_URL), in-process otherwise. At most once, in order per channel; a listener
 * that throws is reported, not retried. Facts that must not be lost belong in the database, told here as well.
 */
export interface Broadcast {
  /** Tells the channel's listeners in every process, this one's included. The message must be JSON. */
  publish(channel: string, message: unknown): void;
  /**
   * The channel's messages from any process; returns what stops listening, with `ready` (resolved once messages
   * published from now on reach it: read a snapshot after it, so nothing falls between the two).
   */
  subscribe(channel: string, listener: (message: unknown) => void): Subscription;
}
export type Subscription = (() => void) & { ready: Promise<void> };
export const BroadcastService = defineService<Broadcast>({
  id: 'host.broadcast',
  owner: 'host',
  description: 'Messages to every studio process (Redis pub/sub when scaled out, in-process otherwise).',
});

export interface Secrets {
  /** Encrypts for storage at rest (AES-256-GCM). */
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
  /** What may be shown of a secret: its last four characters. */
  mask(plain: string): string;
}
export const SecretsService = defineService<Secrets>({
  id: 'host.secrets',
  owner: 'host',
  description: 'Encryption of secrets at rest.',
});

export interface HostInfo {
  platformName: string;
  dataDir: string;
  publicUrl: string;
  /** Outbound HTTP to private and loopback addresses is refused unless this is true. */
  allowPrivateNetwork: boolean;
  /** True when several processes share the work (REDIS_URL is set): no process may assume it is alone. */
  distributed: boolean;
  /** A new 64-bit id, as a decimal string. */
  newId(): string;
}
export const HostInfoService = defineService<HostInfo>({
  id: 'host.info',
  owner: 'host',
  description: 'Platform facts and id generation.',
});

/** The files of a built standalone page: scripts and style sheets, as absolute paths of the studio. */
export interface WebEntryAssets {
  js: string[];
  css: string[];
}
/**
 * An extension's standalone pages: pages drawn without the studio's shell and its code (a published app), each a light
 * bundle of its own built from the extension's package.json `"tessera": { "webEntries": { "<name>": "./module.tsx" } }`.
 * The extension serves the page's HTML from a route of its own (its path, its access rules, its data inlined) and
 * asks here for the files to load. Undefined when the page was not built (a development server).
 */
export interface WebEntries {
  assets(extensionId: string, name: string): WebEntryAssets | undefined;
}
export const WebEntriesService = defineService<WebEntries>({
  id: 'host.webEntries',
  owner: 'host',
  description: "The built files of extensions' standalone pages (package.json tessera.webEntries).",
});

export interface OutboundHttp {
  /**
   * fetch that refuses private, loopback and link-local addresses (checked for every resolved address
   * and redirect hop) unless security.allowPrivateNetwork is set or `allowPrivate` is passed by a caller
   * acting for a platform administrator. The connection goes to the address that was checked (no DNS
   * rebinding window). `timeoutMs` aborts the request; at most `maxRedirects` redirects are followed
   * (configuration: security.outboundMaxRedirects, default 5) and a body longer than `maxBytes`
   * (security.outboundMaxBytes, default 20 MiB) fails the read.
   */
  fetch(
    url: string | URL,
    init?: RequestInit & { timeoutMs?: number; allowPrivate?: boolean; maxRedirects?: number; maxBytes?: number },
  ): Promise<Response>;
  /**
   * Checks a URL the way `fetch` would before connecting (http/https, every address its host resolves
   * to): resolves when it may be reached, else rejects with a message naming the host and address.
   * For URLs saved now and fetched later (a model provider's base URL, a plugin's server).
   */
  check(url: string | URL, opts?: { allowPrivate?: boolean }): Promise<void>;
}
export const OutboundHttpService = defineService<OutboundHttp>({
  id: 'host.outbound',
  owner: 'host',
  description: 'Guarded outbound HTTP.',
});

/** One extension as the studio found it, with what it contributes. */
export interface ExtensionInfo {
  id: string;
  version: string;
  state: 'started' | 'disabled' | 'failed' | 'stopped';
  reason?: string;
  source: 'builtin' | 'runtime' | 'test';
  folder: string | null;
  /** Its name for people, per language (the manifest's `name`; absent: the id). */
  name?: Record<string, string>;
  /** What it adds, per language (the manifest's `description`, English from package.json's). */
  description?: Record<string, string>;
  requires: string[];
  optional: string[];
  /** What it put into the points (registry entries and hook taps), by point id. */
  contributions: { point: string; keys: string[] }[];
  /** What an administrator chose that applies at the next start: enable, disable, installed, removed. */
  pending?: 'enable' | 'disable' | 'install' | 'remove';
}

/** What would change at the next start if these choices were made (the cascade). */
export interface ExtensionChangePreview {
  id: string;
  /** 'disable': it would stop running (chosen, or because something it needs stops); 'enable': it would run. */
  change: 'enable' | 'disable';
  reason: string;
}

/**
 * The extensions of this studio for its administrators: list, enable and disable (kept in the data
 * folder, applied at the next start), install a runtime extension from an `npm pack` tarball into
 * extensionsDir, remove one. The host provides it; an extension serves it (routes, page).
 */
export interface ExtensionAdmin {
  list(): ExtensionInfo[];
  preview(changes: Record<string, boolean>): ExtensionChangePreview[];
  setEnabled(changes: Record<string, boolean>): void;
  install(tarball: Uint8Array): { id: string; version: string; folder: string; replaced: boolean };
  remove(id: string): void;
}
export const ExtensionAdminService = defineService<ExtensionAdmin>({
  id: 'host.extensionAdmin',
  owner: 'host',
  description: 'The extensions of this studio, for platform administrators.',
});

// ---------------------------------------------------------------- context and definition

/** A WebSocket connection a route serves (JSON messages, as Coze's realtime APIs speak; bytes on `binary` routes). */
export interface SocketConnection {
  /** Sends a message (as JSON) while the connection is open. */
  send(message: unknown): void;
  /** Sends bytes while the connection is open (a binary frame). */
  sendBinary(data: Uint8Array): void;
  close(code?: number, reason?: string): void;
  /** Each text message the client sends. */
  onMessage(listener: (text: string) => void | Promise<void>): void;
  /**
   * Each binary message the client sends, on a route that declares `binary: true` (elsewhere a binary message closes
   * the connection with 1003). Text and binary messages are handled in the order they came.
   */
  onBinary(listener: (data: Uint8Array) => void | Promise<void>): void;
  /** Bytes sent but not yet written to the network (a route that streams slows down when it grows). */
  readonly buffered: number;
  /** Aborted when the connection closes (either side). */
  readonly signal: AbortSignal;
}
/** A WebSocket route: upgrades on `path` (a GET with `Upgrade: websocket`), after the caller is known. */
export interface WebSocketRoute<Q = any> {
  path: string;
  /**
   * `user`: a session or a token (the header, or `?authorization=Bearer ...` as browsers' WebSockets cannot send
   * headers, the way Coze's clients do); refused with 401 before the upgrade otherwise.
   */
  auth: 'user' | 'anonymous';
  /** The token permission the caller needs (as a route's). */
  permission?: string;
  summary: string;
  query?: ZodType<Q>;
  /** Binary messages reach `onBinary` (a protocol of its own, such as a shared document's sync); else refused. */
  binary?: boolean;
  /**
   * The space the connection touches, from its query (an `ApiError` thrown, such as a 404 for a resource that is not
   * there, is the answer): the caller must be a member, as for an API route whose auth names a space, and a token
   * must reach it.
   */
  space?(query: Q): string | undefined | Promise<string | undefined>;
  /**
   * The resource it touches, for the change policies (`ServerRequestInterceptors`, as for a route's `resource`):
   * with `write: true` a refusal refuses the connection; with `'or-read-only'` the connection opens read-only
   * (`readOnly` on the handler's request).
   */
  resource?(query: Q): { kind: string; id: string; write: boolean | 'or-read-only' };
  handler(conn: SocketConnection, req: SocketRequest<Q>): void | Promise<void>;
}
/** What a WebSocket route's handler is told of the connection, checked before the upgrade. */
export interface SocketRequest<Q = any> {
  caller?: Caller;
  query: Q;
  logId: string;
  /** The route's `space`, and the caller's role there. */
  spaceId?: string;
  spaceRole?: SpaceRole;
  /** The change policies refused a `resource` declared `'or-read-only'`: look, do not change. */
  readOnly: boolean;
}
/** WebSocket routes, mounted by the host on its HTTP server's upgrades (the `ws` library loads with the first). */
export const WebSocketRoutes = defineRegistryPoint<WebSocketRoute>({
  id: 'server.webSocketRoutes',
  owner: 'host',
  description: 'WebSocket routes (realtime APIs): the caller authenticated before the upgrade, JSON messages.',
  schema: z.object({
    path: z.string().regex(/^\/[\w\-./]*$/, 'must start with / (no parameters)'),
    auth: z.enum(['anonymous', 'user']),
    handler: fn,
  }),
  key: (r) => r.path,
});

export interface ServerContext<Config = unknown> extends ExtensionContext<Config> {
  route<B, Q, P, R>(route: ApiRoute<B, Q, P, R>): Disposable;
  /** A WebSocket route (registers on `WebSocketRoutes`). */
  websocket<Q>(route: WebSocketRoute<Q>): Disposable;
  migrations(list: Migration[]): void;
  job<P>(job: BackgroundJob<P>): Disposable;
  /** The database (available from start(); migrations get it as their argument). */
  readonly db: Kysely<any>;
  readonly host: HostInfo;
}

/**
 * The extension's own server context, in a class's `inject` list: `static readonly inject = [ServerContextToken,
 * Store] as const` gives the constructor the context of the extension that resolves it (`ctx.resolve`).
 */
export const ServerContextToken = ExtensionContextToken as ServiceToken<ServerContext<any>>;

export interface ServerExtension<Config = unknown> extends ExtensionDefinition<ServerContext<Config>> {
  side: 'server';
}

export function defineExtension<S extends ZodType | undefined = undefined>(def: {
  id: string;
  configSchema?: S;
  register?(ctx: ServerContext<S extends ZodType ? z.output<S> : unknown>): void;
  start?(ctx: ServerContext<S extends ZodType ? z.output<S> : unknown>): void | Promise<void>;
  stop?(ctx: ServerContext<S extends ZodType ? z.output<S> : unknown>): void | Promise<void>;
}): ServerExtension<S extends ZodType ? z.output<S> : unknown> {
  return { ...(def as any), side: 'server' };
}

/**
 * Reads a multipart/form-data upload (an `upload: true` route): each file streams to `each` as it arrives; the first
 * failure answers at once. The reader (busboy) loads with the first upload.
 */
export async function receiveFiles<T>(
  req: ApiRequest,
  maxFiles: number,
  each: (fileName: string, stream: NodeJS.ReadableStream, fields: Record<string, string>) => Promise<T>,
): Promise<{ files: T[]; fields: Record<string, string> }> {
  return (await import('./multipart.ts')).receiveFiles(req, maxFiles, each);
}
