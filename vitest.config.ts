import { defineConfig } from 'vitest/config';

// Browser test files at once (each starts its own studio and Chromium): TESSERA_E2E_WORKERS, default 2. Two files
// at once on two cores take 0.6 of the time one at a time does; their polls wait on what a person would see, so a
// busy machine is slower, not red.
const e2eWorkers = Math.max(1, Number(process.env.TESSERA_E2E_WORKERS ?? 2) || 2);

// Projects: unit (node), client (happy-dom), host (real server on loopback), e2e (real Chromium).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
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
        },
      },
      {
        test: {
          name: 'host',
          environment: 'node',
          execArgv: ['--no-node-snapshot'],
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
          server: { deps: { external: [/\/dist\/server\/index\.js$/] } },
          include: ['tests/e2e/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // A page's first paint takes ~3 s on a cold 2-core machine (more when it is busy): polls wait for what
          // a person would wait for, checking every 100 ms, instead of vitest's 1 s default.
          expect: { poll: { timeout: 15_000, interval: 100 } },
          fileParallelism: e2eWorkers > 1,
          maxWorkers: e2eWorkers,
        },
      },
    ],
  },
});
