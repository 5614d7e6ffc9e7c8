/**
 * The sort selection study's scoring (src/study/sort-scoring.ts, thesis Table 4-4 and
 * 4.5.4) on made-up rows worked out by hand: the measured crossover is the last key
 * where the left algorithm was strictly faster, the error ratio sums how far the
 * crossovers were off over the key range, and the penalty compares the model's pick
 * (the left algorithm through its predicted last key) against the other, per seed.
 */
import { describe, expect, it } from 'vitest';
import { probeCycles, scoreSort } from '../../src/study/sort-scoring.ts';
import type { Row } from '../../src/study/study.ts';

const BASE = { platform: 'cm5', nodes: 32, keyBits: 16 };

/** Radix4 predicted best for 1-50 keys, radix10 after; measured, radix4 wins through 52 and ties at 53. */
function rows(): Row[] {
  const out: Row[] = [
    { ...BASE, kind: 'interval', variant: 'radix4', keys: 1, predictedLast: 50 },
    { ...BASE, kind: 'interval', variant: 'radix10', keys: 51, predictedLast: 1000 },
  ];
  const left = (k: number) => (k <= 52 ? 900 : k === 53 ? 1000 : 1100);
  // The probes the bisection asks for: 50, 51, then 52, 54 stepping right, then 53.
  for (const k of [50, 51, 52, 54, 53]) {
    out.push({ ...BASE, kind: 'probe', crossover: 0, keys: k, variant: 'radix4', predicted: 990, measured: left(k) });
    out.push({ ...BASE, kind: 'probe', crossover: 0, keys: k, variant: 'radix10', predicted: 1100, measured: 1000 });
  }
  // Penalty points either side of the predicted crossover, three seeds each.
  const penalty = (keys: number, seed: number, radix4: number, radix10: number) =>
    (['radix4', 'radix10'] as const).map((variant) => ({ ...BASE, kind: 'penalty', crossover: 0, keys, predictedLast: 50, left: 'radix4', right: 'radix10', seed, variant, measured: variant === 'radix4' ? radix4 : radix10 }));
  // At 50 keys the model picks radix4 (through its predicted last key): 1%, 2% and 0% slower.
  out.push(...penalty(50, 1, 1010, 1000), ...penalty(50, 2, 1020, 1000), ...penalty(50, 3, 1000, 1000));
  // At 51 keys it picks radix10: 3% slower each time.
  for (const seed of [1, 2, 3]) out.push(...penalty(51, seed, 1000, 1030));
  return out;
}

describe('sort selection scoring, worked by hand', () => {
  const s = scoreSort(rows(), 1000);

  it('finds the crossover where radix4 stops being strictly faster, and its error ratio over the key range', () => {
    expect(s.tables).toHaveLength(1);
    const c = s.tables[0].crossovers[0];
    expect(c).toMatchObject({ left: 'radix4', right: 'radix10', predicted: 50, actual: 52, error: 2 });
    expect(s.tables[0].errorRatio).toBeCloseTo(2 / 1000, 15);
    expect(s.meanAccuracy).toBeCloseTo(0.998, 15);
    // Each model against its probes: predicted / measured - 1, averaged.
    expect(c.modelError.right).toBeCloseTo(0.1, 12);
    expect(c.modelError.left).toBeCloseTo((990 / 900 - 1) * 3 / 5 + (990 / 1000 - 1) / 5 + (990 / 1100 - 1) / 5, 12);
  });

  it('penalizes the pick over the other per seed, with a 95% t-interval, and a predicted last key is the left algorithm\'s', () => {
    const [at50, at51] = s.penalty.perPoint;
    expect(at50).toMatchObject({ keys: 50, pick: 'radix4', other: 'radix10' });
    expect(at50.mean).toBeCloseTo(0.01, 12);
    // Sample sd 0.01 over 3 seeds; t(0.975, 2) = 4.3027.
    expect(at50.halfWidth).toBeCloseTo((4.302652729911275 * 0.01) / Math.sqrt(3), 9);
    expect(at51).toMatchObject({ keys: 51, pick: 'radix10', other: 'radix4', halfWidth: 0 });
    expect(at51.mean).toBeCloseTo(0.03, 12);
    expect(s.penalty.mean).toBeCloseTo(0.02, 12);
    // The worst upper bound: the largest mean plus its half-width (50 keys: 1% + 2.48%, over 51 keys: 3% + 0).
    expect(s.penalty.worstUpper).toBeCloseTo(0.01 + (4.302652729911275 * 0.01) / Math.sqrt(3), 9);
    expect(s.checks.find((x) => x.check.startsWith('mean penalty'))).toMatchObject({ value: '2.00%', pass: false });
  });
});

describe("a probe's measurement over its seeds", () => {
  it("is sample sort's mean and radix sort's median: one interrupted CM-5 run of three does not decide a radix probe", () => {
    expect(probeCycles('sample', [1000, 1100, 1600])).toBe(1233.3333333333333);
    expect(probeCycles('radix4', [1000, 1100, 1600])).toBe(1100);
    expect(probeCycles('radix14', [900])).toBe(900);
    // Radix4 against sample sort at 60 and 61 keys, radix sort over three seeds: at 61 one seed's
    // run took an interrupt (+700). By the median radix4 still wins at 61; by the mean it would not.
    const probe = (keys: number, variant: string, seed: number, measured: number): Row => ({ ...BASE, kind: 'probe', crossover: 0, keys, variant, seed, predicted: 1000, measured });
    const rows: Row[] = [
      { ...BASE, kind: 'interval', variant: 'radix4', keys: 1, predictedLast: 60 },
      { ...BASE, kind: 'interval', variant: 'sample', keys: 61, predictedLast: 1000 },
      ...[1000, 1010, 1005].map((m, i) => probe(60, 'radix4', i + 1, m)),
      ...[1200, 1200, 1200, 1200, 1200].map((m, i) => probe(60, 'sample', i + 1, m)),
      ...[1100, 1800, 1105].map((m, i) => probe(61, 'radix4', i + 1, m)),
      ...[1200, 1200, 1200, 1200, 1200].map((m, i) => probe(61, 'sample', i + 1, m)),
      ...[1300, 1310, 1305].map((m, i) => probe(62, 'radix4', i + 1, m)),
      ...[1200, 1200, 1200, 1200, 1200].map((m, i) => probe(62, 'sample', i + 1, m)),
    ];
    expect(scoreSort(rows, 1000).tables[0].crossovers[0]).toMatchObject({ predicted: 60, actual: 61, error: 1 });
  });
});
