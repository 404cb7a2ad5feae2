// Lint: the import-boundary rules of the extension layout (layers; another extension only through its published
// entries and its manifest), Arco imported by component, oxlint (correctness, React hooks, type-aware rules),
// the formatter's check, then the type check.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT, bin } from './paths.ts';
import { generateBuiltinClients } from './web-build.ts';

export interface BoundaryProblem {
  file: string;
  line: number;
  specifier: string;
  rule: string;
}

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** The layer of a file inside an extension: src/shared, src/server or src/client. */
function layerOf(file: string): 'shared' | 'server' | 'client' | undefined {
  const m = /[\\/]src[\\/](shared|server|client)[\\/]/.exec(file);
  return m ? (m[1] as 'shared' | 'server' | 'client') : undefined;
}

/**
 * Rule "extension-layers": src/shared imports neither src/server nor src/client (nor the SDK's
 * server or client entry); src/client never imports src/server (nor @tessera/sdk/server).
 */
export function checkBoundaries(files: string[]): BoundaryProblem[] {
  const problems: BoundaryProblem[] = [];
  for (const file of files) {
    const from = layerOf(file);
    if (from !== 'shared' && from !== 'client') continue;
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2];
      let target: 'shared' | 'server' | 'client' | undefined;
      if (spec.startsWith('.')) target = layerOf(path.resolve(path.dirname(file), spec) + path.sep);
      else if (/^@tessera\/sdk\/server(\/|$)/.test(spec) || /^@tessera\/server(\/|$)/.test(spec)) target = 'server';
      else if (/^@tessera\/sdk\/client(\/|$)/.test(spec) || /^@tessera\/web(\/|$)/.test(spec)) target = 'client';
      else if (/^@tessera\/ext-[^/]+\/(server|client)/.test(spec)) target = /\/server/.test(spec) ? 'server' : 'client';
      const bad =
        (from === 'shared' && (target === 'server' || target === 'client')) ||
        (from === 'client' && target === 'server');
      if (bad) {
        const line = text.slice(0, m.index).split('\n').length + (text[m.index] === '\n' ? 1 : 0);
        problems.push({
          file: path.relative(ROOT, file),
          line,
          specifier: spec,
          rule: `extension-layers: src/${from} must not import src/${target}`,
        });
      }
    }
  }
  return problems;
}

const WHOLE_ARCO =
  /export\s+(?:type\s+)?(?:\*|\{[^}]*\})\s+from\s+['"](@arco-design\/web-react(?:\/icon)?)['"]|import\(\s*['"](@arco-design\/web-react(?:\/icon)?)['"]\s*\)/g;

/**
 * Rule "arco-by-component": the build rewrites `import { Button } from '@arco-design/web-react'` into the
 * component's module and its style (ARCO_IMPORTS); a re-export (`export { Button } from ...`) or a dynamic
 * `import('@arco-design/web-react')` is not rewritten and brings the whole kit, without styles. Import, then
 * export.
 */
export function checkArcoImports(files: string[]): BoundaryProblem[] {
  const problems: BoundaryProblem[] = [];
  for (const file of files) {
    if (!/\.(tsx?|jsx?|mjs)$/.test(file) || /[\\/]src[\\/]server[\\/]/.test(file)) continue;
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(WHOLE_ARCO)) {
      if (/^\s*export\s+type\b/.test(m[0])) continue; // types are erased
      const line = text.slice(0, m.index).split('\n').length;
      problems.push({
        file: path.relative(ROOT, file),
        line,
        specifier: m[1] ?? m[2],
        rule: 'arco-by-component: import Arco components, then export them (a re-export or a dynamic import brings the whole kit without styles)',
      });
    }
  }
  return problems;
}

const SHARED_WORKER_STATE =
  /\bvi\.(?:mock|doMock|stubEnv|stubGlobal|useFakeTimers)\s*\(|\bprocess\.env(?:\.\w+|\[[^\]]+\])\s*=(?!=)|\bdelete\s+process\.env\b/g;

/**
 * Rule "shared-worker": the host and browser suites run their files one after another in the same worker
 * (vitest `isolate: false`: the studio's modules are imported once per worker, not once per file). A file there
 * must leave nothing behind for the next: no module mocks, no stubbed globals or environment, no fake timers, no
 * writes to process.env (pass `env` to startStudio or to the child process instead).
 */
export function checkSharedWorkerTests(files: string[]): BoundaryProblem[] {
  const problems: BoundaryProblem[] = [];
  for (const file of files) {
    if (!/\.(tsx?|mts)$/.test(file)) continue;
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(SHARED_WORKER_STATE)) {
      problems.push({
        file: path.relative(ROOT, file),
        line: text.slice(0, m.index).split('\n').length,
        specifier: m[0].trim(),
        rule: 'shared-worker: host and browser test files share a worker; leave no mock, stub, fake timer or process.env write behind (pass env to startStudio)',
      });
    }
  }
  return problems;
}

interface ExtensionPackage {
  dir: string;
  name: string;
  id: string;
  requires: string[];
  optional: string[];
  exports: string[];
}

/** A manifest's link 'id' or 'id@range': the id. */
const idOf = (link: string) => link.replace(/@.*$/, '');

