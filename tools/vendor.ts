// Single-file copies of the server's many-file dependencies. Node loads an npm package module by module:
// kysely is 255 files, rxjs 223, inversify 230 with its @inversifyjs parts, and each file costs a
// module record, its source and its compiled code. Bundled into one file each they load in a tenth of
// the time and a fifth of the memory (figures in docs/benchmarks.md, startup). `./tessera build` and
// `start` make them when missing or stale; the server resolves the bare names to them through a module
// hook, so every importer (the host, extensions, runtime-loaded ones) shares the one copy.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, registerHooks } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './paths.ts';

/**
 * Bundles: a name, the package whose version keys it, and the bare specifiers it serves (its entries; by default
 * the package's name alone). The entries of one bundle share its chunks, so a package imported by several
 * subpaths (zod, zod/v4, zod/v4/core ... from the AI SDK and the MCP SDK) is still one copy.
 */
const VENDORED: Record<string, { pkg: string; neutral?: boolean; entries?: string[]; commonjs?: boolean }> = {
  kysely: { pkg: 'kysely' },
  inversify: { pkg: 'inversify' },
  // Its "node" condition is CommonJS (no static exports to bundle); resolved without it, its ES build.
  rxjs: { pkg: 'rxjs', neutral: true },
  // 95 files at start as installed (18.8 MiB and 38 ms to import), 13 MiB and 20 ms bundled.
  zod: {
    pkg: 'zod',
    entries: [
      'zod',
      'zod/mini',
      'zod/v3',
      'zod/v4',
      'zod/v4-mini',
      'zod/v4/mini',
      'zod/v4/core',
      'zod/v4/locales/en.js',
    ],
  },
  // Required by Fastify as it loads: 47 files (6.6 MiB, 12 ms), one CommonJS file bundled (2.5 MiB, 3 ms).
  semver: { pkg: 'semver', commonjs: true },
};

const DIR = path.join(ROOT, 'node_modules/.tessera-vendor');
const MANIFEST = path.join(DIR, 'manifest.json');
const entriesOf = (name: string) => VENDORED[name]?.entries ?? [name];
/** The file serving one entry (a specifier) of a bundle. */
const fileOf = (name: string, entry = name) =>
  path.join(DIR, name, `${entry.replace(/[^\w.-]/g, '_')}.${VENDORED[name]?.commonjs ? 'cjs' : 'mjs'}`);

function versionOf(pkg: string): string | undefined {
  try {
    return (
      JSON.parse(readFileSync(path.join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }
    ).version;
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
  return (
    !!m &&
    JSON.stringify(m.versions) === JSON.stringify(wanted()) &&
    m.made.every((name) => entriesOf(name).every((e) => existsSync(fileOf(name, e))))
  );
}

/**
 * Makes the bundles when missing or stale (in a child process, so that the one asking, often the server
 * about to start, never loads the packages as installed); false when they cannot be made (the server
 * then loads the packages as installed).
 */
export function buildVendor({ force = false, quiet = true } = {}): boolean {
  if (!force && fresh()) return true;
  spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', import.meta.filename, '--build'], {
    cwd: ROOT,
    stdio: quiet ? 'ignore' : 'inherit',
  });
  // Fresh is what counts (another process building at the same time may have made them).
  return fresh();
}

/** Bundles each package, then checks that the bundle exports what the package does (else leaves it out). */
async function build(): Promise<void> {
  const { rolldown } = await import('rolldown');
  mkdirSync(DIR, { recursive: true });
  const versions = wanted();
  const made: string[] = [];
  for (const [name, v] of Object.entries(VENDORED)) {
    if (!versions[name]) continue;
    const entries = entriesOf(name);
    const input = Object.fromEntries(entries.map((e) => [e.replace(/[^\w.-]/g, '_'), `\0tessera-vendor:${e}`]));
    // An entry's default export goes along (zod/v4/locales/en.js is a function imported by default). A package
    // bundled from its ES build (neutral) is asked nothing: as installed, Node gives its CommonJS build.
    const withDefault = new Set<string>();
    if (!v.neutral && !v.commonjs) for (const e of entries) if ('default' in (await import(e))) withDefault.add(e);
    const source = (e: string) =>
      v.commonjs
        ? `module.exports = require('${e}');`
        : `export * from '${e}';${withDefault.has(e) ? ` export { default } from '${e}';` : ''}`;
    const ext = v.commonjs ? 'cjs' : 'mjs';
    const bundle = await rolldown({
      input,
      cwd: ROOT,
      platform: v.neutral ? 'neutral' : 'node',
      logLevel: 'silent',
      ...(v.neutral ? { resolve: { conditionNames: ['import', 'default'], mainFields: ['module', 'main'] } } : {}),
      plugins: [
        {
          name: 'entry',
          resolveId: (id) => (id.startsWith('\0tessera-vendor:') ? id : undefined),
          load: (id) => (id.startsWith('\0tessera-vendor:') ? source(id.slice('\0tessera-vendor:'.length)) : undefined),
        },
      ],
    });
    // A folder of this process's own: several processes may build at once (test files each starting a studio).
    const tmp = path.join(DIR, `${name}.tmp-${process.pid}`);
    rmSync(tmp, { recursive: true, force: true });
    await bundle.write({
      dir: tmp,
      format: v.commonjs ? 'cjs' : 'esm',
      minify: false,
      entryFileNames: `[name].${ext}`,
      chunkFileNames: `chunk-[hash].${ext}`,
    });
    await bundle.close();
    let same = true;
    const requireHere = createRequire(import.meta.url);
    for (const e of entries) {
      const file = path.join(tmp, `${e.replace(/[^\w.-]/g, '_')}.${ext}`);
      const bundled = Object.keys(v.commonjs ? requireHere(file) : await import(pathToFileURL(file).href))
        .sort()
        .join(',');
      const installed = Object.keys(v.commonjs ? requireHere(e) : await import(e))
        .filter((k) => !['module.exports', '__esModule'].includes(k) && (k !== 'default' || withDefault.has(e)))
        .sort()
        .join(',');
      if (bundled !== installed) {
        console.warn(`tessera: the bundle of ${e} does not export what the package does; loading ${name} as installed`);
        same = false;
        break;
      }
    }
    if (!same) {
      rmSync(tmp, { recursive: true, force: true });
      continue;
    }
    // Replaced whole: moved aside first, so a process reading the bundle finds the old folder or the new one.
    const old = path.join(DIR, `${name}.old-${process.pid}`);
    try {
      renameSync(path.join(DIR, name), old);
    } catch {
      /* none yet */
    }
    try {
      renameSync(tmp, path.join(DIR, name));
    } catch {
      // Another process put its own (the same bundle) there first.
      rmSync(tmp, { recursive: true, force: true });
    }
    rmSync(old, { recursive: true, force: true });
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
  const urls = new Map(
    made.flatMap((name) =>
      entriesOf(name).map(
        (e) =>
          [
            e,
            { url: pathToFileURL(fileOf(name, e)).href, format: VENDORED[name]?.commonjs ? 'commonjs' : 'module' },
          ] as const,
      ),
    ),
  );
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const to = urls.get(specifier);
      return to ? { ...to, shortCircuit: true } : nextResolve(specifier, context);
    },
  });
  return true;
}
