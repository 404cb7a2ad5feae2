// How far annotators agree: Cohen's kappa for two annotators who labelled the same items, Fleiss' kappa for items each
// labelled by the same number of annotators (any of them), and the share of items where they all gave one answer.

/** Cohen's kappa of two annotators' labels of the same items (pairs of their answers). */
export function cohensKappa(pairs: [string, string][]): number | null {
  const n = pairs.length;
  if (!n) return null;
  const cats = [...new Set(pairs.flat())];
  const agree = pairs.filter(([a, b]) => a === b).length / n;
  let chance = 0;
  for (const c of cats) {
    const pa = pairs.filter(([a]) => a === c).length / n;
    const pb = pairs.filter(([, b]) => b === c).length / n;
    chance += pa * pb;
  }
  if (chance === 1) return 1;
  return (agree - chance) / (1 - chance);
}

/**
 * Fleiss' kappa: for each item, how many annotators chose each category (every item rated by the same number of
 * annotators, at least two).
 */
export function fleissKappa(counts: Record<string, number>[]): number | null {
  const items = counts.filter((c) => Object.values(c).reduce((a, b) => a + b, 0) >= 2);
  if (!items.length) return null;
  const n = Object.values(items[0]).reduce((a, b) => a + b, 0);
  const rated = items.filter((c) => Object.values(c).reduce((a, b) => a + b, 0) === n);
  const N = rated.length;
  const cats = [...new Set(rated.flatMap((c) => Object.keys(c)))];
  const p = cats.map((k) => rated.reduce((s, c) => s + (c[k] ?? 0), 0) / (N * n));
  const P = rated.map((c) => (Object.values(c).reduce((s, x) => s + x * x, 0) - n) / (n * (n - 1)));
  const Pbar = P.reduce((a, b) => a + b, 0) / N;
  const Pe = p.reduce((s, x) => s + x * x, 0);
  if (Pe === 1) return 1;
  return (Pbar - Pe) / (1 - Pe);
}
