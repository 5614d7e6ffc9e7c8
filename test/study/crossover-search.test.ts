/**
 * The sort study's crossover search (src/study/crossover-search.ts, thesis 4.5.4),
 * replayed on a made-up comparison: the left algorithm wins up to a key, the right one
 * after. Each story feeds the search the probes it asks for, one round at a time, as
 * the study does, and checks which keys it asked about and where it stopped.
 */
import { describe, expect, it } from 'vitest';
import { searchCrossover } from '../../src/study/crossover-search.ts';

/** Runs the search to the end against "L wins through `last`", returning the answer and the keys probed in order. */
function run(p: number, top: number, last: number): { actual: number; probed: number[] } {
  const measured = new Map<number, boolean>();
  const probed: number[] = [];
  for (;;) {
    const s = searchCrossover(p, top, (k) => measured.get(k));
    if (s.status === 'done') return { actual: s.actual, probed };
    if (s.status === 'failed') throw new Error(`failed at ${s.at}`);
    for (const k of s.probes) {
      probed.push(k);
      measured.set(k, k <= last);
    }
  }
}

describe('the sort study finds a measured crossover by bisection', () => {
  it('stops at the prediction when L wins at p and loses at p + 1', () => {
    expect(run(50, 1000, 50)).toEqual({ actual: 50, probed: [50, 51] });
  });

  it('steps right by 2, 4, 8 and then bisects, taking the lower midpoint', () => {
    // L wins through 61: 52 and 54 and 58 win, 66 loses; bisect (58, 66): 62 loses, 60 wins, 61 wins.
    expect(run(50, 1000, 61)).toEqual({ actual: 61, probed: [50, 51, 52, 54, 58, 66, 62, 60, 61] });
  });

  it('steps left by 1, 2, 4 and then bisects', () => {
    // L wins through 41: 49, 48, 46, 42 lose, 34 wins; bisect (34, 42): 38, 40, 41 win.
    expect(run(50, 1000, 41)).toEqual({ actual: 41, probed: [50, 51, 49, 48, 46, 42, 34, 38, 40, 41] });
  });

  it('bisects at the lower midpoint where the range cuts a step short', () => {
    // Top 63: the step to 66 stops at 63; bisect (58, 63) at 60, then 59.
    expect(run(50, 63, 59)).toEqual({ actual: 59, probed: [50, 51, 52, 54, 58, 63, 60, 59] });
  });

  it('ends at the range: top when L wins to the end, 0 when R wins from key 1', () => {
    expect(run(50, 60, 1000).actual).toBe(60);
    expect(run(5, 1000, 0)).toEqual({ actual: 0, probed: [5, 6, 4, 3, 1] });
  });

  it('measures key 1 when the model says L never wins (p = 0), and steps right if L wins there', () => {
    // The crossover must come from the measurements: L losing at key 1 gives 0 ...
    expect(run(0, 1000, 0)).toEqual({ actual: 0, probed: [1] });
    // ... L winning at 1 alone gives 1, and winning through 5 is found by the usual steps (2, 4, 8) and bisection.
    expect(run(0, 1000, 1)).toEqual({ actual: 1, probed: [1, 2] });
    expect(run(0, 1000, 5)).toEqual({ actual: 5, probed: [1, 2, 4, 8, 6, 5] });
    expect(run(0, 3, 1000)).toEqual({ actual: 3, probed: [1, 2, 3] });
  });

  it('reports the key of a failed run', () => {
    expect(searchCrossover(50, 1000, (k) => (k === 51 ? null : true))).toEqual({ status: 'failed', at: 51 });
  });
});
