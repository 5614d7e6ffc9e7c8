/**
 * Model fitting (thesis 3.6.2, Fig. 3-9): weighted least squares by singular-value
 * decomposition, 95% confidence intervals from the t-distribution, and iterative
 * removal of the least relevant term until every remaining term's interval excludes
 * zero. Relative-error fits weight each sample by w_i = y_i / mean(y) (eq. 26), so the
 * weights average 1 and the variance assumptions match the absolute-error fit (eq. 27).
 * SVD makes any set of basis functions work: a duplicated column gets half the
 * weight in each copy, the total matching a single copy (3.6.2).
 */
import jstat from 'jstat';
import { Matrix, SingularValueDecomposition } from 'ml-matrix';
import { InputError, kindOf } from '../kernel/errors.ts';

const { jStat } = jstat;

export interface Sample {
  /** The measured time. */
  y: number;
  /** The value of each basis function except the constant, in term order. */
  x: readonly number[];
}

export interface FitResult {
  /** "1" (the constant) and then the terms, as given. */
  terms: string[];
  /** One per term; zero for the terms found irrelevant. */
  coefficients: number[];
  /** 95% confidence half-widths (eq. 28); zero for irrelevant terms, Infinity for all of an exact fit (no degree of freedom). */
  halfWidths: number[];
  relevant: boolean[];
  rSquared: number;
  /** Mean relative error on the building samples (eq. 10), as a percentage: 2.3 means 1.023. */
  mrePercent: number;
  /** y - prediction for each building sample. */
  residuals: number[];
}

/**
 * The largest |value(item)| (0 for no items). A loop, not Math.max(...): a model can
 * have more samples than a call takes arguments (about 125,000 in Node 20).
 */
function largestAbs<T>(items: readonly T[], value: (item: T) => number): number {
  let largest = 0;
  for (const item of items) largest = Math.max(largest, Math.abs(value(item)));
  return largest;
}

/** Refuses what is not a list of finite numbers, naming the function and the argument. */
function checkNumbers(fn: string, what: string, values: unknown): asserts values is readonly number[] {
  if (!Array.isArray(values)) throw new InputError(`${fn}: expected ${what} as a list of numbers, got ${kindOf(values)}`);
  const bad = values.findIndex((v) => !Number.isFinite(v));
  // A string '3' was "is 3; expected a finite number".
  if (bad >= 0) throw new InputError(`${fn}: ${what}[${bad}] is ${typeof values[bad] === 'number' ? String(values[bad]) : `${kindOf(values[bad])} ${JSON.stringify(values[bad])}`}; expected a finite number`);
}

/** Singular values below this fraction of the largest are treated as zero. */
const SINGULAR_TOLERANCE = 1e-10;

/**
 * Eq. 10: the geometric mean of 1 + |error / y|, as a percentage above 1. A sample of
 * 0 cycles has no relative error, so it is left out (0 if none is left). Infinity when
 * an error overflows a double (a prediction of 1e300 for a time of 1e-300).
 */
export function mrePercent(ys: readonly number[], predictions: readonly number[]): number {
  // Exported: null was a TypeError, and lists of unequal length gave NaN.
  checkNumbers('mrePercent', 'the times', ys);
  checkNumbers('mrePercent', 'the predictions', predictions);
  if (ys.length !== predictions.length) throw new InputError(`mrePercent: ${ys.length} times and ${predictions.length} predictions; expected one prediction per time`);
  let logSum = 0;
  let counted = 0;
  for (let i = 0; i < ys.length; i++) {
    if (ys[i] === 0) continue;
    logSum += Math.log(1 + Math.abs((ys[i] - predictions[i]) / ys[i]));
    counted++;
  }
  return counted === 0 ? 0 : (Math.exp(logSum / counted) - 1) * 100;
}

/**
 * b0 + sum bk xk: the constant's coefficient first, then one per term value.
 * @throws InputError unless `x` has one value fewer than `coefficients` (a short x gave NaN, a long one was cut)
 */
/** A fit whose coefficients came out non-finite (sim fit names the file and the model: fitSamples). */
export class NonFiniteFit extends InputError {
  readonly coefficients: readonly number[];
  constructor(message: string, coefficients: readonly number[]) {
    super(message);
    this.coefficients = coefficients;
  }
}

/**
 * A fitted model's prediction at the term values `x`: the constant's coefficient plus
 * each term's times its value. Finite inputs can still overflow a double: the result is
 * then Infinity (or -Infinity), as IEEE arithmetic gives it.
 */
