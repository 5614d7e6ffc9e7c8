/**
 * The digit-width study's in-sample ceiling, from its rows alone: the RadixSort model's
 * terms (4.5.5 and the combines' messages, apps/calibration/apps.spec) fitted (relative
 * error, eq. 26, as the app models are) to the study's own radix runs of one platform
 * and machine size, over the digit widths the sort module searches (DIGIT_RANGE), then
 * asked for each trial's best viable width (eq. 44's candidates). No calibration of these terms predicts the runs
 * better than a fit to them, so its score bounds what recalibrating the model could
 * reach on the same trials.
 */
import { fitModel, mrePercent, predict } from '../calibrate/fit.ts';
import { viablePasses } from '../library/digit-width.ts';
import { DIGIT_RANGE, radixColumns } from '../library/sort-module.ts';
import { groupBy } from './stats.ts';
import type { Row } from './study.ts';

/** A choice this close to the measured best counts apart (issue 21). */
const NEAR = 0.005;

export interface DigitCeiling {
  platform: string;
  nodes: number;
  trials: number;
  /** Mean relative error of the fit on the runs it was fitted to (eq. 10), as a percentage. */
  mrePercent: number;
  optimal: number;
  near: number;
}

const columnsOf = (r: Row) => radixColumns(r.keys as number, r.digitBits as number, r.keyBits as number, r.nodes as number, r.combineWords as number);

/**
 * Per platform and machine size, trials with a failed run left out; a platform and size
 * none of whose trials measured every width has nothing to fit, and no ceiling (the study
 * stopped with "fitModel: expected a non-empty list of samples", naming no run).
 */
export function digitCeiling(rows: readonly Row[]): DigitCeiling[] {
  const complete = (g: readonly Row[]): Row[][] => [...groupBy(g, (r) => String(r.trial)).values()].filter((t) => t.every((r) => r.measured !== null));
  return [...groupBy(rows, (r) => `${r.platform}|${r.nodes}`).values()].filter((g) => complete(g).length > 0).map((g) => {
    const trials = complete(g);
    const fitted = trials.flat().filter((r) => (r.digitBits as number) >= DIGIT_RANGE.lo && (r.digitBits as number) <= DIGIT_RANGE.hi);
    const terms = Object.keys(columnsOf(g[0]));
    const xs = (r: Row) => {
      const c = columnsOf(r);
      return terms.map((t) => c[t]);
    };
    const fit = fitModel(
      terms,
      fitted.map((r) => ({ y: r.measured as number, x: xs(r) })),
      true,
    );
    let optimal = 0;
    let near = 0;
    for (const t of trials) {
      const keyBits = t[0].keyBits as number;
      const candidates = viablePasses(keyBits, DIGIT_RANGE.lo, DIGIT_RANGE.hi).map((i) => Math.ceil(keyBits / i));
      const at = (bits: number) => t.find((r) => r.digitBits === bits)!;
      const pick = candidates.reduce((a, b) => (predict(fit.coefficients, xs(at(b))) < predict(fit.coefficients, xs(at(a))) ? b : a));
      const best = Math.min(...t.map((r) => r.measured as number));
      const loss = (at(pick).measured as number) / best - 1;
      if (loss <= 0) optimal++;
      else if (loss <= NEAR) near++;
    }
    return {
      platform: g[0].platform as string,
      nodes: g[0].nodes as number,
      trials: trials.length,
      mrePercent: mrePercent(
        fitted.map((r) => r.measured as number),
        fitted.map((r) => predict(fit.coefficients, xs(r))),
      ),
      optimal,
      near,
    };
  });
}
