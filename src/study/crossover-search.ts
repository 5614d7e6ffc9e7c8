/**
 * Finding a measured crossover between two algorithms by bisection on keys per node
 * (thesis 4.5.4: "compared the algorithms empirically around the predicted crossover
 * points to determine the actual crossover points"). The search is replayed from the
 * measurements each time: it asks for the probes it lacks and stops there, so a study
 * can run each round's probes as one sweep and resume after an interrupt.
 *
 * From the predicted last key p of the left algorithm L: probe p and p + 1; if L wins
 * at both, step right by 2, 4, 8, ... keys until R wins (or the range ends); if L loses
 * at p, step left likewise until L wins (or key 1); then bisect to adjacent keys. The
 * actual crossover is the last key at which L was measured faster: 0 when R wins
 * from key 1, `top` when L wins to the end. A prediction of 0 (L never wins) probes
 * key 1 alone and, if L wins there, steps right from it like any other.
 */

/** Whether L was faster at k: true, false, undefined (not measured yet) or null (a run failed). */
export type Wins = (k: number) => boolean | undefined | null;

export type SearchState = { status: 'need'; probes: number[] } | { status: 'done'; actual: number } | { status: 'failed'; at: number };

export function searchCrossover(p: number, top: number, wins: Wins): SearchState {
  const first = [p, p + 1].filter((k) => k >= 1 && k <= top);
  const w0 = first.map(wins);
  const missing = first.filter((_, k) => w0[k] === undefined);
  if (missing.length > 0) return { status: 'need', probes: missing };
  const bad = first.find((_, k) => w0[k] === null);
  if (bad !== undefined) return { status: 'failed', at: bad };
  let lo: number;
  let hi: number;
  // Key 0 counts as won: a prediction that L never wins (p = 0) still measures key 1
  // and steps right from it if L wins there.
  const at = (k: number) => (k < 1 ? true : w0[first.indexOf(k)]);
  if (at(p) === true && (p + 1 > top || at(p + 1) === false)) return { status: 'done', actual: Math.max(0, p) };
  if (at(p) === true) {
    // L still wins at p + 1: the crossover lies to the right.
    lo = p + 1;
    for (let d = 2; ; d *= 2) {
      const q = Math.min(top, p + d);
      const w = wins(q);
      if (w === undefined) return { status: 'need', probes: [q] };
      if (w === null) return { status: 'failed', at: q };
      if (!w) {
        hi = q;
        break;
      }
      lo = q;
      if (q === top) return { status: 'done', actual: top };
    }
  } else {
    // L loses at p: the crossover lies to the left.
    hi = p;
    for (let d = 1; ; d *= 2) {
      const q = Math.max(1, p - d);
      if (q >= hi) return { status: 'done', actual: 0 };
      const w = wins(q);
      if (w === undefined) return { status: 'need', probes: [q] };
      if (w === null) return { status: 'failed', at: q };
      if (w) {
        lo = q;
        break;
      }
      hi = q;
      if (q === 1) return { status: 'done', actual: 0 };
    }
  }
  while (hi - lo > 1) {
    const m = Math.floor((lo + hi) / 2);
    const w = wins(m);
    if (w === undefined) return { status: 'need', probes: [m] };
    if (w === null) return { status: 'failed', at: m };
    if (w) lo = m;
    else hi = m;
  }
  return { status: 'done', actual: lo };
}
