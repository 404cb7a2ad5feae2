// Latency in fixed buckets (their upper bounds in ms): a day's percentiles come from counts that add up across rows.
export const BOUNDS = [10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 30_000, 120_000] as const;
export const BUCKET_COLUMNS = BOUNDS.map((_, i) => `b${i}`);

export function bucketOf(ms: number): number {
  const i = BOUNDS.findIndex((b) => ms <= b);
  return i === -1 ? BOUNDS.length - 1 : i;
}

/** The upper bound of the bucket the q-th share of the counts falls in (0 when there are none). */
export function percentile(counts: number[], q: number): number {
  const total = counts.reduce((a, b) => a + b, 0);
  if (!total) return 0;
  let seen = 0;
  for (let i = 0; i < counts.length; i++) {
    seen += counts[i];
    if (seen >= q * total) return BOUNDS[i];
  }
  return BOUNDS[BOUNDS.length - 1];
}
