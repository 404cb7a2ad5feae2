// The packages an outside author installs: @tessera/core, @tessera/sdk and @tessera/workflow-sdk built to
// JavaScript with .d.ts (TypeScript's own emit) and packed with npm pack into dist/packages/.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT, bin, newestMtime } from './paths.ts';

export const PACKAGES_DIR = path.join(ROOT, 'dist/packages');

interface Spec {
  dir: string;
  /** Files beside the sources copied as they are (src/x.mjs -> dist/x.mjs). */
  copy?: string[];
  /** Source files left out of the package (the SDK's host tester needs the whole studio). */
  exclude?: string[];
  /** Export subpaths left out. */
  dropExports?: string[];
  peerDependencies?: Record<string, string>;
  peerOptional?: string[];
}

const webDeps = (names: string[]) => {
  const web = JSON.parse(readFileSync(path.join(ROOT, 'host/web/package.json'), 'utf8')).dependencies;
  return Object.fromEntries(names.map((n) => [n, web[n]]));
};
const rootDevDeps = (names: string[]) => {
  const root = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).devDependencies;
  return Object.fromEntries(names.map((n) => [n, root[n]]));
};

const SPECS: Spec[] = [
  { dir: 'core' },
  // The studio's server host: what @tessera/sdk/testing's createExtensionTester starts (in process, in-memory
  // SQLite), so that an outside author tests a server half as the built-in extensions are tested.
  { dir: 'host/server', copy: ['src/bulk-writer-worker.mjs'], dropExports: ['./main'] },
  {
    dir: 'sdk',
    // The client renderer needs the whole web studio; the server tester needs @tessera/server (packed above).
    exclude: ['src/testing/client.tsx'],
    dropExports: ['./testing/client'],
    // What the client half and the build preset use, provided by the author's project (and shared with the studio's page).
    peerDependencies: {
      '@tessera/server': '0.1.0',
      ...webDeps([
        'react',
        'react-dom',
        '@arco-design/web-react',
        '@tanstack/react-query',
        'react-router',
        'i18next',
        'react-i18next',
      ]),
      ...rootDevDeps(['@rsbuild/core', '@rsbuild/plugin-react', '@module-federation/rsbuild-plugin']),
    },
    peerOptional: [
      'react',
      'react-dom',
      '@arco-design/web-react',
      '@tanstack/react-query',
      'react-router',
      'i18next',
      'react-i18next',
      '@rsbuild/core',
      '@rsbuild/plugin-react',
      '@module-federation/rsbuild-plugin',
      '@tessera/server',
    ],
  },
  { dir: 'workflow-sdk', peerOptional: ['react'] },
];

/** Rewrites `./x.ts` specifiers of emitted declarations to `./x.js` (the JavaScript beside them). */
function fixDeclarations(dir: string): void {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) fixDeclarations(file);
    else if (name.endsWith('.d.ts'))
      writeFileSync(
        file,
        readFileSync(file, 'utf8').replace(/(from\s+|import\(\s*)(['"])(\.{1,2}\/[^'"]+)\.tsx?\2/g, '$1$2$3.js$2'),
      );
  }
}

function packOne(spec: Spec, quiet: boolean): string {
  const src = path.join(ROOT, spec.dir);
  const pkg = JSON.parse(readFileSync(path.join(src, 'package.json'), 'utf8'));
  const stage = path.join(PACKAGES_DIR, '.stage', spec.dir);
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });
  // The project's compiler settings, emitting this package's sources (in the checkout, so that types resolve).
  const tsconfig = path.join(ROOT, 'dist/packages/.stage', `tsconfig.${spec.dir.replace(/\//g, '-')}.json`);
  writeFileSync(
    tsconfig,
    JSON.stringify({
      extends: path.join(ROOT, 'tsconfig.json'),
      compilerOptions: {
        noEmit: false,
        declaration: true,
        outDir: path.join(stage, 'dist'),
        rootDir: path.join(src, 'src'),
        rewriteRelativeImportExtensions: true,
        allowImportingTsExtensions: true,
      },
      include: [path.join(src, 'src')],
      exclude: (spec.exclude ?? []).map((e) => path.join(src, e)),
    }),
  );
  const tsc = spawnSync(process.execPath, [bin.tsc, '-p', tsconfig], { cwd: ROOT, encoding: 'utf8' });
  if (tsc.status !== 0) throw new Error(`building ${spec.dir} failed:\n${tsc.stdout}${tsc.stderr}`);
  fixDeclarations(path.join(stage, 'dist'));
  for (const f of spec.copy ?? [])
    writeFileSync(path.join(stage, f.replace(/^src\//, 'dist/')), readFileSync(path.join(src, f)));
  const exportsOut: Record<string, { types: string; default: string }> = {};
  for (const [sub, file] of Object.entries(pkg.exports as Record<string, string>)) {
    if (spec.dropExports?.includes(sub)) continue;
    const js = String(file)
      .replace(/^\.\/src\//, './dist/')
      .replace(/\.tsx?$/, '.js');
    exportsOut[sub] = { types: js.replace(/\.js$/, '.d.ts'), default: js };
  }
  const { private: _p, exports: _e, ...rest } = pkg;
  const peers = { ...pkg.peerDependencies, ...spec.peerDependencies };
  const out = {
    ...rest,
    exports: exportsOut,
    files: ['dist'],
    ...(Object.keys(peers).length
      ? {
          peerDependencies: peers,
          peerDependenciesMeta: Object.fromEntries(
            (spec.peerOptional ?? []).filter((p) => p in peers).map((p) => [p, { optional: true }]),
          ),
        }
      : {}),
  };
  writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(out, null, 2)}\n`);
  writeFileSync(
    path.join(stage, 'README.md'),
    `# ${pkg.name}\n\n${pkg.description ?? ''}\n\nPart of Tessera Studio; see docs/extension-authoring.md in the studio for how to write, test, build and install an extension.\n`,
  );
  const packed = spawnSync('npm', ['pack', '--pack-destination', PACKAGES_DIR, '--loglevel=error'], {
    cwd: stage,
    encoding: 'utf8',
    env: process.env,
  });
  if (packed.status !== 0) throw new Error(`npm pack of ${spec.dir} failed:\n${packed.stdout}${packed.stderr}`);
  const file = path.join(PACKAGES_DIR, packed.stdout.trim().split('\n').at(-1)!);
  if (!quiet) console.log(`tessera: packed ${path.relative(ROOT, file)}`);
  return file;
}

/** Packs the author packages when their sources changed; returns the tarballs by package name. */
export function packPackages({ force = false, quiet = true } = {}): Record<string, string> {
  mkdirSync(path.join(PACKAGES_DIR, '.stage'), { recursive: true });
  const out: Record<string, string> = {};
  for (const spec of SPECS) {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, spec.dir, 'package.json'), 'utf8'));
    const tarball = path.join(PACKAGES_DIR, `${pkg.name.replace(/^@/, '').replace('/', '-')}-${pkg.version}.tgz`);
    const fresh =
      existsSync(tarball) &&
      newestMtime([
        path.join(ROOT, spec.dir, 'src'),
        path.join(ROOT, spec.dir, 'package.json'),
        path.join(ROOT, 'tools/pack.ts'),
      ]) < statSync(tarball).mtimeMs;
    out[pkg.name] = force || !fresh ? packOne(spec, quiet) : tarball;
  }
  return out;
}
