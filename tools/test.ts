// ./tessera test: lint, build what the tests drive, run every vitest project, and close with one
// plain summary line ("tests: N passed, N failed").
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT, bin } from './paths.ts';
import { buildExamples } from './examples.ts';
import { lint } from './lint.ts';
import { buildWeb } from './web-build.ts';

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
  const outDir = path.join(ROOT, 'test-results');
  mkdirSync(outDir, { recursive: true });
  const report = path.join(outDir, 'vitest.json');
  rmSync(report, { force: true });
  const r = spawnSync(process.execPath, [bin.vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...args], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, TESSERA_LOG_LEVEL: process.env.TESSERA_LOG_LEVEL ?? 'silent', FORCE_COLOR: process.env.CI ? '0' : process.env.FORCE_COLOR },
  });
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  if (existsSync(report)) {
    const j = JSON.parse(readFileSync(report, 'utf8'));
    passed = j.numPassedTests ?? 0;
    failed = j.numFailedTests ?? 0;
    skipped = (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0);
    if (j.numFailedTestSuites && !failed) failed = j.numFailedTestSuites;
  } else if (r.status !== 0) failed = 1;
  console.log(`\ntest run took ${Math.round((Date.now() - started) / 1000)} s`);
  console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  if (r.status === 0 && passed === 0) {
    console.error('tests: no test ran');
    return 1;
  }
  return r.status ?? 1;
}
