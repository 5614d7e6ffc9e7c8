/**
 * Grid sizes for the stencil studies (thesis 4.4.2): log-uniform sizes, and sizes
 * concentrated along the boundaries of the predicted-winner map (Fig. 4-7), which the
 * thesis did at 64 nodes ("concentrated ... along the boundaries in the prediction
 * graph", a conservative estimate of accuracy). A boundary is where the selector's
 * choice changes as one dimension moves with the other fixed; its position is the
 * midpoint of the two integers on either side. Every draw comes from a RandomStream
 * named by the study, platform and machine size, so sizes never depend on anything
 * else.
 */
import type { RandomStream } from '../kernel/random-stream.ts';
import { select, type LibraryModule, type SelectContext } from '../library/module.ts';
import { STENCIL_MODULE } from '../library/stencil-module.ts';

export interface Grid {
  width: number;
  height: number;
}

/** The selector's choice by grid size at fixed iterations, memoized. */
export type Winner = (width: number, height: number) => string;

/** The selector's winner function, among `layouts` only when given (the thesis's module had three). */
export function winnerFunction(ctx: SelectContext, iters: number, layouts?: readonly string[]): Winner {
  const mod: LibraryModule = layouts === undefined ? STENCIL_MODULE : { ...STENCIL_MODULE, variants: STENCIL_MODULE.variants.filter((v) => layouts.includes(v.name)) };
  const memo = new Map<number, string>();
  return (width, height) => {
    const key = width * 65536 + height;
    let v = memo.get(key);
    if (v === undefined) {
      v = select(mod, { width, height, iters }, ctx, {}, [], false).variant;
      memo.set(key, v);
    }
    return v;
  };
}

/** An integer log-uniform in [lo, hi]. */
export function logUniform(random: RandomStream, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, Math.round(lo * (hi / lo) ** random.float())));
}

export type Axis = 'width' | 'height';

/** A predicted boundary found from a point: where along which axis, and the layouts on either side. */
export interface Boundary {
  axis: Axis;
  /** Midpoint of the last integer with the point's winner and the first with another. */
  at: number;
  from: string;
  to: string;
  /** |at - v| / v, v the point's coordinate on the axis. */
  distance: number;
}

/**
 * The first boundary from (w, h) along `axis` in direction `dir` (+1 grows), stepping
 * by 3% (at least one line) then bisecting to the integer, within [lo, hi] and, when
 * `cap` is given, within a relative distance of `cap`.
 */
export function boundaryAlong(winner: Winner, g: Grid, axis: Axis, dir: 1 | -1, lo: number, hi: number, cap = Infinity): Boundary | null {
  const v0 = g[axis];
  const at = (v: number) => (axis === 'width' ? winner(v, g.height) : winner(g.width, v));
  const from = at(v0);
  let prev = v0;
  for (let k = 1; ; k++) {
    let next = Math.round(v0 * 1.03 ** (dir * k));
    next = dir > 0 ? Math.max(prev + 1, next) : Math.min(prev - 1, next);
    if (next < lo || next > hi || Math.abs(next - v0) / v0 > cap * 1.03 + 1e-9) return null;
    if (at(next) !== from) {
      // prev has the winner `from`, next has another: bisect to adjacent integers.
      let same = prev;
      let other = next;
      while (Math.abs(other - same) > 1) {
        const mid = Math.trunc((same + other) / 2);
        if (at(mid) === from) same = mid;
        else other = mid;
      }
      const b = (same + other) / 2;
      const distance = Math.abs(b - v0) / v0;
      if (distance > cap) return null;
      return { axis, at: b, from, to: at(other), distance };
    }
    prev = next;
  }
}

/** The nearest boundary from (w, h) along either axis within relative distance `cap`, or null. */
export function nearestBoundary(winner: Winner, g: Grid, lo: number, hi: number, cap: number): Boundary | null {
  let best: Boundary | null = null;
  for (const axis of ['width', 'height'] as const) {
    for (const dir of [1, -1] as const) {
      const b = boundaryAlong(winner, g, axis, dir, lo, hi, cap);
      if (b !== null && (best === null || b.distance < best.distance)) best = b;
    }
  }
  return best;
}

export interface DrawnGrid extends Grid {
  kind: 'boundary' | 'uniform';
}

/**
 * `count` distinct grids in [lo, hi]²: round(count x nearShare) within `spread` (a
 * fraction, 0.15 for 15%) of a predicted boundary along one axis, the rest
 * log-uniform. A near-boundary grid starts from a log-uniform point, walks along a
 * random axis and direction to the first boundary (trying the other directions when
 * there is none), and lands uniformly within +-spread of it.
 */
export function drawGrids(random: RandomStream, winner: Winner, count: number, nearShare: number, spread: number, lo: number, hi: number): DrawnGrid[] {
  const near = Math.round(count * nearShare);
  const out: DrawnGrid[] = [];
  const seen = new Set<number>();
  const push = (g: DrawnGrid): boolean => {
    const key = g.width * 65536 + g.height;
    if (seen.has(key)) return false;
    seen.add(key);
    out.push(g);
    return true;
  };
  // A small range may hold fewer distinct grids than asked for: give up after many repeats.
  let tries = 0;
  const limit = 1000 * count + 1000;
  while (out.length < near && tries++ < limit) {
    const start = { width: logUniform(random, lo, hi), height: logUniform(random, lo, hi) };
    const first = random.int(4);
    const directions: [Axis, 1 | -1][] = [['width', 1], ['width', -1], ['height', 1], ['height', -1]];
    let b: Boundary | null = null;
    for (let k = 0; k < 4 && b === null; k++) {
      const [axis, dir] = directions[(first + k) % 4];
      b = boundaryAlong(winner, start, axis, dir, lo, hi);
    }
    const u = random.float();
    if (b === null) continue;
    const v = Math.min(hi, Math.max(lo, Math.round(b.at * (1 + spread * (2 * u - 1)))));
    push({ ...start, [b.axis]: v, kind: 'boundary' });
  }
  while (out.length < count && tries++ < limit) {
    push({ width: logUniform(random, lo, hi), height: logUniform(random, lo, hi), kind: 'uniform' });
  }
  return out;
}