export function predict(coefficients: readonly number[], x: readonly number[]): number {
  checkNumbers('predict', 'the coefficients', coefficients);
  checkNumbers('predict', 'the term values', x);
  if (coefficients.length !== x.length + 1) {
    throw new InputError(`predict: ${coefficients.length} coefficients and ${x.length} term values; expected the constant's coefficient and one per term value (${x.length + 1} coefficients)`);
  }
  let y = coefficients[0];
  for (let k = 1; k < coefficients.length; k++) y += coefficients[k] * x[k - 1];
  return y;
}

/**
 * One weighted SVD fit over the columns marked relevant: coefficients and their variances
 * (svdfit, svdvar). Each column is scaled to a largest magnitude of 1 first, and its
 * coefficient and variance scaled back (column equilibration), so that the singular-value
 * cut-off judges the columns' directions, not their units: unscaled, a term of 10^12
 * cycles (x^3 at x = 10^4) put the constant's singular value below the cut-off, and a
 * constant of 1000 cycles +- 10 was zeroed, then dropped as irrelevant. svdfit, which the
 * thesis used, does not scale; scaling serves what 3.6.2 and 3.7 chose SVD for, robustness
 * to the basis functions a user writes. Collinear columns (1 and logP at one machine size)
 * now contribute equally to a prediction, where unscaled each contributed in proportion to
 * its squared length; the predictions are the same.
 */
function svdFit(rows: number[][], ys: readonly number[], weights: readonly number[], relevant: readonly boolean[]) {
  const columns = relevant.flatMap((r, k) => (r ? [k] : []));
  const weighted = rows.map((row, i) => columns.map((k) => row[k] / weights[i]));
  // A largest magnitude rather than a length, which squares the values (past 10^154, Infinity).
  // An all-zero column stays as it is: its singular value is zero whatever its scale.
  const scales = columns.map((_, j) => largestAbs(weighted, (row) => row[j]) || 1);
  const a = new Matrix(weighted.map((row) => row.map((v, j) => v / scales[j])));
  const b = Matrix.columnVector(ys.map((y, i) => y / weights[i]));
  const svd = new SingularValueDecomposition(a, { autoTranspose: true });
  const s = svd.diagonal;
  const u = svd.leftSingularVectors;
  const v = svd.rightSingularVectors;
  const smax = Math.max(...s);
  const coef = new Array<number>(relevant.length).fill(0);
  const variance = new Array<number>(relevant.length).fill(0);
  columns.forEach((k, j) => {
    let beta = 0;
    let varSum = 0;
    for (let q = 0; q < s.length; q++) {
      if (s[q] <= smax * SINGULAR_TOLERANCE) continue;
      let utb = 0;
      for (let i = 0; i < rows.length; i++) utb += u.get(i, q) * b.get(i, 0);
      beta += (v.get(j, q) * utb) / s[q];
      varSum += (v.get(j, q) / s[q]) ** 2;
    }
    coef[k] = beta / scales[j];
    variance[k] = varSum / scales[j] ** 2;
  });
  return { coef, variance };
}

/**
 * Fits y = b0 + sum bk xk to `samples`, removing irrelevant terms one at a time
 * (Fig. 3-9). `relative` minimizes relative rather than absolute error.
 */
