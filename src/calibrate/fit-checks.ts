/**
 * What `sim fit` refuses to fit (thesis 3.6): a model the samples cannot determine,
 * and a fit that came out non-finite. Each is one InputError line naming the samples
 * file, the platform and the model, and what was expected, so a meaningless model
 * (R^2 1 from one sample, NaN coefficients) is never written.
 */
import { InputError } from '../kernel/errors.ts';
import { columnList } from './column-list.ts';
import { fitModel, NonFiniteFit, type FitResult } from './fit.ts';
import type { ModelSamples } from './samples-file.ts';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A relative fit refused for samples of 0 cycles: an absolute fit of the same samples can go on. */
export class ZeroTimesError extends InputError {}

/**
 * Checks a model's building samples before fitting:
 * - more samples than unknowns (the constant and each column): with none to spare the
 *   fit is exact whatever the terms, and has no degrees of freedom to judge them by
 *   (the confidence intervals of eq. 28 need n - r > 0);
 * - samples at more than one point: when every sample has the same inputs, every
 *   column is a multiple of the constant and SVD would share the weight among them
 *   (3.6.2) to give a "model" that is right at that one point and nowhere else. A
 *   design that is rank-deficient only in part stays the thesis's case for SVD: a
 *   duplicated term, or a log P term at one machine size (RadixSort's), share weight
 *   with their twins and predict correctly wherever the design's relation holds;
 * - with relative error, no sample of 0 cycles (eq. 26 weights each sample by its y).
 */
export function checkFittable(m: ModelSamples, relative: boolean, source: string): void {
  const where = `${source}: model ${m.name} on ${m.platform}`;
  const unknowns = m.columns.length + 1;
  const n = m.building.length;
  if (n <= unknowns) {
    const what = m.columns.length === 0 ? 'the constant' : `the constant and ${columnList(m.columns, ', ')}`;
    throw new InputError(`${where}: ${plural(n, 'building sample')} for ${plural(unknowns, 'unknown')} (${what}); expected at least ${unknowns + 1}, so the fit has a degree of freedom to judge its terms by`);
  }
  const first = m.building[0].x;
  if (m.columns.length > 0 && m.building.every((s) => s.x.every((v, k) => v === first[k]))) {
    const point = columnList(m.columns.map((c, k) => `${c}=${first[k]}`), ' ');
    throw new InputError(`${where}: every building sample has the same inputs (${point}), so no term's coefficient can be told from the constant's; expected samples that vary the inputs (the spec's loops)`);
  }
  if (relative) {
    const zero = m.building.filter((s) => s.y === 0).length;
    if (zero > 0) throw new ZeroTimesError(`${where}: ${plural(zero, 'building sample')} of 0 cycles, which --relative cannot weight (eq. 26 divides by the time); fit with absolute error instead`);
  }
}

/** Checks a fit's results are numbers (a design beyond double precision could give NaN or Infinity). */
function checkFitted(fit: FitResult, m: ModelSamples, source: string): void {
  const values = [...fit.coefficients, fit.rSquared, fit.mrePercent];
  if (values.some((v) => !Number.isFinite(v))) throw nonFinite(m, source, `coefficients ${fit.coefficients.join(', ')}, R^2 ${fit.rSquared}`);
}

/** fitModel of `m`'s building samples, a non-finite fit refused naming the file and the model. */
export function fitChecked(m: ModelSamples, relative: boolean, source: string): FitResult {
  let fit: FitResult;
  try {
    fit = fitModel(m.columns, m.building, relative);
  } catch (e) {
    if (e instanceof NonFiniteFit) throw nonFinite(m, source, `coefficients ${e.coefficients.join(', ')}`);
    throw e;
  }
  checkFitted(fit, m, source);
  return fit;
}

function nonFinite(m: ModelSamples, source: string, what: string): InputError {
  return new InputError(`${source}: model ${m.name} on ${m.platform}: the fit gave non-finite values (${what}); expected samples whose least-squares solution fits in double precision`);
}
