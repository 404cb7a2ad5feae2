// ./tessera test: lint, build what the tests drive, run every vitest project, and close with one
// plain summary line ("tests: N passed, N failed").
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
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
        FORCE_COLOR: process.env.CI ? '0' : process.env.FORCE_COLOR,
      },
    },
  );
  const counts = { passed: 0, failed: 0, skipped: 0 };
  const tally = (status: number | null) => {
    if (existsSync(report)) {
      const j = JSON.parse(readFileSync(report, 'utf8'));
      counts.passed += j.numPassedTests ?? 0;
      counts.failed += Math.max(j.numFailedTests ?? 0, j.numFailedTestSuites ?? 0);
      counts.skipped += (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0);
      // Unhandled errors fail the run without failing a test: count them so the summary says so.
      if (status !== 0 && !(j.numFailedTests || j.numFailedTestSuites)) counts.failed += 1;
    } else if (status !== 0) counts.failed += 1;
  };
  tally(r.status);
  let status = r.status ?? 1;
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
  for (const n of notRun) console.log(`tests: skipped ${n}`);
  console.log(`\ntest run took ${Math.round((Date.now() - started) / 1000)} s`);
  console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  if (status === 0 && passed === 0) {
    console.error('tests: no test ran');
    return 1;
  }
  return status;
}
