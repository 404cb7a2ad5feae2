import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { typeAssertions } from '../type-assertions.ts';

// The studio's own source holds no more type assertions (`x as T`) than tests/budgets.json allows: each one is a
// place where the compiler takes the author's word, so the count only goes down. Lower the figure with a change
// that removes some.
const budgets = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../tests/budgets.json'), 'utf8')) as {
  typeAssertions: number;
};

describe('type assertions', () => {
  it('are no more than the budget', () => {
    const found = typeAssertions();
    const byFolder = new Map<string, number>();
    for (const a of found) {
      const folder = a.file
        .split('/')
        .slice(0, a.file.startsWith('extensions/') ? 2 : 1)
        .join('/');
      byFolder.set(folder, (byFolder.get(folder) ?? 0) + 1);
    }
    const most = [...byFolder]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8)
      .map(([f, n]) => `${f} ${n}`)
      .join(', ');
    expect(
      found.length,
      `${found.length} type assertions; the budget is ${budgets.typeAssertions} (tests/budgets.json). Most in: ${most}. Parse with a schema, narrow with a check, or type the value where it is made.`,
    ).toBeLessThanOrEqual(budgets.typeAssertions);
  });

  it('counts an assertion, not `as const`, an import alias or a word in a string', () => {
    const [a] = typeAssertions(['tools/test/fixtures/assertions.ts']);
    expect(typeAssertions(['tools/test/fixtures/assertions.ts']).map((x) => x.type)).toEqual(['string', 'number[]']);
    expect(a.line).toBe(4);
  });
});
