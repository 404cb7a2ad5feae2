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
