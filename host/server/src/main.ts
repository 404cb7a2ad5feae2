import { describeError } from '@tessera/core';
import { writeFileSync } from 'node:fs';
import { ConfigError, loadConfig, writeAdminDisabled, type TesseraConfig } from './config.ts';
import { createServer, type TesseraServer } from './server.ts';
import { DataDirError } from './data-dir.ts';
import { fieldOf } from '@tessera/sdk';

export interface StartOptions {
  root: string;
  overrides?: Parameters<typeof loadConfig>[0]['overrides'];
  /** Print the banner (default true). */
  banner?: boolean;
}

/** Starts the studio: loads configuration, starts the extensions, listens; stops cleanly on SIGINT/SIGTERM. */
export async function startStudio({ root, overrides, banner = true }: StartOptions): Promise<TesseraServer> {
  const began = performance.now();
  // Nothing an extension lets escape (a timer's throw, a promise nobody awaited) stops the studio, from the
  // first line on: once it runs, the error is logged with the extension whose code threw; while extensions
  // load and start, it is kept, and the extension is disabled with the reason before the studio starts.
  let running: TesseraServer | undefined;
  const escaped: { error: unknown; kind: 'uncaught exception' | 'unhandled rejection' }[] = [];
  const escape = (kind: 'uncaught exception' | 'unhandled rejection') => (error: unknown) =>
    running ? running.reportUncaught(error, kind) : escaped.push({ error, kind });
  process.on('uncaughtException', escape('uncaught exception'));
  process.on('unhandledRejection', escape('unhandled rejection'));
  let config: TesseraConfig;
  try {
    config = loadConfig({ root, overrides });
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`tessera: configuration error: ${e.message}`);
      process.exit(2);
    }
    throw e;
  }
  let server: TesseraServer;
  try {
    server = await createServer(config);
    // What an extension's start left to run next (a timer of 0 ms, a rejected promise) has run by now.
    await new Promise((r) => setTimeout(r, 0));
    await new Promise((r) => setImmediate(r));
    const culprits = new Map<string, string>();
    for (const { error, kind } of escaped.splice(0)) {
      const id = server.ownerOf(error);
      if (id && !culprits.has(id)) culprits.set(id, `${kind} while it loaded or started: ${describeError(error)}`);
      else if (!id) server.reportUncaught(error, kind);
    }
    if (culprits.size) {
      for (const [id, reason] of culprits)
        console.error(
          `tessera: extension '${id}' was disabled: ${reason}. Enable it again in Settings > Extensions once it is fixed.`,
        );
      writeAdminDisabled(config.dataDir, Object.fromEntries(culprits));
      await server.close();
      server = await createServer(loadConfig({ root, overrides }));
    }
  } catch (e) {
    if (e instanceof DataDirError) {
      console.error(`tessera: ${e.message}`);
      process.exit(2);
    }
    throw e;
  }
  running = server;
  for (const { error, kind } of escaped.splice(0)) server.reportUncaught(error, kind);
  let url: string;
  try {
    url = await server.listen();
  } catch (e) {
    await server.close();
    if (fieldOf(e, 'code') === 'EADDRINUSE') {
      console.error(`tessera: port ${config.port} is in use. Stop the other process or start with --port N.`);
      process.exit(3);
    }
    throw e;
  }
  // ./tessera bench startup reads what each extension cost to load and start.
  if (process.env.TESSERA_STARTUP_REPORT) {
    writeFileSync(
      process.env.TESSERA_STARTUP_REPORT,
      JSON.stringify({
        startMs: Math.round(performance.now() - began),
        rssMb: Math.round(process.memoryUsage.rss() / 104857.6) / 10,
        extensions: server.host.status(),
      }),
    );
  }
  const shown = url.replace('127.0.0.1', 'localhost');
  if (banner) {
    const status = server.host.status();
    const started = status.filter((s) => s.state === 'started').length;
    const problems = status.filter((s) => s.state === 'failed');
    const disabled = status.filter((s) => s.state === 'disabled');
    // What did not start first; the address last, where a person looks for it.
    for (const p of problems) console.log(`extension '${p.id}' failed: ${p.reason}`);
    for (const d of disabled) console.log(`extension '${d.id}' disabled: ${d.reason}`);
    console.log(
      `${config.platformName} is running on ${shown} (${Math.round(performance.now() - began)} ms, ${started} extensions, data in ${config.dataDir}${config.databaseUrl ? ', PostgreSQL' : ', SQLite'})`,
    );
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    if (banner) console.log(`\n${signal}: stopping ...`);
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  return server;
}
