// Words for full-text search (SQLite FTS5, PostgreSQL tsvector): Intl.Segmenter splits Chinese and Japanese
// into words too; CJK words are also kept as character pairs, so that a query split another way still meets.

const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });
const CJK = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]/;
const STOP = new Set([
  'the',
  'a',
  'an',
  'of',
  'to',
  'in',
  'and',
  'or',
  'is',
  'are',
  'was',
  'be',
  'on',
  'for',
  'with',
  'as',
  'at',
  'by',
  'it',
  'this',
  'that',
  'what',
  'which',
  'who',
  'how',
  'do',
  'does',
  'i',
  'you',
  '的',
  '了',
  '是',
  '在',
  '和',
  '吗',
  '呢',
  '吧',
  '啊',
]);

/** The words of a text as a full-text index keeps them: lower case, letters and digits only; `stop` drops words like "the". */
export function searchWords(text: string, opts: { stop?: boolean } = {}): string[] {
  const out: string[] = [];
  for (const s of segmenter.segment(text.normalize('NFKC'))) {
    if (!s.isWordLike) continue;
    const w = s.segment.toLowerCase().replace(/[^\p{L}\p{N}_]/gu, '');
    if (!w || (opts.stop && STOP.has(w))) continue;
    out.push(w);
    if (CJK.test(w) && w.length > 2) for (let i = 0; i + 2 <= w.length; i++) out.push(w.slice(i, i + 2));
  }
  return out;
}
