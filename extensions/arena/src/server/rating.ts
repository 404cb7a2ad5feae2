// The arena's leaderboard maths: a Bradley–Terry fit of the votes (a tie, or "both bad", counts half a win to each
// side, as LMArena counts them) by Hunter's MM algorithm, shown on the Elo scale (1000 the average, 400 points a
// factor of ten in the odds), with 95% intervals from a bootstrap of the battles, and the pair to draw next.

export interface Outcome {
  a: string;
  b: string;
  /** 1: a won, 0: b won, 0.5: a tie (or both bad). */
  score: number;
}

export interface Rating {
  id: string;
  rating: number;
  ci_low: number;
  ci_high: number;
  battles: number;
  wins: number;
  losses: number;
  ties: number;
}

/**
 * Strengths by maximum likelihood (geometric mean 1). `prior` virtual games against an average opponent (half won,
 * half lost) keep a model that never won, or one seen once, finite and near the middle; 0 gives the plain MLE.
 */
export function fitBradleyTerry(
  ids: string[],
  outcomes: Outcome[],
  prior = 1,
  maxIterations = 2000,
): Map<string, number> {
  const index = new Map(ids.map((id, i) => [id, i]));
  const n = ids.length;
  const wins = new Float64Array(n);
  const games = new Map<number, number>(); // i * n + j (i < j) -> games between them
  for (const o of outcomes) {
    const i = index.get(o.a);
    const j = index.get(o.b);
    if (i === undefined || j === undefined || i === j) continue;
    wins[i] += o.score;
    wins[j] += 1 - o.score;
    const key = i < j ? i * n + j : j * n + i;
    games.set(key, (games.get(key) ?? 0) + 1);
  }
  const pairs = [...games].map(([k, g]) => [Math.floor(k / n), k % n, g] as const);
  let p = new Float64Array(n).fill(1);
  for (let it = 0; it < maxIterations; it++) {
    const denom = new Float64Array(n);
    for (const [i, j, g] of pairs) {
      const s = g / (p[i] + p[j]);
      denom[i] += s;
      denom[j] += s;
    }
    const next = new Float64Array(n);
    let logSum = 0;
    for (let i = 0; i < n; i++) {
      // The prior: `prior` games against an opponent of strength 1, half of them won.
      const w = wins[i] + prior / 2;
      const d = denom[i] + prior / (p[i] + 1);
      next[i] = d > 0 && w > 0 ? w / d : 1e-9;
      logSum += Math.log(next[i]);
    }
    const scale = Math.exp(logSum / n);
    let change = 0;
    for (let i = 0; i < n; i++) {
      next[i] /= scale;
      change = Math.max(change, Math.abs(Math.log(next[i]) - Math.log(p[i])));
    }
    p = next;
    if (change < 1e-10) break;
  }
  return new Map(ids.map((id, i) => [id, p[i]]));
}

/** Elo-scale rating of a strength: 1000 the average, +400 for ten times the odds. */
export const eloOf = (strength: number) => 1000 + 400 * Math.log10(strength);

/** A small seeded generator (mulberry32): the intervals are the same for the same votes. */
export function seededRandom(seed: number): () => number {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

const percentile = (sorted: number[], q: number) => {
  if (!sorted.length) return NaN;
  const x = (sorted.length - 1) * q;
  const lo = Math.floor(x);
  const hi = Math.ceil(x);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (x - lo);
};

/** The leaderboard: ratings with 95% bootstrap intervals (`rounds` resamples of the battles), best first. */
export function leaderboard(
  ids: string[],
  outcomes: Outcome[],
  opts: { rounds?: number; prior?: number; seed?: number } = {},
): Rating[] {
  const rounds = opts.rounds ?? 200;
  const prior = opts.prior ?? 1;
  const point = fitBradleyTerry(ids, outcomes, prior);
  const samples = new Map(ids.map((id) => [id, [] as number[]]));
  const random = seededRandom(opts.seed ?? 20261127);
  if (outcomes.length)
    for (let r = 0; r < rounds; r++) {
      const resampled: Outcome[] = [];
      for (let k = 0; k < outcomes.length; k++) resampled.push(outcomes[Math.floor(random() * outcomes.length)]);
      for (const [id, s] of fitBradleyTerry(ids, resampled, prior, 500)) samples.get(id)!.push(eloOf(s));
    }
  const counts = new Map(ids.map((id) => [id, { battles: 0, wins: 0, losses: 0, ties: 0 }]));
  for (const o of outcomes) {
    const a = counts.get(o.a);
    const b = counts.get(o.b);
    if (!a || !b) continue;
    a.battles++;
    b.battles++;
    if (o.score === 1) {
      a.wins++;
      b.losses++;
    } else if (o.score === 0) {
      b.wins++;
      a.losses++;
    } else {
      a.ties++;
      b.ties++;
    }
  }
  return ids
    .map((id) => {
      const sorted = samples.get(id)!.sort((x, y) => x - y);
      const rating = eloOf(point.get(id)!);
      return {
        id,
        rating,
        ci_low: sorted.length ? Math.min(rating, percentile(sorted, 0.025)) : rating,
        ci_high: sorted.length ? Math.max(rating, percentile(sorted, 0.975)) : rating,
        ...counts.get(id)!,
      };
    })
    .sort((x, y) => y.rating - x.rating);
}

/**
 * LMArena's rank: 1 + the models that are better beyond doubt (their interval's low end above this one's high end).
 */
export function ranksOf(rows: Rating[]): number[] {
  return rows.map((r) => 1 + rows.filter((o) => o.ci_low > r.ci_high).length);
}

/**
 * The next pair, drawn to make the ranking converge: pairs seldom compared and close in rating are likelier (a
 * clear order needs fewer votes). `ratings` may miss models never rated (taken as 1000).
 */
export function drawPair(
  ids: string[],
  ratings: Map<string, number>,
  battles: Map<string, number>,
  random: () => number = Math.random,
): [string, string] | undefined {
  if (ids.length < 2) return undefined;
  const candidates: { a: string; b: string; w: number }[] = [];
  for (let i = 0; i < ids.length; i++)
    for (let j = i + 1; j < ids.length; j++) {
      const [a, b] = [ids[i], ids[j]];
      const n = battles.get(a < b ? `${a}|${b}` : `${b}|${a}`) ?? 0;
      const gap = Math.abs((ratings.get(a) ?? 1000) - (ratings.get(b) ?? 1000));
      candidates.push({ a, b, w: (1 / (1 + n)) * Math.exp(-gap / 400) + 1e-6 });
    }
  const total = candidates.reduce((s, c) => s + c.w, 0);
  let x = random() * total;
  for (const c of candidates) {
    x -= c.w;
    if (x <= 0) return random() < 0.5 ? [c.a, c.b] : [c.b, c.a];
  }
  const last = candidates[candidates.length - 1];
  return [last.a, last.b];
}

/** The key of a pair's battle count (order-free). */
export const pairKey = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);
