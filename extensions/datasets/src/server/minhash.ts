// Near-duplicates by MinHash: each text's shingles (word trigrams, or character 5-grams for short or unspaced text)
// hashed under 128 seeds; locality-sensitive hashing (32 bands of 4) proposes pairs sharing a band, and each proposed
// pair is kept when the Jaccard similarity of its shingle sets reaches the threshold (computed exactly, so a pair at
// the threshold is found and one below it is not).

const HASHES = 128;
const BANDS = 32;
const ROWS = HASHES / BANDS;

/** A text as compared: lower case, spaces collapsed. */
export const normalize = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();

/** FNV-1a, 32 bits. */
function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The shingles of a text, hashed. */
export function shingles(text: string): Uint32Array {
  const t = normalize(text);
  const words = t.split(' ').filter(Boolean);
  const grams = new Set<number>();
  if (words.length >= 5) for (let i = 0; i + 3 <= words.length; i++) grams.add(fnv(words.slice(i, i + 3).join(' ')));
  else for (let i = 0; i + 5 <= Math.max(t.length, 5); i++) grams.add(fnv(t.slice(i, i + 5)));
  return Uint32Array.from(grams).sort();
}

/** Jaccard similarity of two sorted shingle sets. */
export function jaccard(a: Uint32Array, b: Uint32Array): number {
  if (!a.length && !b.length) return 1;
  let i = 0;
  let j = 0;
  let both = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      both++;
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return both / (a.length + b.length - both);
}

const SEEDS = Array.from({ length: HASHES }, (_, k) => [
  Math.imul(k + 1, 0x9e3779b1) >>> 0,
  Math.imul(k + 7, 0x85ebca6b) >>> 0,
]);

/** The MinHash signature of a shingle set. */
export function signature(set: Uint32Array): Uint32Array {
  const sig = new Uint32Array(HASHES).fill(0xffffffff);
  for (const x of set)
    for (let k = 0; k < HASHES; k++) {
      const [a, b] = SEEDS[k];
      let h = (Math.imul(x ^ b, a) + b) >>> 0;
      h ^= h >>> 15;
      h = Math.imul(h, 0x2c1b3c6d) >>> 0;
      if (h < sig[k]) sig[k] = h;
    }
  return sig;
}

export interface NearPair {
  a: number;
  b: number;
  similarity: number;
}

/**
 * Pairs of texts (by index) whose Jaccard similarity is at least the threshold, at most `limit` of them, the most
 * similar first. `onProgress` is told the share done.
 */
export async function nearDuplicates(
  texts: string[],
  threshold: number,
  limit = 10_000,
  onProgress?: (done: number) => Promise<void> | void,
): Promise<NearPair[]> {
  const sets = texts.map(shingles);
  const buckets = Array.from({ length: BANDS }, () => new Map<string, number[]>());
  for (let i = 0; i < sets.length; i++) {
    const sig = signature(sets[i]);
    for (let band = 0; band < BANDS; band++) {
      const key = Array.from(sig.subarray(band * ROWS, band * ROWS + ROWS)).join(',');
      const m = buckets[band];
      const list = m.get(key);
      if (list) list.push(i);
      else m.set(key, [i]);
    }
    if (onProgress && i % 5000 === 4999) await onProgress((i + 1) / sets.length / 2);
  }
  // A pair is compared again in each band it shares (cheap next to a set of every pair seen, which for a dataset of
  // look-alike texts would hold hundreds of millions); only the pairs found are remembered. In a large bucket each
  // text is compared with the next few only.
  const found = new Map<number, NearPair>();
  let compared = 0;
  for (const m of buckets) {
    for (const list of m.values()) {
      if (list.length < 2) continue;
      const reach = list.length > 200 ? 8 : 50;
      for (let x = 0; x < list.length; x++)
        for (let y = x + 1; y < list.length && y <= x + reach; y++) {
          const a = list[x];
          const b = list[y];
          const key = a * 4_000_000 + b;
          if (found.has(key)) continue;
          const similarity = jaccard(sets[a], sets[b]);
          if (similarity >= threshold) found.set(key, { a, b, similarity });
          if (onProgress && ++compared % 200_000 === 0)
            await onProgress(0.5 + Math.min(0.49, compared / (sets.length * BANDS * 8)));
        }
    }
  }
  const pairs = [...found.values()];
  await onProgress?.(1);
  return pairs.sort((p, q) => q.similarity - p.similarity || p.a - q.a).slice(0, limit);
}

/** Pairs of texts that are the same once normalised (each later one with the first). */
export function exactDuplicates(texts: string[], limit = 10_000): NearPair[] {
  const first = new Map<string, number>();
  const pairs: NearPair[] = [];
  texts.forEach((t, i) => {
    const k = normalize(t);
    const f = first.get(k);
    if (f === undefined) first.set(k, i);
    else if (pairs.length < limit) pairs.push({ a: f, b: i, similarity: 1 });
  });
  return pairs;
}
