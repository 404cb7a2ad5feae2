import { describeError } from '@tessera/sdk';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

/** The YAML parser, loaded only when there is a YAML file to read. */
const parseYaml = (text: string): unknown =>
  (createRequire(import.meta.url)('yaml') as typeof import('yaml')).parse(text);
import { z } from 'zod';
import type { ExtensionSettings } from '@tessera/core';

const extensionEntry = z.union([
  z.string(),
  z.record(
    z.string(),
    z.union([z.boolean(), z.object({ config: z.unknown().optional(), enabled: z.boolean().optional() }).strict()]),
  ),
]);

const startupPolicy = z
  .object({ onFailure: z.enum(['continue', 'abort']).optional(), timeoutMs: z.number().int().positive().optional() })
  .strict();

/** tessera.config.(yaml|json): every key is optional; environment variables override it. */
export const ConfigFileSchema = z
  .object({
    port: z.number().int().min(0).max(65535).optional(),
    host: z.string().optional(),
    dataDir: z.string().optional(),
    platformName: z.string().optional(),
    publicUrl: z.string().optional(),
    databaseUrl: z.string().optional(),
    redisUrl: z.string().optional(),
    logLevel: z.enum(['debug', 'info', 'warn', 'error', 'silent']).optional(),
    diagnostics: z.boolean().optional(),
    extensions: z.array(extensionEntry).optional(),
    extensionsDir: z.string().optional(),
    startup: z
      .object({ default: startupPolicy.optional(), extensions: z.record(z.string(), startupPolicy).optional() })
      .strict()
      .optional(),
    security: z
      .object({
        allowPrivateNetwork: z.boolean().optional(),
        secretKey: z.string().optional(),
        outboundMaxBytes: z.number().int().positive().optional(),
        outboundMaxRedirects: z.number().int().min(0).max(20).optional(),
        outboundAllow: z.array(z.string()).optional(),
        trustProxy: z.union([z.boolean(), z.number().int().min(1), z.string()]).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

export interface TesseraConfig {
  root: string;
  port: number;
  host: string;
  dataDir: string;
  platformName: string;
  publicUrl: string;
  databaseUrl?: string;
  redisUrl?: string;
  /**
   * The shared queue (with redisUrl): whether this process consumes jobs (TESSERA_QUEUE_CONSUMER), the key
   * prefix of its queues (TESSERA_BULLMQ_PREFIX), and how soon a job whose worker stopped is delivered again
   * (TESSERA_QUEUE_STALL_MS; BullMQ's 30 s by default). `schedulePollMs` (TESSERA_SCHEDULE_POLL_MS, 15 s): how soon
   * a process sees a schedule another process saved (its own it sees at once), on the database's scheduler.
   * `scheduler` (TESSERA_SCHEDULER): what fires the schedules' times: `redis` (BullMQ's job schedulers; the default
   * with redisUrl) or `database` (a claim on the schedule's row; the default, and the only one, without Redis).
   */
  queue: {
    consumer: boolean;
    prefix: string;
    stallMs?: number;
    schedulePollMs?: number;
    scheduler: 'database' | 'redis';
  };
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /**
   * Each API response says what its request did on the main database connection (headers
   * x-tessera-statements and x-tessera-writes): for budget tests and profiling (TESSERA_DIAGNOSTICS).
   */
  diagnostics: boolean;
  extensionsDir: string;
  builtinExtensionsDir: string;
  /** Where the configuration named each extension id (file, TESSERA_DISABLE ...), to warn about unknown ones. */
  extensionMentions?: Record<string, string>;
  webDist: string;
  allowPrivateNetwork: boolean;
  /** Outbound HTTP: the largest response body read, and the redirects followed at most. */
  outbound: { maxBytes: number; maxRedirects: number; allow: string[] };
  secretKey?: string;
  /**
   * Whom to believe about the client's address (X-Forwarded-For): false (default: the socket's peer),
   * true (any proxy), a hop count, or addresses/subnets of the trusted proxies ('10.0.0.1,10.0.0.0/8').
   */
  trustProxy: boolean | number | string;
  /** Per-extension settings (enabled, config, startup policy). */
  extensions: Record<string, ExtensionSettings>;
  startupDefault: { onFailure: 'continue' | 'abort'; timeoutMs: number };
  /** Where the configuration came from, for the start banner. */
  file?: string;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export interface LoadConfigOptions {
  root: string;
  env?: NodeJS.ProcessEnv;
  /** Values from the command line (--port, --data), which win over everything. */
  overrides?: Partial<Pick<TesseraConfig, 'port' | 'dataDir' | 'host' | 'databaseUrl' | 'logLevel' | 'extensionsDir'>>;
  file?: string;
}

export function loadConfig({ root, env = process.env, overrides = {}, file }: LoadConfigOptions): TesseraConfig {
  const fileName =
    file ??
    env.TESSERA_CONFIG ??
    ['tessera.config.yaml', 'tessera.config.yml', 'tessera.config.json']
      .map((f) => path.join(root, f))
      .find((f) => existsSync(f));
  let raw: unknown = {};
  if (fileName) {
    const abs = path.resolve(root, fileName);
    if (!existsSync(abs)) throw new ConfigError(`configuration file ${abs} does not exist`);
    const text = readFileSync(abs, 'utf8');
    try {
      raw = (abs.endsWith('.json') ? JSON.parse(text) : parseYaml(text)) ?? {};
    } catch (e) {
      throw new ConfigError(`${abs} is not valid ${abs.endsWith('.json') ? 'JSON' : 'YAML'}: ${describeError(e)}`);
    }
  }
  const parsed = ConfigFileSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new ConfigError(`${fileName}: ${problems}`);
  }
  const c = parsed.data;

  const extensions: Record<string, ExtensionSettings> = {};
  // Where each id was named (the studio warns about ids no installed extension has).
  const mentions: Record<string, string> = {};
  const mention = (id: string, where: string) => (mentions[id] ??= where);
  for (const entry of c.extensions ?? []) {
    if (typeof entry === 'string') extensions[entry] = { ...extensions[entry], enabled: true };
    else
      for (const [id, v] of Object.entries(entry)) {
        extensions[id] =
          typeof v === 'boolean'
            ? { ...extensions[id], enabled: v }
            : { ...extensions[id], enabled: v.enabled ?? true, config: v.config };
      }
  }
  for (const id of Object.keys(extensions)) mention(id, fileName ?? 'the configuration file');
  // What a platform administrator chose in the studio (Extensions settings), kept in the data folder and
  // applied at start: over the configuration file, under the environment.
  const dataDir = path.resolve(root, overrides.dataDir ?? env.TESSERA_DATA_DIR ?? c.dataDir ?? 'data');
  for (const [id, enabled] of Object.entries(readAdminChoices(dataDir)))
    extensions[id] = { ...extensions[id], enabled };
  for (const id of list(env.TESSERA_DISABLE)) {
    extensions[id] = { ...extensions[id], enabled: false };
    mention(id, 'TESSERA_DISABLE');
  }
  for (const id of list(env.TESSERA_ENABLE)) {
    extensions[id] = { ...extensions[id], enabled: true };
    mention(id, 'TESSERA_ENABLE');
  }
  // TESSERA_EXT_<ID>='{"key": ...}' configures one extension from the environment (id: upper case, '-' and '.' as '_').
  for (const [k, v] of Object.entries(env)) {
    if (!k.startsWith('TESSERA_EXT_') || v === undefined) continue;
    const id = k.slice('TESSERA_EXT_'.length).toLowerCase().replace(/_/g, '-');
    mention(id, k);
    try {
      extensions[id] = { ...extensions[id], config: JSON.parse(v) };
    } catch {
      throw new ConfigError(`${k} must be JSON (the configuration of extension '${id}')`);
    }
  }
  for (const [id, p] of Object.entries(c.startup?.extensions ?? {})) {
    extensions[id] = { ...extensions[id], onFailure: p.onFailure, startTimeoutMs: p.timeoutMs };
  }

  const port = overrides.port ?? num(env.TESSERA_PORT ?? env.PORT, 'TESSERA_PORT') ?? c.port ?? 3000;
  const host = overrides.host ?? env.TESSERA_HOST ?? c.host ?? '127.0.0.1';
  const logLevel = (overrides.logLevel ?? env.TESSERA_LOG_LEVEL ?? c.logLevel ?? 'info') as TesseraConfig['logLevel'];
  if (!['debug', 'info', 'warn', 'error', 'silent'].includes(logLevel))
    throw new ConfigError(`TESSERA_LOG_LEVEL must be one of debug, info, warn, error, silent`);
  const allowPrivate =
    env.TESSERA_ALLOW_PRIVATE_NETWORK !== undefined
      ? env.TESSERA_ALLOW_PRIVATE_NETWORK === 'true' || env.TESSERA_ALLOW_PRIVATE_NETWORK === '1'
      : (c.security?.allowPrivateNetwork ?? false);
  return {
    root,
    port,
    host,
    dataDir,
    platformName: env.TESSERA_PLATFORM_NAME ?? c.platformName ?? 'Tessera Studio',
    publicUrl: env.TESSERA_PUBLIC_URL ?? c.publicUrl ?? `http://localhost:${port}`,
    databaseUrl: overrides.databaseUrl ?? env.DATABASE_URL ?? c.databaseUrl,
    redisUrl: env.REDIS_URL ?? c.redisUrl,
    queue: {
      consumer: env.TESSERA_QUEUE_CONSUMER !== 'false',
      prefix: env.TESSERA_BULLMQ_PREFIX || 'tessera',
      stallMs: num(env.TESSERA_QUEUE_STALL_MS, 'TESSERA_QUEUE_STALL_MS'),
      schedulePollMs: num(env.TESSERA_SCHEDULE_POLL_MS, 'TESSERA_SCHEDULE_POLL_MS'),
      scheduler: schedulerOf(env.TESSERA_SCHEDULER, !!(env.REDIS_URL ?? c.redisUrl)),
    },
    logLevel,
    diagnostics:
      env.TESSERA_DIAGNOSTICS !== undefined
        ? env.TESSERA_DIAGNOSTICS === 'true' || env.TESSERA_DIAGNOSTICS === '1'
        : (c.diagnostics ?? false),
    extensionsDir: path.resolve(
      root,
      overrides.extensionsDir ?? env.TESSERA_EXTENSIONS_DIR ?? c.extensionsDir ?? 'extensions.d',
    ),
    builtinExtensionsDir: path.join(root, 'extensions'),
    webDist: path.join(root, 'host/web/dist'),
    allowPrivateNetwork: allowPrivate,
    outbound: {
      maxBytes:
        num(env.TESSERA_OUTBOUND_MAX_BYTES, 'TESSERA_OUTBOUND_MAX_BYTES') ??
        c.security?.outboundMaxBytes ??
        20 * 1024 * 1024,
      maxRedirects: c.security?.outboundMaxRedirects ?? 5,
      allow: env.TESSERA_OUTBOUND_ALLOW?.split(',') ?? c.security?.outboundAllow ?? [],
    },
    secretKey: env.TESSERA_SECRET_KEY ?? c.security?.secretKey,
    trustProxy:
      env.TESSERA_TRUST_PROXY !== undefined ? trustProxyOf(env.TESSERA_TRUST_PROXY) : (c.security?.trustProxy ?? false),
    extensions,
    extensionMentions: mentions,
    startupDefault: {
      onFailure: c.startup?.default?.onFailure ?? 'continue',
      timeoutMs: c.startup?.default?.timeoutMs ?? 10_000,
    },
    file: fileName,
  };
}

/** The file in the data folder that keeps the extension choices made in the studio. */
export const ADMIN_CHOICES_FILE = 'extensions.json';

/** One map of the data folder's choices file (`enabled`, `reasons`), its entries of one type; nothing when absent or unreadable. */
function readAdminMap<T extends boolean | string>(
  dataDir: string,
  key: 'enabled' | 'reasons',
  type: 'boolean' | 'string',
): Record<string, T> {
  const file = path.join(dataDir, ADMIN_CHOICES_FILE);
  if (!existsSync(file)) return {};
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, unknown> | undefined>;
    return Object.fromEntries(Object.entries(parsed[key] ?? {}).filter(([, v]) => typeof v === type)) as Record<
      string,
      T
    >;
  } catch {
    return {};
  }
}

/** `{ "enabled": { "id": true | false } }` from the data folder. */
export const readAdminChoices = (dataDir: string) => readAdminMap<boolean>(dataDir, 'enabled', 'boolean');

/** Why the studio itself disabled extensions (an error escaped while one started): `{ "reasons": { "id": "..." } }`. */
export const readAdminReasons = (dataDir: string) => readAdminMap<string>(dataDir, 'reasons', 'string');

/** Disables extensions in the data folder's choices, with the reason the admin page shows. */
export function writeAdminDisabled(dataDir: string, disabled: Record<string, string>): void {
  const choices = { ...readAdminChoices(dataDir) };
  const reasons = { ...readAdminReasons(dataDir) };
  for (const [id, reason] of Object.entries(disabled)) {
    choices[id] = false;
    reasons[id] = reason;
  }
  writeFileSync(path.join(dataDir, ADMIN_CHOICES_FILE), `${JSON.stringify({ enabled: choices, reasons }, null, 2)}\n`);
}

function trustProxyOf(v: string): boolean | number | string {
  if (v === 'true' || v === 'false') return v === 'true';
  if (/^\d+$/.test(v)) return Number(v);
  return v;
}

function list(v: string | undefined): string[] {
  return (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function num(v: string | undefined, name: string): number | undefined {
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new ConfigError(`${name} must be a port number, got '${v}'`);
  return n;
}

/** TESSERA_SCHEDULER: `redis` needs a Redis URL; unset, Redis's when there is one. */
function schedulerOf(v: string | undefined, hasRedis: boolean): 'database' | 'redis' {
  if (v === undefined || v === '') return hasRedis ? 'redis' : 'database';
  if (v !== 'database' && v !== 'redis')
    throw new ConfigError(`TESSERA_SCHEDULER must be 'database' or 'redis', got '${v}'`);
  if (v === 'redis' && !hasRedis) throw new ConfigError(`TESSERA_SCHEDULER=redis needs REDIS_URL`);
  return v;
}
