import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Test files at once, in every project: TESSERA_TEST_WORKERS, default the machine's cores (at least 2). vitest's
// own default is one fewer than the cores, and a project whose files run one at a time runs after the others, so
// on two cores the host and unit files ran one by one after the browser files (168 s at two at once, 262 s at one).
// Browser files (each starts its own studio and Chromium) two at a time on two cores take 0.6 of the time one at a
// time does; three at a time take no less than two. Their polls wait on what a person would see, so a busy machine
// is slower, not red. Every project shares the number: vitest runs projects of one number side by side.
const workers = Math.max(1, Number(process.env.TESSERA_TEST_WORKERS) || Math.max(2, availableParallelism()));

// Projects: unit (node), client (happy-dom), host (real server on loopback), e2e (real Chromium).
export default defineConfig({
  test: {
    maxWorkers: workers,
    // `--coverage` (./tessera test's full run): line coverage of the studio's own code, per folder against
    // tests/coverage-floors.json (tools/coverage.ts).
    coverage: {
      provider: 'v8',
      include: [
        'core/src/**',
        'sdk/src/**',
        'workflow-sdk/src/**',
        'host/server/src/**',
        'host/web/src/**',
        'extensions/*/src/**',
      ],
      exclude: ['**/*.d.ts', '**/locales/**'],
      reporter: ['json-summary'],
      reportsDirectory: 'test-results/coverage',
    },
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          // Files run one after another in a worker that keeps its modules: importing the studio's modules once per
          // worker instead of once per file took the project from 58 s (109 CPU-seconds) to 23 s (35) here.
          isolate: false,
          setupFiles: ['tests/unit-setup.ts'],
          // isolated-vm (the code node) needs it on Node 20 and later.
          execArgv: ['--no-node-snapshot'],
          include: [
            'core/test/**/*.test.ts',
            'sdk/test/**/*.test.ts',
            'workflow-sdk/test/**/*.test.ts',
            'host/server/test/**/*.test.ts',
            'extensions/*/test/**/*.test.ts',
            'tools/test/**/*.test.ts',
          ],
          exclude: ['**/*.client.test.tsx', '**/node_modules/**'],
        },
      },
      {
        test: {
          name: 'client',
          environment: 'happy-dom',
          include: ['**/test/**/*.client.test.tsx'],
          exclude: ['**/node_modules/**'],
          // As the unit project: one worker's modules serve its files in turn (37 s and 69 CPU-seconds isolated,
          // 7 s and 10 so); React, Arco and the SDK are imported once per worker instead of once per file.
          isolate: false,
          setupFiles: ['tests/unit-setup.ts', 'tests/client-setup.ts'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'host',
          environment: 'node',
          execArgv: ['--no-node-snapshot'],
          // Files run one after another in a worker that keeps its modules (the studio's server, imported once per
          // worker instead of once per file: the host suite took 127 s isolated and 67 s so). Each file starts its
          // own studio; what a file could leave behind for the next (module mocks, stubs, fake timers, process.env
          // writes) is refused by ./tessera lint (shared-worker).
          isolate: false,
          // Runtime-loaded extensions are built bundles: Node imports them as the studio does.
          server: { deps: { external: [/\/dist\/server\/index\.js$/] } },
          include: ['tests/host/**/*.test.ts'],
          testTimeout: 60_000,
          expect: { poll: { timeout: 10_000, interval: 50 } },
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          execArgv: ['--no-node-snapshot'],
          // As the host suite: one worker's modules serve its files in turn.
          isolate: false,
          server: { deps: { external: [/\/dist\/server\/index\.js$/] } },
          include: ['tests/e2e/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // A page's first paint takes ~3 s on a cold 2-core machine (more when it is busy): polls wait for what
          // a person would wait for, checking every 100 ms, instead of vitest's 1 s default.
          expect: { poll: { timeout: 15_000, interval: 100 } },
        },
      },
    ],
  },
});
