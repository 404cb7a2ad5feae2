import { describe, expect, it } from 'vitest';
import {
  drawPair,
  eloOf,
  fitBradleyTerry,
  leaderboard,
  ranksOf,
  seededRandom,
  type Outcome,
} from '../src/server/rating.ts';

const votes = (a: string, b: string, aWins: number, bWins: number, ties = 0): Outcome[] => [
  ...Array.from({ length: aWins }, () => ({ a, b, score: 1 })),
  ...Array.from({ length: bWins }, () => ({ a, b, score: 0 })),
  ...Array.from({ length: ties }, () => ({ a, b, score: 0.5 })),
];

// Worked examples: votes whose Bradley–Terry strengths are known in closed form.
describe('the leaderboard maths', () => {
  it('gives two models 30 to 10 a gap of 400·log10(3) Elo points', () => {
    const p = fitBradleyTerry(['a', 'b'], votes('a', 'b', 30, 10), 0);
    expect(eloOf(p.get('a')!) - eloOf(p.get('b')!)).toBeCloseTo(400 * Math.log10(3), 6);
    // A tie is half a win each: 30 wins, 10 losses and 20 ties is 40 to 20.
    const q = fitBradleyTerry(['a', 'b'], votes('a', 'b', 30, 10, 20), 0);
    expect(eloOf(q.get('a')!) - eloOf(q.get('b')!)).toBeCloseTo(400 * Math.log10(2), 6);
  });

  it('recovers strengths 4 : 2 : 1 from votes in their expected proportions', () => {
    // 60 battles a pair; a beats b 2:1, a beats c 4:1, b beats c 2:1.
    const outcomes = [...votes('a', 'b', 40, 20), ...votes('a', 'c', 48, 12), ...votes('b', 'c', 40, 20)];
    const rows = leaderboard(['a', 'b', 'c'], outcomes, { prior: 0 });
    expect(rows.map((r) => r.id)).toEqual(['a', 'b', 'c']);
    // Geometric mean 2 is 1000: a = 1000 + 400·log10(2), b = 1000, c = 1000 - 400·log10(2).
    expect(rows[0].rating).toBeCloseTo(1120.412, 2);
    expect(rows[1].rating).toBeCloseTo(1000, 2);
    expect(rows[2].rating).toBeCloseTo(879.588, 2);
    expect(rows[0]).toMatchObject({ battles: 120, wins: 88, losses: 32, ties: 0 });
    for (const r of rows) {
      expect(r.ci_low).toBeLessThanOrEqual(r.rating);
      expect(r.ci_high).toBeGreaterThanOrEqual(r.rating);
    }
    // Clear at 180 votes: each is ranked where it stands.
    expect(ranksOf(rows)).toEqual([1, 2, 3]);
  });

  it('narrows the interval with more votes, and keeps ranks shared while they overlap', () => {
    const few = leaderboard(['a', 'b'], votes('a', 'b', 3, 1));
    const many = leaderboard(['a', 'b'], votes('a', 'b', 300, 100));
    const width = (rows: typeof few) => rows[0].ci_high - rows[0].ci_low;
    expect(width(many)).toBeLessThan(width(few) / 3);
    expect(ranksOf(few)).toEqual([1, 1]);
    expect(ranksOf(many)).toEqual([1, 2]);
  });

  it('keeps a model that never won finite, and the same votes give the same intervals', () => {
    const rows = leaderboard(['a', 'b'], votes('a', 'b', 5, 0));
    expect(Number.isFinite(rows[1].rating)).toBe(true);
    expect(leaderboard(['a', 'b'], votes('a', 'b', 5, 0))).toEqual(rows);
  });

  it('draws close, seldom-compared pairs more often', () => {
    const ratings = new Map([
      ['a', 1200],
      ['b', 1190],
      ['c', 700],
    ]);
    const battles = new Map([['a|c', 50]]);
    const random = seededRandom(7);
    const drawn = new Map<string, number>();
    for (let i = 0; i < 2000; i++) {
      const [x, y] = drawPair(['a', 'b', 'c'], ratings, battles, random)!;
      const k = [x, y].sort().join('|');
      drawn.set(k, (drawn.get(k) ?? 0) + 1);
    }
    expect(drawn.get('a|b')!).toBeGreaterThan(drawn.get('b|c')! * 2);
    expect(drawn.get('b|c')!).toBeGreaterThan(drawn.get('a|c') ?? 0);
    expect(drawPair(['a'], ratings, battles)).toBeUndefined();
  });
});
