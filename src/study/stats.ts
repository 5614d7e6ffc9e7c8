/**
 * The few statistics the studies report: means, maxima and a Student-t 95%
 * confidence interval of a mean (the thesis's sort penalty, 4.5.4: "95% confidence
 * intervals for 12 samples"), and the grouping of rows they are computed over. Empty
 * inputs give null, never NaN.
 */
import jstat from 'jstat';

export function mean(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

export function max(xs: readonly number[]): number | null {
  return xs.length === 0 ? null : xs.reduce((a, b) => (b > a ? b : a));
}

/** The mean and the half-width of its 95% t-interval (null half-width for fewer than two values). */
export function meanInterval(xs: readonly number[]): { mean: number | null; halfWidth: number | null } {
  const m = mean(xs);
  if (m === null || xs.length < 2) return { mean: m, halfWidth: null };
  let ss = 0;
  for (const x of xs) ss += (x - m) ** 2;
  const sd = Math.sqrt(ss / (xs.length - 1));
  return { mean: m, halfWidth: jstat.jStat.studentt.inv(0.975, xs.length - 1) * (sd / Math.sqrt(xs.length)) };
}

/** A fraction as a percentage with `digits` decimals, or `-` for null. */
export const pct = (x: number | null | undefined, digits = 2): string => (x === null || x === undefined ? '-' : `${(x * 100).toFixed(digits)}%`);
/** Groups rows by a key, in first-seen order. */
export function groupBy<T>(rows: readonly T[], key: (r: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const r of rows) {
    const k = key(r);
    const g = m.get(k);
    if (g === undefined) m.set(k, [r]);
    else g.push(r);
  }
  return m;
}
