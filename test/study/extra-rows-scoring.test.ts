/**
 * The extra-rows study's verdicts (src/study/extra-rows.ts, thesis Table 5-1) on
 * made-up sweeps worked out by hand: a predicted value is optimal when no value of
 * 0..15 measured fewer cycles (an exact tie counts), "within 0.5%" when it costs at
 * most 0.5% more than the best, counted apart from the optimal ones (issue 21), and
 * wrong beyond that; a tie for the best goes to the smaller value.
 */
import { describe, expect, it } from 'vitest';
import { scoreExtra } from '../../src/study/extra-rows.ts';
import type { Row } from '../../src/study/study.ts';

/** One configuration's rows: each parameter's sweep over 0..15 (the other 0) by the given cycles, and the predicted pair. */
function config(config: number, predicted: [number, number], rows: (v: number) => number, cols: (v: number) => number): Row[] {
  const base = { platform: 'atm', nodes: 16, config, thesis: false, width: 64, height: 64, iters: 4, seed: 1, predictedRows: predicted[0], predictedCols: predicted[1], predictedBenefit: 0 };
  const values = Array.from({ length: 16 }, (_, v) => v);
  return [
    ...values.map((v) => ({ ...base, kind: 'rows', extraRows: v, extraCols: 0, measured: rows(v) })),
    ...values.map((v) => ({ ...base, kind: 'cols', extraRows: 0, extraCols: v, measured: cols(v) })),
    { ...base, kind: 'predicted', extraRows: predicted[0], extraCols: predicted[1], measured: rows(0) },
  ];
}

/** 200,000 cycles at `at`, `cost` at the predicted value `p` (if it is not `at`), and 1% more a step further from `at`. */
const valley = (at: number, p: number, cost: number) => (v: number) => (v === at ? 200_000 : v === p ? cost : 200_000 + 2000 * Math.abs(v - at));

describe('extra-rows verdicts, worked by hand', () => {
  const s = scoreExtra([
    // Rows: the prediction 2 is the strict best. Cols: the prediction 3 ties exactly with 1, the smaller best.
    ...config(0, [2, 3], valley(2, 2, 0), (v) => (v === 1 || v === 3 ? 200_000 : 210_000)),
    // Rows: the prediction 4 costs exactly 0.5% over the best at 6. Cols: the prediction 0 costs 0.55% over 5.
    ...config(1, [4, 0], valley(6, 4, 201_000), valley(5, 0, 201_100)),
    // Rows: 0.25% over the best. Cols: 0.6% over it (past the edge: not a near tie).
    ...config(2, [1, 9], valley(0, 1, 200_500), valley(8, 9, 201_200)),
  ]);
  const [c0, c1, c2] = s.configs;

  it('an exact tie with the best is optimal, and the optimum reported is the smaller of the tied values', () => {
    expect(c0.rows).toMatchObject({ predicted: 2, optimum: 2, loss: 0, verdict: 'optimal' });
    expect(c0.cols).toMatchObject({ predicted: 3, optimum: 1, loss: 0, verdict: 'optimal' });
  });

  it('a prediction at most 0.5% over the best is "within 0.5%", not optimal; past 0.5% it is wrong', () => {
    expect(c1.rows).toMatchObject({ predicted: 4, optimum: 6, verdict: 'within 0.5%' });
    expect(c1.rows.loss).toBeCloseTo(0.005, 12);
    expect(c1.cols).toMatchObject({ predicted: 0, optimum: 5, verdict: 'wrong' });
    expect(c1.cols.loss).toBeCloseTo(0.0055, 12);
    expect(c2.rows).toMatchObject({ predicted: 1, optimum: 0, verdict: 'within 0.5%' });
    expect(c2.rows.loss).toBeCloseTo(0.0025, 12);
    expect(c2.cols).toMatchObject({ predicted: 9, optimum: 8, verdict: 'wrong' });
  });

  it('the checks count the near ties apart from the optimal ones, and a wrong one fails', () => {
    const check = (param: string) => s.checks.find((c) => c.check === `extra ${param}: prediction optimal, or within 0.5% (counted apart)`);
    expect(check('rows')).toMatchObject({ target: '3 of 3', value: '1 optimal + 2 within 0.5% of 3', pass: true });
    expect(check('cols')).toMatchObject({ target: '3 of 3', value: '1 optimal + 0 within 0.5% of 3', pass: false });
  });

  it('a failed run in a sweep fails its verdict, and the check names it', () => {
    const rows = config(0, [2, 3], valley(2, 2, 0), valley(3, 3, 0)).map((r) => (r.kind === 'cols' && r.extraCols === 7 ? { ...r, measured: null } : r));
    const f = scoreExtra(rows);
    expect(f.configs[0].rows.verdict).toBe('optimal');
    expect(f.configs[0].cols).toMatchObject({ optimum: null, loss: null, verdict: 'failed' });
    expect(f.checks.find((c) => c.check.startsWith('extra cols'))).toMatchObject({ value: '0 optimal + 0 within 0.5% of 1 (1 failed)', pass: false });
  });
});