export function fitModel(termNames: readonly string[], samples: readonly Sample[], relative: boolean): FitResult {
  // Exported: what would make the fit NaN is refused (a sample of NaN, of too few x, or of
  // 0 cycles under relative error gave NaN coefficients and no error). How many samples a
  // fit needs to judge its terms is sim fit's check (checkFittable): the studies' in-sample
  // ceilings fit exactly, with none to spare, on purpose, or with fewer samples than
  // unknowns (SVD's least-norm solution, 3.6.2); such a fit's half-widths say so: Infinity.
  // fitModel(null, ...) was a TypeError.
  if (!Array.isArray(termNames) || !termNames.every((t) => typeof t === 'string')) throw new InputError(`fitModel: expected the term names as a list of strings, got ${kindOf(termNames)}`);
  if (!Array.isArray(samples) || samples.length === 0) throw new InputError('fitModel: expected a non-empty list of samples { y, x }');
  if (typeof relative !== 'boolean') throw new InputError(`fitModel: expected relative to be true or false, got ${kindOf(relative)}`);
  const m = termNames.length;
  const n = samples.length;
  samples.forEach((s, i) => {
    const ok = typeof s === 'object' && s !== null && Number.isFinite(s.y) && Array.isArray(s.x) && s.x.length === m && s.x.every(Number.isFinite);
    if (!ok) throw new InputError(`fitModel: sample ${i} is not { y, x } with a finite y and ${m} finite x (one per term: ${termNames.join(', ')})`);
  });
  // Eq. 26 weights each sample by its time.
  if (relative && samples.some((s) => s.y === 0)) throw new InputError('fitModel: a sample of 0 cycles, which a fit of relative error cannot weight; expected samples of more than 0 cycles, or relative false');
  const rows = samples.map((s) => [1, ...s.x]);
  const ys = samples.map((s) => s.y);
  const mean = ys.reduce((a, b) => a + b, 0) / n;
  const weights = relative ? ys.map((y) => y / mean) : ys.map(() => 1);
  const relevant = new Array<boolean>(m + 1).fill(true);
  for (;;) {
    const r = relevant.filter(Boolean).length;
    const { coef, variance } = svdFit(rows, ys, weights, relevant);
    // A design beyond double precision (terms of 1e-320, times of 1e15 over them): it was "predict:
    // the coefficients[1] is Infinity", naming neither the fit nor, in sim fit, the file or model.
    if (!coef.every(Number.isFinite)) throw new NonFiniteFit(`fitModel: the fit gave non-finite coefficients (${coef.join(', ')}); expected samples whose least-squares solution fits in double precision`, coef);
    // Eq. 12 on the weighted residuals: the estimated variance, with n - r degrees of freedom.
    let chi2 = 0;
    for (let i = 0; i < n; i++) chi2 += ((ys[i] - predict(coef, samples[i].x)) / weights[i]) ** 2;
    const dof = n - r;
    const v = dof > 0 ? chi2 / dof : 0;
    const t = dof > 0 ? jStat.studentt.inv(0.975, dof) : Infinity;
    // With no degree of freedom (an exact fit) nothing bounds a coefficient: Infinity (t x 0 was NaN).
    const half = coef.map((_, k) => (!relevant[k] ? 0 : dof > 0 ? t * Math.sqrt(v * variance[k]) : Infinity));
    // A term whose contribution is below rounding everywhere is irrelevant even when an
    // exact fit leaves no variance to judge it by (the simulator's clock is exact).
    const yScale = Math.max(largestAbs(ys, (y) => y), 1e-300);
    const negligible = coef.map((c, k) => relevant[k] && largestAbs(rows, (row) => c * row[k]) < 1e-9 * yScale);
    // Eq. 30: the least relevant term has the smallest |beta / h|; with no spare degrees of freedom nothing is judged.
    let worst = -1;
    let worstRatio = Infinity;
    for (let k = 0; k <= m; k++) {
      if (!relevant[k]) continue;
      const ratio = negligible[k] ? 0 : half[k] === 0 ? Infinity : Math.abs(coef[k] / half[k]);
      if (ratio < worstRatio) {
        worstRatio = ratio;
        worst = k;
      }
    }
    if (worst < 0 || worstRatio > 1 || r === 1 || dof <= 0) {
      const predictions = samples.map((s) => predict(coef, s.x));
      // R^2 is the coefficient of determination on the measured times, unweighted:
      // 1 - SS_res / SS_tot, SS_tot about their mean (the general definition: Wikipedia,
      // "Coefficient of determination"; scikit-learn's r2_score, "it can be negative (because
      // the model can be arbitrarily worse)", https://scikit-learn.org/1.3/modules/generated/sklearn.metrics.r2_score.html).
      // It is at least 0 only for a fit that minimizes SS_res, the absolute-error one. A
      // relative-error fit (eq. 26) minimizes the weighted residuals instead, so its R^2 can be
      // below 0, truly: a constant-only model's constant is then sum(1/y) / sum(1/y^2), not
      // the mean, and its R^2 is below 0 whenever the times differ (times 10 and 100: -0.96).
      // The weighted R^2 would be 0 there, but it would be a statistic of the weighted times.
      const ssTot = ys.reduce((a, y) => a + (y - mean) ** 2, 0);
      const ssRes = ys.reduce((a, y, i) => a + (y - predictions[i]) ** 2, 0);
      return {
        terms: ['1', ...termNames],
        coefficients: coef,
        halfWidths: half,
        relevant: [...relevant],
        rSquared: ssTot === 0 ? 1 : 1 - ssRes / ssTot,
        mrePercent: mrePercent(ys, predictions),
        residuals: ys.map((y, i) => y - predictions[i]),
      };
    }
    relevant[worst] = false;
  }
}
