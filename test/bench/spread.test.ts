// The spread of results over seeds (bench/spread.ts), which Fig. 7-8's report in
// `npm run bench chapter7` rests on: a cut in the standard deviation is printed with an
// interval that says how far the seeds let it be trusted, the same each time it is
// printed, and narrower the more seeds there are.
import { describe, expect, it } from 'vitest';
import { sdCut, spread } from '../../bench/spread.ts';

/** Runs spread like a normal sample, without randomness: n evenly spaced quantiles around `mean`, `scale` wide. */
const runs = (n: number, mean: number, scale: number): number[] => Array.from({ length: n }, (_, i) => mean + scale * ((i + 0.5) / n - 0.5));

describe('spread over seeds', () => {
  it('gives the mean and the sample standard deviation (n - 1)', () => {
    const s = spread([1, 2, 3, 4]);
    expect(s.mean).toBe(2.5);
    expect(s.sd).toBeCloseTo(Math.sqrt(5 / 3), 12);
    expect(spread([7]).sd).toBe(0);
  });

  it('measures a cut in the deviation, with a bootstrap interval around it that is the same each time', () => {
    const before = runs(20, 3.4, 1);
    const after = runs(20, 4.3, 0.1);
    const c = sdCut(before, after);
    expect(c.cut).toBeCloseTo(10, 9);
    expect(c.low).toBeLessThan(c.cut);
    expect(c.high).toBeGreaterThan(c.cut);
    expect(sdCut(before, after)).toEqual(c);
  });

  it('is far less sure of a cut from six seeds a side than from twenty', () => {
    const width = (n: number) => {
      const c = sdCut(runs(n, 3.4, 1), runs(n, 4.3, 0.1));
      return c.high / c.low;
    };
    // Both measure a cut of 10; six runs a side leave it within a factor of several.
    expect(width(6)).toBeGreaterThan(3);
    expect(width(20)).toBeLessThan(width(6) / 1.5);
  });

  it('refuses a side of fewer than two runs, which has no deviation', () => {
    expect(() => sdCut([1], [1, 2])).toThrow(/at least two values a side, got 1 and 2/);
  });
});
