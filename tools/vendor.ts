// Single-file copies of the server's many-file dependencies. Node loads an npm package module by module:
// kysely is 255 files, rxjs 223, inversify 230 with its @inversifyjs parts, and each file costs a
// module record, its source and its compiled code. Bundled into one file each they load in a tenth of
// the time and a fifth of the memory (figures in docs/benchmarks.md, startup). `./tessera build` and
// `start` make them when missing or stale; the server resolves the bare names to them through a module
// hook, so every importer (the host, extensions, runtime-loaded ones) shares the one copy.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './paths.ts';

/** Bare specifiers served from a bundle, and the package whose version keys it. */
const VENDORED: Record<string, { pkg: string; neutral?: boolean }> = {
  kysely: { pkg: 'kysely' },
  inversify: { pkg: 'inversify' },
  // Its "node" condition is CommonJS (no static exports to bundle); resolved without it, its ES build.
  rxjs: { pkg: 'rxjs', neutral: true },
};

const DIR = path.join(ROOT, 'node_modules/.tessera-vendor');
const MANIFEST = path.join(DIR, 'manifest.json');
const fileOf = (name: string) => path.join(DIR, `${name}.mjs`);

function versionOf(pkg: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(path.join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return undefined;
  }
}

/** What the bundles must have been made from: each package's installed version. */
function wanted(): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(VENDORED).map(([name, v]) => [name, versionOf(v.pkg)]));
}

interface Manifest {
  /** The installed versions the bundles were made from. */
  versions: Record<string, string | undefined>;
  /** The names bundled (a bundle that did not export what its package does is left out). */
  made: string[];
}

function manifest(): Manifest | undefined {
  try {
    return JSON.parse(readFileSync(MANIFEST, 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
}

function fresh(): boolean {
  const m = manifest();
  return !!m && JSON.stringify(m.versions) === JSON.stringify(wanted()) && m.made.every((name) => existsSync(fileOf(name)));
}

/**
 * Makes the bundles when missing or stale (in a child process, so that the one asking, often the server
 * about to start, never loads the packages as installed); false when they cannot be made (the server
 * then loads the packages as installed).
 */
export function buildVendor({ force = false, quiet = true } = {}): boolean {
  if (!force && fresh()) return true;
  const r = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', import.meta.filename, '--build'], { cwd: ROOT, stdio: quiet ? 'ignore' : 'inherit' });
  return r.status === 0 && fresh();
}

/** Bundles each package, then checks that the bundle exports what the package does (else leaves it out). */
async function build(): Promise<void> {
  const { rolldown } = await import('rolldown');
  mkdirSync(DIR, { recursive: true });
  const versions = wanted();
  const made: string[] = [];
  for (const [name, v] of Object.entries(VENDORED)) {
    if (!versions[name]) continue;
    const entry = `\0tessera-vendor:${name}`;
    const bundle = await rolldown({
      input: entry,
      cwd: ROOT,
      platform: v.neutral ? 'neutral' : 'node',
      logLevel: 'silent',
      ...(v.neutral ? { resolve: { conditionNames: ['import', 'default'], mainFields: ['module', 'main'] } } : {}),
      plugins: [{ name: 'entry', resolveId: (id) => (id === entry ? id : undefined), load: (id) => (id === entry ? `export * from '${name}';` : undefined) }],
    });
    const tmp = `${fileOf(name)}.tmp.mjs`;
    await bundle.write({ file: tmp, format: 'esm', minify: false });
    await bundle.close();
    const bundled = Object.keys(await import(pathToFileURL(tmp).href)).sort().join(',');
    const installed = Object.keys(await import(name)).filter((k) => !['default', 'module.exports', '__esModule'].includes(k)).sort().join(',');
    if (bundled !== installed) {
      console.warn(`tessera: the bundle of ${name} does not export what the package does; loading it as installed`);
      rmSync(tmp, { force: true });
      continue;
    }
    renameSync(tmp, fileOf(name));
    made.push(name);
  }
  writeFileSync(MANIFEST, JSON.stringify({ versions, made } satisfies Manifest));
  console.log(`tessera: bundled ${made.join(', ') || 'nothing'} for the server`);
}

if (process.argv[2] === '--build' && import.meta.filename === path.resolve(process.argv[1] ?? '')) await build();

let hooked = false;
/** Resolves the vendored names to their bundles, in this process, when the bundles are fresh. */
export function useVendor(): boolean {
  if (hooked) return true;
  if (!fresh()) return false;
  hooked = true;
  const made = manifest()!.made;
  const urls = new Map(made.map((name) => [name, pathToFileURL(fileOf(name)).href]));
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const url = urls.get(specifier);
      return url ? { url, format: 'module', shortCircuit: true } : nextResolve(specifier, context);
    },
  });
  return true;
}
