/**
 * The digit-width study's in-sample ceiling (src/study/digit-ceiling.ts): radix runs
 * that follow the RadixSort model's terms exactly are fitted exactly and every trial's
 * best viable width is found; a run the terms cannot follow lowers the score; a trial
 * with a failed run is left out.
 */
import { describe, expect, it } from 'vitest';
import { digitCeiling } from '../../src/study/digit-ceiling.ts';
import type { Row } from '../../src/study/study.ts';

/** Cycles of a 64-node radix sort by the model's own terms (4.5.5): passes, buckets per pass, keys per pass. */
const byTerms = (keys: number, bits: number, keyBits: number) => {
  const iter = Math.ceil(keyBits / bits);
  return 3000 + 2500 * iter + 40 * 2 ** bits * iter + 150 * keys * iter;
};

function trial(trial: number, keys: number, keyBits: number, cycles: (keys: number, bits: number, keyBits: number) => number): Row[] {
  return Array.from({ length: Math.min(16, keyBits) }, (_, k) => ({ platform: 'paragon', nodes: 64, trial, keyBits, keys, digitBits: k + 1, measured: Math.round(cycles(keys, k + 1, keyBits)) }));
}

const TRIALS: [number, number][] = [
  [20, 32],
  [300, 16],
  [1500, 24],
  [9000, 32],
  [60, 11],
  [4000, 28],
];

describe('digit-width study: the in-sample ceiling of the RadixSort model', () => {
  it('runs that follow the terms exactly: the fit is exact and every choice optimal', () => {
    const rows = TRIALS.flatMap(([keys, bits], i) => trial(i, keys, bits, byTerms));
    const [c] = digitCeiling(rows);
    expect(c).toMatchObject({ platform: 'paragon', nodes: 64, trials: 6, optimal: 6, near: 0 });
    expect(c.mrePercent).toBeLessThan(0.01);
  });

  it('a cost the terms cannot follow (one digit width far cheaper than they allow) is missed', () => {
    // 6-bit digits run at a third of the time in every trial: the fit cannot put them below their neighbours everywhere.
    const odd = (keys: number, bits: number, keyBits: number) => byTerms(keys, bits, keyBits) * (bits === 6 ? 1 / 3 : 1);
    const rows = TRIALS.flatMap(([keys, bits], i) => trial(i, keys, bits, odd));
    const [c] = digitCeiling(rows);
    expect(c.mrePercent).toBeGreaterThan(1);
    expect(c.optimal + c.near).toBeLessThan(6);
  });

  it('a choice tied with the best is optimal, one at most 0.5% over it is counted apart, one further over is neither', () => {
    const rows = TRIALS.flatMap(([keys, bits], i) => trial(i, keys, bits, byTerms));
    // 16-bit digits, outside the widths fitted and chosen from (DIGIT_RANGE), measured as fast as the choice, 0.3% and 1% faster.
    [1, 0.997, 0.99].forEach((f, t) => {
      const best = Math.min(...rows.filter((r) => r.trial === t).map((r) => r.measured as number));
      const at16 = rows.findIndex((r) => r.trial === t && r.digitBits === 16);
      rows[at16] = { ...rows[at16], measured: Math.round(best * f) };
    });
    expect(digitCeiling(rows)[0]).toMatchObject({ trials: 6, optimal: 4, near: 1 });
  });

  it('a trial with a failed run is left out', () => {
    const rows = TRIALS.flatMap(([keys, bits], i) => trial(i, keys, bits, byTerms));
    rows[3] = { ...rows[3], measured: null };
    expect(digitCeiling(rows)[0]).toMatchObject({ trials: 5, optimal: 5 });
  });
});
