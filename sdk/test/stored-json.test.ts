import { describe, expect, it } from 'vitest';
import { ApiError, jsonWithin, parseStoredJson, parseStoredObject, parseStoredStrings } from '../src/index.ts';

describe('stored JSON', () => {
  it('reads an object back, and refuses what is not one with an error that says what could not be read', () => {
    expect(parseStoredObject('{"a":1}', "an item's data")).toEqual({ a: 1 });
    for (const text of ['[1,2]', 'null', '"text"', '3']) {
      const err = (() => {
        try {
          parseStoredObject(text, "an item's data");
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).message).toContain("an item's data is stored in a form the studio cannot read");
      expect((err as ApiError).message).toContain('not an object');
    }
    expect(() => parseStoredJson('{"a":', 'the settings')).toThrow(/the settings is stored in a form/);
  });

  it('reads a list of texts back, and names the first entry that is not one', () => {
    expect(parseStoredStrings('["a","b"]', "a product's tags")).toEqual(['a', 'b']);
    expect(() => parseStoredStrings('{"a":1}', "a product's tags")).toThrow(/a product's tags is stored .*not a list/);
    expect(() => parseStoredStrings('["a",2]', "a product's tags")).toThrow(/\(1: not a text\)/);
  });

  it('keeps a value whole up to the limit, and a larger one as a note of its size that still parses', () => {
    expect(jsonWithin({ a: 'b' }, 100)).toBe('{"a":"b"}');
    const big = { text: 'x'.repeat(200) };
    const kept = jsonWithin(big, 100);
    expect(kept.length).toBeLessThanOrEqual(100);
    expect(parseStoredObject(kept, 'an output')).toEqual({ truncated: true, characters: JSON.stringify(big).length });
  });
});
