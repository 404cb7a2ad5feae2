// Lint: the import-boundary rule of the extension layout, Arco imported by component, then the type check.
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

const IMPORT = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;

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
      const bad = (from === 'shared' && (target === 'server' || target === 'client')) || (from === 'client' && target === 'server');
      if (bad) {
        const line = text.slice(0, m.index).split('\n').length + (text[m.index] === '\n' ? 1 : 0);
        problems.push({ file: path.relative(ROOT, file), line, specifier: spec, rule: `extension-layers: src/${from} must not import src/${target}` });
      }
    }
  }
  return problems;
}

const WHOLE_ARCO = /export\s+(?:type\s+)?(?:\*|\{[^}]*\})\s+from\s+['"](@arco-design\/web-react(?:\/icon)?)['"]|import\(\s*['"](@arco-design\/web-react(?:\/icon)?)['"]\s*\)/g;

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
      problems.push({ file: path.relative(ROOT, file), line, specifier: m[1] ?? m[2], rule: 'arco-by-component: import Arco components, then export them (a re-export or a dynamic import brings the whole kit without styles)' });
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
  const problems = [...checkBoundaries(sourceFiles()), ...checkArcoImports(sourceFiles(['extensions', 'examples', 'sdk/src', 'host/web/src', 'workflow-sdk/src']))];
  for (const p of problems) console.error(`${p.file}:${p.line}  ${p.rule} ('${p.specifier}')`);
  console.error(problems.length ? `lint: ${problems.length} import-boundary problem(s)` : 'lint: import boundaries ok');
  const tsc = spawnSync(process.execPath, [bin.tsc, '-p', 'tsconfig.json'], { cwd: ROOT, stdio: 'inherit' });
  console.error(tsc.status === 0 ? 'lint: types ok' : 'lint: type errors (see above)');
  return problems.length === 0 && tsc.status === 0;
}
