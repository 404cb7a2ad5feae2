// Builds the example extensions of examples/ with the SDK's build preset (as an outside author would).
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT, bin, newestMtime } from './paths.ts';

export function buildExample(dir: string, { force = false, quiet = true } = {}): void {
  // What the build writes: a server half, a client half, or both (as the sources say).
  const outputs = [
    existsSync(path.join(dir, 'src/server/index.ts')) && path.join(dir, 'dist/server/index.js'),
    existsSync(path.join(dir, 'src/client/index.tsx')) && path.join(dir, 'dist/client/remoteEntry.js'),
  ].filter((f): f is string => !!f);
  const srcs = [
    path.join(dir, 'src'),
    path.join(dir, 'package.json'),
    path.join(dir, 'rsbuild.config.ts'),
    path.join(ROOT, 'sdk/src'),
  ];
  if (
    !force &&
    outputs.every((f) => existsSync(f)) &&
    newestMtime(srcs) < Math.min(...outputs.map((f) => statSync(f).mtimeMs))
  )
    return;
  const r = spawnSync(process.execPath, [bin.rsbuild, 'build'], {
    cwd: dir,
    stdio: quiet ? 'pipe' : 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (r.status !== 0) {
    process.stderr.write(String(r.stdout ?? '') + String(r.stderr ?? ''));
    throw new Error(`building ${path.relative(ROOT, dir)} failed`);
  }
}

export function buildExamples(opts: { force?: boolean } = {}): string[] {
  const dir = path.join(ROOT, 'examples');
  if (!existsSync(dir)) return [];
  const built: string[] = [];
  for (const name of readdirSync(dir)) {
    const d = path.join(dir, name);
    if (!existsSync(path.join(d, 'rsbuild.config.ts'))) continue;
    buildExample(d, opts);
    built.push(d);
  }
  return built;
}
