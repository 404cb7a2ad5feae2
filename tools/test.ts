// ./tessera test: lint, build what the tests drive, run every vitest project, and close with one
// plain summary line ("tests: N passed, N failed").
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { ROOT, bin } from './paths.ts';
import { buildExamples } from './examples.ts';
import { lint } from './lint.ts';
import { buildWeb } from './web-build.ts';
import { buildVendor } from './vendor.ts';

export async function runTests(args: string[]): Promise<number> {
  const started = Date.now();
  const filtered = args.length > 0;
  if (!filtered) {
    if (!(await lint())) {
      console.error('tests: lint failed; fix it first (./tessera lint)');
      return 1;
    }
  }
  buildWeb({ quiet: true });
  buildExamples();
  // The server's bundled dependencies, made once here: the test files that start a real studio would otherwise
  // each make them at once.
  buildVendor();
  const outDir = path.join(ROOT, 'test-results');
  mkdirSync(outDir, { recursive: true });
  const report = path.join(outDir, 'vitest.json');
  rmSync(report, { force: true });
  const r = spawnSync(
    process.execPath,
    [bin.vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...args],
    {
      cwd: ROOT,
      stdio: 'inherit',
      env: {
        ...process.env,
        TESSERA_LOG_LEVEL: process.env.TESSERA_LOG_LEVEL ?? 'silent',
        TESSERA_CHECK_RESPONSES: '1',
        FORCE_COLOR: process.env.CI ? '0' : process.env.FORCE_COLOR,
      },
    },
  );
  const counts = { passed: 0, failed: 0, skipped: 0 };
  const skippedTests = new Set<string>();
  const tally = (status: number | null) => {
    if (existsSync(report)) {
      const j = JSON.parse(readFileSync(report, 'utf8'));
      counts.passed += j.numPassedTests ?? 0;
      // Failed tests; a file that failed without a test failing (it did not load) counts once per failed suite.
      counts.failed += j.numFailedTests || j.numFailedTestSuites || 0;
      counts.skipped += (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0);
      for (const file of j.testResults ?? [])
        for (const t of file.assertionResults ?? [])
          if (t.status === 'pending' || t.status === 'skipped' || t.status === 'todo')
            skippedTests.add(`${path.relative(ROOT, file.name)} > ${t.fullName ?? t.title}`);
      // Unhandled errors fail the run without failing a test: count them so the summary says so.
      if (status !== 0 && !(j.numFailedTests || j.numFailedTestSuites)) counts.failed += 1;
    } else if (status !== 0) counts.failed += 1;
  };
  tally(r.status);
  let status = r.status ?? 1;
  // The browser suite again with the CPU busy (CI): polls wait on what a person would wait for, never a fixed
  // time, so a machine busy with other work passes too. stress-ng keeps every core busy for the whole pass.
  const underLoad = !filtered && (process.env.TESSERA_TEST_UNDER_LOAD ?? (process.env.CI ? '1' : '0')) === '1';
  const stressNg = underLoad ? findOnPath('stress-ng') : undefined;
  if (underLoad && stressNg) {
    const cpus = String(availableParallelism());
    console.log(`\ntests: the browser suite again under load (stress-ng --cpu ${cpus})`);
    const stress = spawn(stressNg, ['--cpu', cpus, '--timeout', '1800s', '--quiet'], { stdio: 'ignore' });
    rmSync(report, { force: true });
    const e2e = spawnSync(
      process.execPath,
      [bin.vitest, 'run', '--project', 'e2e', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
      {
        cwd: ROOT,
        stdio: 'inherit',
        env: {
          ...process.env,
          TESSERA_LOG_LEVEL: process.env.TESSERA_LOG_LEVEL ?? 'silent',
          TESSERA_CHECK_RESPONSES: '1',
          FORCE_COLOR: process.env.CI ? '0' : process.env.FORCE_COLOR,
        },
      },
    );
    stress.kill('SIGTERM');
    tally(e2e.status);
    if (e2e.status !== 0) status = e2e.status ?? 1;
  }
  // The PostgreSQL run: the host-level suite again, each studio on its own PostgreSQL database.
  if (!filtered && process.env.TESSERA_TEST_DATABASE_URL) {
    console.log('\ntests: host-level suite on PostgreSQL');
    rmSync(report, { force: true });
    const pg = spawnSync(
      process.execPath,
      [bin.vitest, 'run', '--project', 'host', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
      {
        cwd: ROOT,
        stdio: 'inherit',
        env: {
          ...process.env,
          TESSERA_LOG_LEVEL: process.env.TESSERA_LOG_LEVEL ?? 'silent',
          TESSERA_CHECK_RESPONSES: '1',
          TESSERA_HOST_TESTS_ON_PG: '1',
          FORCE_COLOR: process.env.CI ? '0' : process.env.FORCE_COLOR,
        },
      },
    );
    tally(pg.status);
    if (pg.status !== 0) status = pg.status ?? 1;
  }
  const { passed, failed, skipped } = counts;
  // What did not run, and why (a plain run on a machine without the servers CI starts).
  const notRun: string[] = [];
  if (!filtered && !process.env.TESSERA_TEST_DATABASE_URL)
    notRun.push('the host-level suite on PostgreSQL (TESSERA_TEST_DATABASE_URL is not set; .ci/run starts a server)');
  if (!process.env.TESSERA_TEST_REDIS_URL)
    notRun.push(
      'the scale-out suite on Redis with a worker process (TESSERA_TEST_REDIS_URL is not set; .ci/run starts a server)',
    );
  if (!filtered && !underLoad)
    notRun.push('the browser suite under load (runs in CI; TESSERA_TEST_UNDER_LOAD=1 runs it here)');
  else if (underLoad && !stressNg)
    notRun.push('the browser suite under load (stress-ng is not installed; .ci/run installs it)');
  for (const n of notRun) console.log(`tests: skipped ${n}`);
  // Tests that skipped themselves (a machine that does not allow what they need, e.g. mounting a file system).
  for (const t of skippedTests) console.log(`tests: skipped ${t}`);
  console.log(`\ntest run took ${Math.round((Date.now() - started) / 1000)} s`);
  console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  if (status === 0 && passed === 0) {
    console.error('tests: no test ran');
    return 1;
  }
  return status;
}

/** The path of a command on PATH, or undefined. */
function findOnPath(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const full = path.join(dir, command);
    if (dir && existsSync(full)) return full;
  }
  return undefined;
}
