import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer, loadConfig, type TesseraServer } from '@tessera/server';
import { writeTarball } from '../host/server/src/tarball.ts';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const FIXTURE_EXTENSIONS = path.join(ROOT, 'tests/fixtures/extensions');

export interface RunningStudio {
  server: TesseraServer;
  url: string;
  dataDir: string;
  /** The PostgreSQL database of this studio, in the PostgreSQL run. */
  databaseUrl?: string;
  close(): Promise<void>;
}

/**
 * Starts the whole studio as `./tessera start` does, on a free loopback port (or `port`, when it is free) with its own
 * data folder.
 */
export async function startStudio(
  opts: {
    env?: Record<string, string>;
    extensionsDir?: string;
    keepData?: string;
    keepDatabase?: boolean;
    port?: number;
  } = {},
): Promise<RunningStudio> {
  const dataDir = opts.keepData ?? mkdtempSync(path.join(tmpdir(), 'tessera-data-'));
  // Many test users sign up from one address: lift the sign-up limit (sign-in keeps its default), and hash their
  // passwords at scrypt's lowest cost (4 ms a sign-up or sign-in instead of 100).
  const env: NodeJS.ProcessEnv = {
    TESSERA_LOG_LEVEL: process.env.TESSERA_LOG_LEVEL ?? 'silent',
    TESSERA_EXT_IDENTITY: '{"registerPerMinute":10000,"passwordCost":10}',
    ...opts.env,
  };
  if (opts.extensionsDir) env.TESSERA_EXTENSIONS_DIR = opts.extensionsDir;
  else env.TESSERA_EXTENSIONS_DIR = path.join(dataDir, 'no-extensions');
  const pg =
    process.env.TESSERA_HOST_TESTS_ON_PG && process.env.TESSERA_TEST_DATABASE_URL && !opts.env?.DATABASE_URL
      ? await freshPgDatabase(process.env.TESSERA_TEST_DATABASE_URL)
      : undefined;
  if (pg) env.DATABASE_URL = pg.url;
  const start = async (port: number) => {
    const config = loadConfig({ root: ROOT, env, overrides: { dataDir, port } });
    const server = await createServer(config);
    try {
      return { server, url: await server.listen() };
    } catch (e) {
      await server.close();
      throw e;
    }
  };
  const { server, url } = await start(opts.port ?? 0)
    .catch((e) => {
      if (opts.port && (e as NodeJS.ErrnoException).code === 'EADDRINUSE') return start(0);
      throw e;
    })
    .catch(async (e) => {
      await pg?.drop();
      throw e;
    });
  return {
    server,
    url,
    dataDir,
    databaseUrl: pg?.url ?? opts.env?.DATABASE_URL,
    async close() {
      await server.close();
      if (!opts.keepDatabase) await pg?.drop();
      if (!opts.keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The built text-stats example (examples/text-stats) as `npm pack` would pack it. */
export function textStatsTarball(): Buffer {
  const dir = path.join(ROOT, 'examples/text-stats');
  return writeTarball({
    'package.json': readFileSync(path.join(dir, 'package.json')),
    'dist/server/index.js': readFileSync(path.join(dir, 'dist/server/index.js')),
  });
}

/** A folder holding the built example extension, as an operator would drop it into extensionsDir. */
export function exampleExtensionsDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-extd-'));
  const src = path.join(ROOT, 'examples/hello-extension');
  mkdirSync(path.join(dir, 'hello'));
  cpSync(path.join(src, 'package.json'), path.join(dir, 'hello/package.json'));
  cpSync(path.join(src, 'dist'), path.join(dir, 'hello/dist'), { recursive: true });
  return dir;
}

export async function getJson(
  url: string,
  init?: RequestInit,
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, body, headers: res.headers };
}

/** A database of its own for one studio (host tests run in parallel on one PostgreSQL server). */
async function freshPgDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const pg = await import('pg');
  const Client = (pg.default ?? pg).Client;
  const name = `tessera_t_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
