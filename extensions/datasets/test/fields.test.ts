import { describe, expect, it } from 'vitest';
import { checkData } from '../src/server/store.ts';
import { readRows } from '../src/server/io.ts';
import type { Field } from '../src/shared/api.ts';

const f = (name: string, type: Field['type'], required = false): Field => ({ name, type, required, description: '' });
const fields = [f('q', 'text', true), f('n', 'number'), f('img', 'image'), f('meta', 'json'), f('chat', 'messages')];

// An item's values as a dataset keeps them, and a file's rows as an import reads them.
describe('dataset items', () => {
  it('converts values to their field types, and says what is wrong with one that does not convert', () => {
    expect(checkData(fields, { q: 'hi', n: ' 4 ', meta: '{"a":1}', chat: [{ role: 'user', content: 'x' }] })).toEqual({
      data: { q: 'hi', n: 4, img: null, meta: { a: 1 }, chat: [{ role: 'user', content: 'x' }] },
    });
    expect(checkData(fields, { n: 1 })).toEqual({ problem: { field: 'q', message: 'q is required.' } });
    expect(checkData(fields, { q: 'x', img: 'javascript:alert(1)' })).toEqual({
      problem: { field: 'img', message: 'img is an http(s) address of the image.' },
    });
    expect(checkData(fields, { q: 'x', chat: [{ role: 'user' }] })).toMatchObject({ problem: { field: 'chat' } });
    expect(checkData(fields, { q: 'x', other: 1 })).toEqual({
      problem: { field: 'other', message: 'The dataset has no field other.' },
    });
  });

  it('reads JSONL line by line (a bad line marked with its number) and CSV by its header', async () => {
    expect(await readRows('jsonl', '{"q":"a"}\n\n[1]\n{bad\n')).toEqual([
      { q: 'a' },
      { __bad: 'Line 3 is not a JSON object.' },
      { __bad: 'Line 4 is not JSON.' },
    ]);
    expect(await readRows('csv', 'q,n\n"a, b",2\n')).toEqual([{ q: 'a, b', n: '2' }]);
  });
});

describe('agreement between annotators', () => {
  it("computes Cohen's kappa of a worked example (20 yes-yes, 5 yes-no, 10 no-yes, 15 no-no: 0.4)", async () => {
    const { cohensKappa } = await import('../src/server/agreement.ts');
    const pairs: [string, string][] = [
      ...Array.from({ length: 20 }, () => ['yes', 'yes'] as [string, string]),
      ...Array.from({ length: 5 }, () => ['yes', 'no'] as [string, string]),
      ...Array.from({ length: 10 }, () => ['no', 'yes'] as [string, string]),
      ...Array.from({ length: 15 }, () => ['no', 'no'] as [string, string]),
    ];
    expect(cohensKappa(pairs)).toBeCloseTo(0.4, 10);
  });

  it("computes Fleiss' kappa of a worked example (10 items, 14 annotators, 5 categories: 0.210)", async () => {
    const { fleissKappa } = await import('../src/server/agreement.ts');
    const rows = [
      [0, 0, 0, 0, 14],
      [0, 2, 6, 4, 2],
      [0, 0, 3, 5, 6],
      [0, 3, 9, 2, 0],
      [2, 2, 8, 1, 1],
      [7, 7, 0, 0, 0],
      [3, 2, 6, 3, 0],
      [2, 5, 3, 2, 2],
      [6, 5, 2, 1, 0],
      [0, 2, 2, 3, 7],
    ];
    const counts = rows.map((r) => Object.fromEntries(r.map((n, i) => [`c${i + 1}`, n])));
    expect(fleissKappa(counts)!).toBeCloseTo(0.21, 2);
  });
});

describe('near-duplicates', () => {
  it('finds a pair at the threshold and not above it, and exact duplicates once normalised', async () => {
    const { nearDuplicates, exactDuplicates, jaccard, shingles } = await import('../src/server/minhash.ts');
    // 10 and 11 word trigrams, 9 of them shared: Jaccard 9 / 12.
    const a = 'one two three four five six seven eight nine ten eleven twelve';
    const b = 'one two three four five six seven eight nine ten eleven thirteen fourteen';
    const j = jaccard(shingles(a), shingles(b));
    expect(j).toBe(0.75);
    const texts = [a, 'something else entirely, about the weather in spring', b];
    expect(await nearDuplicates(texts, j)).toEqual([{ a: 0, b: 2, similarity: j }]);
    expect(await nearDuplicates(texts, j + 1e-9)).toEqual([]);
    expect(exactDuplicates(['Hello  World', 'x', 'hello world '])).toEqual([{ a: 0, b: 2, similarity: 1 }]);
  });
});
