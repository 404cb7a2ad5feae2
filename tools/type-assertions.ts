// Counts the type assertions (`x as T`, `<T>x`; not `as const`) in the studio's own source: the budget test holds
// the count to tests/budgets.json, so it only goes down.
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { parseSync } from 'rolldown/utils';
import { ROOT } from './paths.ts';

/** Source files counted: what ships (tests, benchmarks, examples and the CLI are left out). */
export function sourceFiles(): string[] {
  return execFileSync('git', ['ls-files', '*.ts', '*.tsx'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f && !/(^|\/)test\/|^tests\/|^bench\/|\.test\.tsx?$|\.d\.ts$|^examples\/|^tools\//.test(f));
}

export interface Assertion {
  file: string;
  line: number;
  type: string;
}

/** Every type assertion in these files, with where it is and the type it asserts. */
export function typeAssertions(files = sourceFiles()): Assertion[] {
  const found: Assertion[] = [];
  for (const file of files) {
    const src = readFileSync(path.join(ROOT, file), 'utf8');
    const { program } = parseSync(file, src);
    const visit = (n: unknown): void => {
      if (!n || typeof n !== 'object') return;
      if (Array.isArray(n)) {
        for (const c of n) visit(c);
        return;
      }
      const node = n as { type?: string; start: number; typeAnnotation?: { start: number; end: number } };
      if ((node.type === 'TSAsExpression' || node.type === 'TSTypeAssertion') && node.typeAnnotation) {
        const type = src.slice(node.typeAnnotation.start, node.typeAnnotation.end);
        if (type !== 'const') found.push({ file, line: src.slice(0, node.start).split('\n').length, type });
      }
      for (const [k, v] of Object.entries(node)) if (k !== 'parent' && v && typeof v === 'object') visit(v);
    };
    visit(program);
  }
  return found;
}
