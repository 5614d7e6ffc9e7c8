/**
 * Radix sort's digit width (thesis 5.3, eqs. 42-44, Figs. 5-3 to 5-5). The naive
 * composite f(bpd) = Radix(keys, bpd, width) has several minima, because ceil(width /
 * bpd) passes fall in steps (at 28-bit keys, 9-bit digits need 4 passes and 10-bit
 * digits 3). Parameterized by the number of passes i instead, the best width for i
 * passes is ceil(width / i) (eq. 43) and g(i) = Radix(keys, ceil(width/i), width)
 * (eq. 44) has one minimum. g is evaluated only on the viable pass counts, those with
 * ceil(W / ceil(W / i)) = i (selection.md 4.3: otherwise several i give the same
 * digit and g has flat steps that stall a bisection).
 */
import { integerMinimum, localMinima, minimize } from './optimize.ts';

/** The viable pass counts for `width`-bit keys whose digit ceil(width/i) lies in [lo, hi], fewest passes last. */
export function viablePasses(width: number, lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let i = 1; i <= width; i++) {
    const bpd = Math.ceil(width / i);
    if (Math.ceil(width / bpd) === i && bpd >= lo && bpd <= hi) out.push(i);
  }
  return out;
}

export interface DigitChoice {
  digitBits: number;
  passes: number;
  /** IntegerMinimum's steps over the viable pass counts. */
  steps: number;
  /** The local minima of the naive f(bpd) over [lo, hi] (Fig. 5-5). */
  naiveMinima: number[];
  /** Where IntegerMinimum on the naive f would have stopped. */
  naiveBisection: number;
  /** True when bisection over g disagreed with enumerating g (g had several minima). */
  disagree: boolean;
}

/**
 * The digit width minimizing `radix(bpd)` for `width`-bit keys over digits [lo, hi],
 * by eq. 44 over the viable pass counts.
 */
export function bestDigitBits(width: number, lo: number, hi: number, radix: (bpd: number) => number): DigitChoice {
  const passes = viablePasses(width, lo, hi);
  if (passes.length === 0) throw new RangeError(`no digit width from ${lo} to ${hi} bits for ${width}-bit keys`);
  const g = (k: number) => radix(Math.ceil(width / passes[k]));
  const found = minimize(0, passes.length - 1, g);
  const i = passes[found.value];
  return {
    digitBits: Math.ceil(width / i),
    passes: i,
    steps: found.bisection.steps,
    naiveMinima: localMinima(lo, hi, radix),
    naiveBisection: integerMinimum(lo, hi, radix).value,
    disagree: found.disagree,
  };
}
