import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ROOT } from '../helpers.ts';

const base = path.join(ROOT, '.cache/scaffold-test');
afterAll(() => rmSync(base, { recursive: true, force: true }));

it('./tessera create-extension scaffolds an extension whose own tests pass', () => {
  rmSync(base, { recursive: true, force: true });
  mkdirSync(base, { recursive: true });
  const made = spawnSync(
    process.execPath,
    [path.join(ROOT, 'tools/cli.ts'), 'create-extension', 'sample-feature', '--dir', base],
    { cwd: ROOT, encoding: 'utf8' },
  );
  expect(made.status, made.stderr).toBe(0);
  const dir = path.join(base, 'sample-feature');
  const run = spawnSync(
    process.execPath,
    [path.join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--root', dir, '--reporter=dot'],
    {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, TESSERA_LOG_LEVEL: 'silent', FORCE_COLOR: '0' },
    },
  );
  expect(run.status, run.stdout + run.stderr).toBe(0);
  expect(run.stdout).toMatch(/3 passed/);
});
