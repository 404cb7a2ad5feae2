// The Tessera command line, run by ./tessera once Node and the dependencies are in place.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ROOT, bin } from './paths.ts';
import { buildWeb, generateBuiltinClients } from './web-build.ts';

const HELP = `Tessera Studio

Usage: ./tessera <command> [options]

  start [--port N] [--data DIR]   build what is stale, then start the studio (default http://localhost:3000)
  dev [--port N]                  server with restart on change + web dev server with hot reload
  test [pattern ...]              lint, build, and run the whole test suite (unit, client, host, e2e)
  bench <name> | bench list       run a benchmark and print its figures (startup, ...)
  worker [--data DIR]             run background jobs and async workflow runs from the shared queue (REDIS_URL)
  migrate [--data DIR]            run the extensions' database migrations and exit
  create-extension NAME           scaffold extensions/NAME with a passing test
    [--out DIR --template node-type|page|server]   ... or an extension outside this checkout (npm test, npm run build)
  build [--force]                 build the web studio, the example extensions and the author packages (dist/packages)
  coverage [--raise]              the last full test run's line coverage per folder against tests/coverage-floors.json
                                  (--raise lifts the floors to it; a floor never goes down)
  lint                            import boundaries, oxlint (hooks, type-aware rules), the formatter's check, types
  format                          rewrite the tree with the formatter (Prettier, .prettierrc.json)
  help                            this text

Configuration: tessera.config.yaml (or .json) and environment variables; see README.md.`;

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i >= 0) {
    const v = args[i + 1];
    if (v === undefined || v.startsWith('--')) fail(`${name} needs a value`);
    args.splice(i, 2);
    return v;
  }
  const eq = args.find((a) => a.startsWith(`${name}=`));
  if (eq) {
    args.splice(args.indexOf(eq), 1);
    return eq.slice(name.length + 1);
  }
  return undefined;
}

function fail(msg: string): never {
  console.error(`tessera: ${msg}`);
  process.exit(2);
}

function port(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) fail(`--port must be a number from 0 to 65535, got '${v}'`);
  return n;
}

/** The server's many-file dependencies from their single-file bundles (made when missing or stale). */
async function serverModules(): Promise<void> {
  const { buildVendor, useVendor } = await import('./vendor.ts');
  if (buildVendor()) useVendor();
}

async function main() {
  const [command = 'help', ...args] = process.argv.slice(2);
  switch (command) {
    case 'help':
    case '-h':
    case '--help':
      console.log(HELP);
      return;
    case 'start': {
      const p = port(flag(args, '--port'));
      const data = flag(args, '--data');
      if (args.length) fail(`start: unknown option ${args[0]} (see ./tessera help)`);
      buildWeb();
      await serverModules();
      (await import('./system-tools.ts')).offerSystemTools();
      const { startStudio } = await import('../host/server/src/main.ts');
      await startStudio({ root: ROOT, overrides: { port: p, dataDir: data } });
      return;
    }
    case 'build': {
      buildWeb({ force: args.includes('--force') });
      const { buildVendor } = await import('./vendor.ts');
      buildVendor({ force: args.includes('--force'), quiet: false });
      const { buildExamples } = await import('./examples.ts');
      buildExamples({ force: args.includes('--force') });
      const { packPackages } = await import('./pack.ts');
      packPackages({ force: args.includes('--force'), quiet: false });
      return;
    }
    case 'dev': {
      const p = port(flag(args, '--port')) ?? 3000;
      generateBuiltinClients();
      const env = { ...process.env, TESSERA_PORT: String(p) };
      const server = spawn(
        process.execPath,
        [
          '--watch-path=host',
          '--watch-path=core',
          '--watch-path=sdk',
          '--watch-path=extensions',
          path.join(ROOT, 'tools/dev-server.ts'),
        ],
        { cwd: ROOT, stdio: 'inherit', env },
      );
      const web = spawn(process.execPath, [bin.rsbuild, 'dev'], { cwd: ROOT, stdio: 'inherit', env });
      console.log(
        `tessera dev: API on http://localhost:${p}, studio with hot reload on http://localhost:${process.env.TESSERA_WEB_DEV_PORT ?? 3001}`,
      );
      const stop = () => {
        server.kill('SIGTERM');
        web.kill('SIGTERM');
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      return;
    }
    case 'worker': {
      const data = flag(args, '--data');
      await serverModules();
      const { loadConfig, createServer } = await import('../host/server/src/index.ts');
      const config = loadConfig({ root: ROOT, overrides: { dataDir: data } });
      if (!config.redisUrl)
        fail('a worker needs REDIS_URL (the shared queue); without it ./tessera start runs background jobs itself');
      const early: [unknown, 'uncaught exception' | 'unhandled rejection'][] = [];
      let ready: Awaited<ReturnType<typeof createServer>> | undefined;
      // What a job or an extension lets escape is logged with the extension; the worker goes on.
      process.on('uncaughtException', (e) =>
        ready ? ready.reportUncaught(e, 'uncaught exception') : early.push([e, 'uncaught exception']),
      );
      process.on('unhandledRejection', (e) =>
        ready ? ready.reportUncaught(e, 'unhandled rejection') : early.push([e, 'unhandled rejection']),
      );
      const server = await createServer(config, { consumeJobs: true });
      ready = server;
      for (const [e, kind] of early.splice(0)) server.reportUncaught(e, kind);
      console.log(
        `tessera worker: running background jobs from ${config.redisUrl.replace(/\/\/[^@]*@/, '//***@')} (${server.host.status().filter((s) => s.state === 'started').length} extensions)`,
      );
      const stop = async () => {
        await server.close();
        process.exit(0);
      };
      process.once('SIGINT', () => void stop());
      process.once('SIGTERM', () => void stop());
      return;
    }
    case 'migrate': {
      const data = flag(args, '--data');
      await serverModules();
      const { loadConfig, createServer } = await import('../host/server/src/index.ts');
      const config = loadConfig({ root: ROOT, overrides: { dataDir: data, logLevel: 'warn' } });
      const server = await createServer(config);
      const failed = server.host.status().filter((s) => s.state === 'failed');
      await server.close();
      for (const f of failed) console.error(`extension '${f.id}': ${f.reason}`);
      console.log(
        failed.length
          ? 'migrations finished with failures'
          : `migrations are up to date (${config.databaseUrl ? 'PostgreSQL' : path.join(config.dataDir, 'tessera.db')})`,
      );
      process.exit(failed.length ? 1 : 0);
    }
    case 'format': {
      const { format } = await import('./lint.ts');
      process.exit(format() ? 0 : 1);
    }
    case 'lint': {
      const { lint } = await import('./lint.ts');
      process.exit((await lint()) ? 0 : 1);
    }
    case 'test': {
      const { runTests } = await import('./test.ts');
      process.exit(await runTests(args));
    }
    case 'coverage': {
      const { coverageCommand } = await import('./coverage.ts');
      process.exit(coverageCommand(args));
    }
    case 'bench': {
      const { runBench } = await import('./bench.ts');
      process.exit(await runBench(args));
    }
    case 'create-extension': {
      const { createExtension } = await import('./create-extension.ts');
      process.exit(await createExtension(args));
    }
    default:
      fail(`unknown command '${command}'. Run ./tessera help.`);
  }
}

main().catch((e) => {
  console.error(`tessera: ${e instanceof Error ? e.message : e}`);
  if (process.env.TESSERA_DEBUG) console.error(e);
  process.exit(1);
});
void existsSync;
