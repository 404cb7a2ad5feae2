import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const bin = {
  rsbuild: path.join(ROOT, 'node_modules/@rsbuild/core/bin/rsbuild.js'),
  vitest: path.join(ROOT, 'node_modules/vitest/vitest.mjs'),
  tsc: path.join(ROOT, 'node_modules/typescript/bin/tsc'),
  oxlint: path.join(ROOT, 'node_modules/oxlint/bin/oxlint'),
  prettier: path.join(ROOT, 'node_modules/prettier/bin/prettier.cjs'),
};

/** Newest modification time of any file below the given paths (folders are walked; node_modules and dist skipped). */
export function newestMtime(paths: string[]): number {
  let newest = 0;
  const walk = (p: string) => {
    if (!existsSync(p)) return;
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const name of readdirSync(p)) {
        if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
        walk(path.join(p, name));
      }
    } else newest = Math.max(newest, st.mtimeMs);
  };
  paths.forEach(walk);
  return newest;
}