/** Every extension and example package under the given folders: its npm name, id, manifest links and published entries. */
export function extensionPackages(
  dirs = ['extensions', 'examples'].map((d) => path.join(ROOT, d)),
): ExtensionPackage[] {
  const out: ExtensionPackage[] = [];
  for (const d of dirs) {
    if (!existsSync(d)) continue;
    for (const name of readdirSync(d)) {
      const file = path.join(d, name, 'package.json');
      if (!existsSync(file)) continue;
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as {
        name: string;
        exports?: Record<string, string>;
        tessera?: { id?: string; requires?: string[]; optional?: string[] };
      };
      if (!pkg.tessera?.id) continue;
      out.push({
        dir: path.join(d, name),
        name: pkg.name,
        id: pkg.tessera.id,
        requires: (pkg.tessera.requires ?? []).map(idOf),
        optional: (pkg.tessera.optional ?? []).map(idOf),
        exports: Object.keys(pkg.exports ?? {}),
      });
    }
  }
  return out;
}

/**
 * Rule "extension-imports": an extension's source imports another extension only through an entry that package
 * publishes (its `exports`), and only an extension its manifest names: `requires` for any entry; `optional` for its
 * contract (`./shared`: tokens, schemas, events) or types alone (an optional extension may be absent: its views and
 * code are reached through a point).
 * Tests (outside src/) may import any published entry.
 */
export function checkExtensionImports(files: string[], packages = extensionPackages()): BoundaryProblem[] {
  const problems: BoundaryProblem[] = [];
  const byName = new Map(packages.map((p) => [p.name, p]));
  for (const file of files) {
    const owner = packages.find((p) => file.startsWith(p.dir + path.sep));
    if (!owner) continue;
    const inSrc = file.startsWith(path.join(owner.dir, 'src') + path.sep);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2];
      const hit = /^(@tessera\/ext-[^/]+)(\/.*)?$/.exec(spec);
      if (!hit) continue;
      const target = byName.get(hit[1]);
      if (!target || target === owner) continue;
      const entry = '.' + (hit[2] ?? '');
      const typeOnly = /^\s*(?:import|export)\s+type\b/.test(m[0]);
      let rule: string | undefined;
      if (!target.exports.includes(entry))
        rule = `extension-imports: '${entry}' is not an entry ${target.name} publishes (${target.exports.join(', ') || 'none'})`;
      else if (
        inSrc &&
        !owner.requires.includes(target.id) &&
        !(owner.optional.includes(target.id) && (typeOnly || entry === './shared'))
      )
        rule = owner.optional.includes(target.id)
          ? `extension-imports: '${target.id}' is optional for ${owner.id}: import its contract ('./shared') or types only, reach its views and code through a point`
          : `extension-imports: ${owner.id} does not name '${target.id}' in its manifest's requires`;
      if (rule) {
        const line = text.slice(0, m.index).split('\n').length + (text[m.index] === '\n' ? 1 : 0);
        problems.push({ file: path.relative(ROOT, file), line, specifier: spec, rule });
      }
    }
  }
  return problems;
}

export function sourceFiles(dirs = ['extensions', 'examples', 'sdk/src']): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    if (!existsSync(p)) return;
    for (const name of readdirSync(p)) {
      if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
      const full = path.join(p, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.(ts|tsx|js|mjs)$/.test(name)) out.push(full);
    }
  };
  dirs.forEach((d) => walk(path.join(ROOT, d)));
  return out;
}

export async function lint(): Promise<boolean> {
  generateBuiltinClients(); // the web host imports the generated table of built-in client halves
  const problems = [
    ...checkBoundaries(sourceFiles()),
    ...checkExtensionImports(sourceFiles(['extensions', 'examples'])),
    ...checkArcoImports(sourceFiles(['extensions', 'examples', 'sdk/src', 'host/web/src', 'workflow-sdk/src'])),
    ...checkSharedWorkerTests(sourceFiles(['tests'])),
  ];
  for (const p of problems) console.error(`${p.file}:${p.line}  ${p.rule} ('${p.specifier}')`);
  console.error(problems.length ? `lint: ${problems.length} import-boundary problem(s)` : 'lint: import boundaries ok');
  // oxlint: correctness, the React hooks rules and the type-aware rules (.oxlintrc.json).
  const ox = spawnSync(process.execPath, [bin.oxlint, '--type-aware', '--quiet'], { cwd: ROOT, stdio: 'inherit' });
  console.error(ox.status === 0 ? 'lint: oxlint ok' : 'lint: oxlint found problems (see above)');
  // The formatter's check (.prettierrc.json): `./tessera format` rewrites what differs.
  const fmt = spawnSync(
    process.execPath,
    [
      bin.prettier,
      '--check',
      '--log-level',
      'warn',
      '--cache',
      '--cache-location',
      path.join(ROOT, '.cache/prettier'),
      '.',
    ],
    { cwd: ROOT, stdio: 'inherit' },
  );
  console.error(
    fmt.status === 0 ? 'lint: formatting ok' : 'lint: files not formatted (listed above); ./tessera format fixes them',
  );
  const tsc = spawnSync(process.execPath, [bin.tsc, '-p', 'tsconfig.json'], { cwd: ROOT, stdio: 'inherit' });
  console.error(tsc.status === 0 ? 'lint: types ok' : 'lint: type errors (see above)');
  return problems.length === 0 && ox.status === 0 && fmt.status === 0 && tsc.status === 0;
}

/** `./tessera format`: the formatter over the tree (what `lint` checks). */
export function format(): boolean {
  const r = spawnSync(
    process.execPath,
    [
      bin.prettier,
      '--write',
      '--log-level',
      'warn',
      '--cache',
      '--cache-location',
      path.join(ROOT, '.cache/prettier'),
      '.',
    ],
    { cwd: ROOT, stdio: 'inherit' },
  );
  return r.status === 0;
}
