// ./tessera test: lint, build what the tests drive, run every vitest project, and close with one
// plain summary line ("tests: N passed, N failed").
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { stripVTControlCharacters } from 'node:util';
import { ROOT, bin } from './paths.ts';
import { buildExamples } from './examples.ts';
import { lint } from './lint.ts';
import { buildWeb } from './web-build.ts';
import { buildVendor } from './vendor.ts';
import { SUMMARY as COVERAGE_SUMMARY, checkCoverage } from './coverage.ts';

/**
 * Host-level tests that use no database of the studio's (the scaffolder, an author's package built and tested with
 * npm, the sandbox's process limits): the PostgreSQL pass leaves them out, since they would only run again.
 */
const SQLITE_ONLY = [
  'tests/host/scaffold.test.ts',
  'tests/host/out-of-tree-author.test.ts',
  'tests/host/containment.test.ts',
];

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
  // A vitest run of its own; `quiet`: its output is kept and handed back instead of printed as it comes.
  const vitest = (args: string[], file: string, env: Record<string, string>, quiet: boolean) =>
    new Promise<{ status: number | null; report: string; output?: string }>((resolve) => {
      rmSync(file, { force: true });
      const command: [string, ...string[]] = [
        process.execPath,
        bin.vitest,
        'run',
        ...args,
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${file}`,
      ];
      const [program, ...argv] = command;
      const child = spawn(program, argv, {
        cwd: ROOT,
        stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
        env: {
          ...process.env,
          TESSERA_LOG_LEVEL: process.env.TESSERA_LOG_LEVEL ?? 'silent',
          TESSERA_CHECK_RESPONSES: '1',
          FORCE_COLOR: process.env.CI ? '0' : process.env.FORCE_COLOR,
          ...env,
        },
      });
      const chunks: Buffer[] = [];
      child.stdout?.on('data', (c: Buffer) => chunks.push(c));
      child.stderr?.on('data', (c: Buffer) => chunks.push(c));
      child.on('close', (code) =>
        resolve({ status: code, report: file, output: quiet ? Buffer.concat(chunks).toString('utf8') : undefined }),
      );
    });
  mkdirSync(outDir, { recursive: true });
  const counts = { passed: 0, failed: 0, skipped: 0 };
  const skippedTests = new Set<string>();
  const failedTests: string[] = [];
  const tally = (status: number | null, file: string) => {
    if (existsSync(file)) {
      const j = JSON.parse(readFileSync(file, 'utf8'));
      counts.passed += j.numPassedTests ?? 0;
      // Failed tests; a file that failed without a test failing (it did not load) counts once per failed suite.
      counts.failed += j.numFailedTests || j.numFailedTestSuites || 0;
      counts.skipped += (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0);
      for (const file of j.testResults ?? [])
        for (const t of file.assertionResults ?? [])
          if (t.status === 'pending' || t.status === 'skipped' || t.status === 'todo')
            skippedTests.add(`${path.relative(ROOT, file.name)} > ${t.fullName ?? t.title}`);
          else if (t.status === 'failed')
            failedTests.push(failureLine(file.name, t.fullName ?? t.title, t.failureMessages));
      // A file that failed to load, or failed outside its tests (a hook), has no failed test to name.
      for (const file of j.testResults ?? [])
        if (
          file.status === 'failed' &&
          !(file.assertionResults ?? []).some((t: { status: string }) => t.status === 'failed')
        )
          failedTests.push(failureLine(file.name, '(the file)', [file.message]));
      // Unhandled errors fail the run without failing a test: count them so the summary says so.
      if (status !== 0 && !(j.numFailedTests || j.numFailedTestSuites)) counts.failed += 1;
    } else if (status !== 0) counts.failed += 1;
  };
  let status = 0;
  const settle = (pass: { status: number | null; report: string }) => {
    tally(pass.status, pass.report);
    if (pass.status !== 0) status = pass.status ?? 1;
  };
  const printed = (pass: { output?: string; title: string }) => {
    if (pass.output !== undefined) process.stdout.write(`\ntests: ${pass.title}\n${pass.output}`);
  };
  const onPg = !filtered && !!process.env.TESSERA_TEST_DATABASE_URL;
  const underLoad = !filtered && (process.env.TESSERA_TEST_UNDER_LOAD ?? (process.env.CI ? '1' : '0')) === '1';
  const stressNg = underLoad ? findOnPath('stress-ng') : undefined;
  // The passes, at once. (1) Every project on SQLite, with line coverage (checked against the floors after); its
  // output is printed as it comes. (2) In CI (or with TESSERA_TEST_UNDER_LOAD=1) the browser suite a second time,
  // under load. (3) With TESSERA_TEST_DATABASE_URL (CI starts a server) the host-level suite on PostgreSQL. The
  // output of (2) and (3) is printed when each is done.
  // The browser pass's load is work, not heat: the other passes keep every core busy beside it, at the same
  // priority, while they run, and stress-ng (--cpu with the machine's cores) from when they are done until it ends.
  // Its polls wait on what a person would wait for, never a fixed time, so a machine busy with other work passes
  // too. Run after the first pass, beside stress-ng alone, it took 452 s of an 18.5-minute CI run, with half of the
  // cores turning stress-ng's loops.
  type Pass = Awaited<ReturnType<typeof vitest>> & { title: string };
  const passes: Promise<Pass>[] = [];
  let loadPass: Promise<Pass> | undefined;
  if (underLoad && stressNg) {
    const title = `the browser suite again under load (the other passes beside it, then stress-ng --cpu ${availableParallelism()})`;
    console.log(`\ntests: ${title}; its output when it is done`);
    loadPass = vitest(['--project', 'e2e'], path.join(outDir, 'vitest-under-load.json'), {}, true).then((r) => ({
      ...r,
      title,
    }));
    passes.push(loadPass);
  }
  if (onPg) {
    const title = 'the host-level suite on PostgreSQL';
    console.log(`\ntests: ${title}; its output when it is done`);
    passes.push(
      vitest(
        ['--project', 'host', ...SQLITE_ONLY.flatMap((f) => ['--exclude', f])],
        path.join(outDir, 'vitest-postgres.json'),
        { TESSERA_HOST_TESTS_ON_PG: '1' },
        true,
      ).then((r) => ({ ...r, title })),
    );
  }
  const coverage = !filtered;
  if (coverage) rmSync(path.dirname(COVERAGE_SUMMARY), { recursive: true, force: true });
  const first = vitest(coverage ? [...args, '--coverage'] : args, path.join(outDir, 'vitest.json'), {}, false);
  if (loadPass && stressNg) keepBusy(stressNg, Promise.all([first, ...passes.filter((p) => p !== loadPass)]), loadPass);
  settle(await first);
  let coverageNote: string | undefined;
  if (coverage) {
    if (!existsSync(COVERAGE_SUMMARY))
      coverageNote = 'coverage: no report (a test failed; vitest reports coverage of a green run)';
    else {
      const check = checkCoverage();
      coverageNote = `coverage: ${check.totalPct.toFixed(1)} % of lines; tests/coverage-floors.json holds`;
      if (check.below.length) {
        coverageNote = check.below.map((b) => `coverage: ${b}`).join('\n');
        counts.failed += check.below.length;
        status = 1;
      } else if (check.raisable.length)
        coverageNote += `; ${check.raisable.length} above their floors by 2 points or more (./tessera coverage --raise): ${check.raisable.slice(0, 5).join(', ')}${check.raisable.length > 5 ? ' ...' : ''}`;
    }
  }
  for (const pass of await Promise.all(passes)) {
    printed(pass);
    settle(pass);
  }
  if (coverageNote) console.log(`\n${coverageNote}`);
  const { passed, failed, skipped } = counts;
  // What did not run, and why (a plain run on a machine without the servers CI starts).
  const notRun: string[] = [];
  if (onPg)
    notRun.push(
      `on PostgreSQL, ${SQLITE_ONLY.map((f) => path.basename(f)).join(', ')} (they use no database of the studio's: run once, on SQLite)`,
    );
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
  // The failures again, last, so that the end of a long log (all CI keeps of it) says what failed and why.
  for (const f of failedTests) console.log(`tests: failed ${f}`);
  console.log(`\ntest run took ${Math.round((Date.now() - started) / 1000)} s`);
  console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  if (status === 0 && passed === 0) {
    console.error('tests: no test ran');
    return 1;
  }
  return status;
}

/** One failed test as a line: its file, its name, its message and where in the project it failed, colours stripped. */
function failureLine(file: string, name: string, messages: unknown): string {
  const lines = stripVTControlCharacters(Array.isArray(messages) ? String(messages[0] ?? '') : '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const message = lines.filter((l) => !l.startsWith('at ')).slice(0, 2);
  const where = lines.find((l) => l.startsWith('at ') && !l.includes('node_modules'));
  const text = [...message, ...(where ? [where.replace(`${ROOT}/`, '')] : [])].join(' | ').slice(0, 600);
  return `${path.relative(ROOT, file)} > ${name}${text ? `: ${text}` : ''}`;
}

/**
 * stress-ng keeping every core busy from when `others` are done until `pass` is, if it is not yet: the rest of the
 * load the browser pass runs under.
 */
function keepBusy(stressNg: string, others: Promise<unknown>, pass: Promise<unknown>): void {
  let done = false;
  let stress: ReturnType<typeof spawn> | undefined;
  void pass.finally(() => {
    done = true;
    stress?.kill('SIGTERM');
  });
  void others.then(() => {
    if (done) return;
    stress = spawn(stressNg, ['--cpu', String(availableParallelism()), '--timeout', '3600s', '--quiet'], {
      stdio: 'ignore',
    });
  });
}

/** The path of a command on PATH, or undefined. */
function findOnPath(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const full = path.join(dir, command);
    if (dir && existsSync(full)) return full;
  }
  return undefined;
}
