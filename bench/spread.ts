/**
 * The spread of a bench's results over seeds: a variant's mean and sample standard
 * deviation, and how far a ratio of two deviations can be trusted. Fig. 7-8's claim is
 * such a ratio (7.3.3: bandwidth matching "reduces the standard deviation by about a
 * factor of fifty"), and six seeds a side could not tell a cut of 4 from one of 10: the
 * F distribution puts the true ratio of two deviations from 6 runs each within a factor
 * of 2.2 either way of the measured one, 9 times in 10, and that for runs spread
 * normally, which these are not (a time slice falls into some runs and not others). So
 * the interval here is a percentile bootstrap over the seeds, which assumes nothing of
 * the runs' distribution, drawn from a fixed random stream: the same results print the
 * same interval.
 */
import { RandomStream } from '../src/kernel/random-stream.ts';

export interface Spread {
  mean: number;
  /** Sample standard deviation (n - 1); 0 for fewer than two values. */
  sd: number;
}

export function spread(v: readonly number[]): Spread {
  const mean = v.reduce((a, b) => a + b, 0) / v.length;
  const sd = v.length < 2 ? 0 : Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / (v.length - 1));
  return { mean, sd };
}

/** Resamples per interval: its ends move by about a percent from one stream to another. */
const RESAMPLES = 4000;
/** A deviation counted as at least this, so that a resample of equal values gives a large cut, not Infinity or NaN. */
const SD_FLOOR = 1e-9;

/**
 * How many times smaller the deviation of `after` is than that of `before` (the
 * "cut"), with its 90% percentile-bootstrap interval: each resample draws each side's
 * values with replacement, as many as it has, and the interval runs from the 5th to
 * the 95th percentile of the resamples' cuts.
 */
export function sdCut(before: readonly number[], after: readonly number[]): { cut: number; low: number; high: number } {
  if (before.length < 2 || after.length < 2) throw new Error(`sdCut: expected at least two values a side, got ${before.length} and ${after.length}`);
  const cut = (b: readonly number[], a: readonly number[]) => spread(b).sd / Math.max(spread(a).sd, SD_FLOOR);
  const random = new RandomStream(1, 'bench/sd-cut');
  const resample = (v: readonly number[]) => Array.from(v, () => v[random.int(v.length)]);
  const cuts = Array.from({ length: RESAMPLES }, () => cut(resample(before), resample(after))).sort((x, y) => x - y);
  return { cut: cut(before, after), low: cuts[Math.floor(0.05 * RESAMPLES)], high: cuts[Math.ceil(0.95 * RESAMPLES) - 1] };
}
