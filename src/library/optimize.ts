/**
 * Integer parameter optimization (thesis 5.1): the two procedures the thesis gives
 * designers, with exactly its contracts, and exhaustive enumeration to check them.
 *
 *   IntegerRoot(bottom, top, f)     "finds the root of f in the interval [bottom, top].
 *     If there is no root in the given range, then the root finder returns bottom-1 if
 *     the curve is strictly negative, and top+1 if the curve is strictly positive."
 *   IntegerMinimum(bottom, top, f)  "finds the minimum of f in the interval [bottom,
 *     top] ... although it may be one of the endpoints" — binary search using the
 *     numerical derivative at each point to tell which half holds the minimum.
 *
 * Both assume one root or one minimum (5.5); a root is returned rounded down (the
 * last integer on bottom's side of the sign change, Table 5-1's "correct (when
 * rounded down)"). Each counts its bisection steps (5.4: [0, 100] took 8 iterations
 * on the CM-5, [0, 20] took 5). minimize() runs both the bisection and enumeration
 * and reports when they disagree, which flags a composite with several minima (the
 * naive digit-width curve of eq. 42, Fig. 5-5).
 */

export interface Found {
  value: number;
  /** Bisection steps taken (the thesis's "iterations inside the root finder"). */
  steps: number;
}

function checkRange(bottom: number, top: number): void {
  if (!Number.isInteger(bottom) || !Number.isInteger(top) || bottom > top) throw new RangeError(`expected integers bottom <= top, got [${bottom}, ${top}]`);
}

/** IntegerRoot (5.1); see the file comment for the contract. */
export function integerRoot(bottom: number, top: number, f: (x: number) => number): Found {
  checkRange(bottom, top);
  const fb = f(bottom);
  if (fb === 0) return { value: bottom, steps: 0 };
  const side = Math.sign(fb);
  const ft = f(top);
  if (Math.sign(ft) === side) return { value: side < 0 ? bottom - 1 : top + 1, steps: 0 };
  // f(lo) has bottom's sign; f(hi) is zero or the other sign.
  let lo = bottom;
  let hi = top;
  let fhi = ft;
  let steps = 0;
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    const fm = f(mid);
    steps++;
    if (Math.sign(fm) === side) lo = mid;
    else {
      hi = mid;
      fhi = fm;
    }
  }
  return { value: fhi === 0 ? hi : lo, steps };
}

/** IntegerMinimum (5.1): the first point where f stops falling; an endpoint if f only rises or only falls. */
export function integerMinimum(bottom: number, top: number, f: (x: number) => number): Found {
  checkRange(bottom, top);
  let lo = bottom;
  let hi = top;
  let steps = 0;
  while (lo < hi) {
    const m = lo + Math.floor((hi - lo) / 2);
    steps++;
    if (f(m + 1) < f(m)) lo = m + 1;
    else hi = m;
  }
  return { value: lo, steps };
}

/** The smallest f over [bottom, top] by trying every point; ties go to the smaller x. */
export function enumerateMinimum(bottom: number, top: number, f: (x: number) => number): number {
  checkRange(bottom, top);
  let best = bottom;
  let bestF = f(bottom);
  for (let x = bottom + 1; x <= top; x++) {
    const fx = f(x);
    if (fx < bestF) {
      best = x;
      bestF = fx;
    }
  }
  return best;
}

/** Points strictly below both neighbours (an endpoint needs only its one neighbour). */
export function localMinima(bottom: number, top: number, f: (x: number) => number): number[] {
  checkRange(bottom, top);
  const ys = Array.from({ length: top - bottom + 1 }, (_, k) => f(bottom + k));
  return ys.flatMap((y, k) => ((k === 0 || y < ys[k - 1]) && (k === ys.length - 1 || y < ys[k + 1]) ? [bottom + k] : []));
}

export interface Minimized {
  /** The enumerated minimum: the answer used. */
  value: number;
  /** What IntegerMinimum's bisection found, and its steps. */
  bisection: Found;
  /** True when the bisection missed the enumerated minimum's value (a composite with several minima). */
  disagree: boolean;
}

/**
 * The minimum of f over a small range by enumeration, with IntegerMinimum's answer
 * beside it; they disagree only when f has several minima (then enumeration is right).
 */
export function minimize(bottom: number, top: number, f: (x: number) => number): Minimized {
  const bisection = integerMinimum(bottom, top, f);
  const value = enumerateMinimum(bottom, top, f);
  return { value, bisection, disagree: f(bisection.value) !== f(value) };
}
