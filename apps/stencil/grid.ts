/**
 * The stencil's virtual grid and its layouts (thesis 4.4, 5.2), independent of the
 * simulator: the initial values, the red-black SOR update every version shares
 * (eq. 31), the sequential reference solve, a node's block and the loops over it,
 * and how a layout partitions the grid among processors.
 *
 * The grid has `width` columns (x) and `height` rows (y) and is stored column-major,
 * as in the thesis: element (x, y) is at x * height + y, so a column is contiguous.
 * Boundary conditions are fixed (Dirichlet) on the outer ring: the top row (y = 0)
 * is 1, the bottom row 0, and the left and right columns fall linearly from 1 to 0
 * down the grid. Interior points start uniformly random in [0, 1) from the run seed.
 * A point (x, y) is red when x + y is even; each iteration updates the red interior
 * points, then the black ones.
 */

export interface Grid {
  width: number;
  height: number;
  values: Float64Array;
}

export type Layout = 'square' | 'vstrips' | 'hstrips' | 'uni' | 'rect';

/** The boundary value at row y of the outer ring. */
function boundaryValue(y: number, height: number): number {
  if (y === 0) return 1;
  if (y === height - 1) return 0;
  return 1 - y / (height - 1);
}

/** The initial grid; `random()` gives the interior values in [0, 1). */
export function initialGrid(width: number, height: number, random: () => number): Grid {
  const values = new Float64Array(width * height);
  for (let x = 0; x < width; x++) {
    for (let y = 0; y < height; y++) {
      const edge = x === 0 || y === 0 || x === width - 1 || y === height - 1;
      values[x * height + y] = edge ? boundaryValue(y, height) : random();
    }
  }
  return { width, height, values };
}

/**
 * Eq. 31 for one point: omega x (north + south + east + west) / 4 + (1 - omega) x old.
 * Every version calls this, so parallel and sequential results agree bit for bit.
 */
export function relax(omega: number, old: number, north: number, south: number, east: number, west: number): number {
  return omega * 0.25 * (north + south + east + west) + (1 - omega) * old;
}

/**
 * The reference: red-black SOR of the whole grid on one processor for `iters`
 * iterations, stopping early once an iteration's largest change (rounded to a float,
 * as the parallel version's max-reduction carries it) is below `tolerance`.
 * Returns the iterations done.
 */
export function solveSequential(grid: Grid, omega: number, iters: number, tolerance: number): number {
  const { width: W, height: H, values: u } = grid;
  for (let it = 0; it < iters; it++) {
    let maxDelta = 0;
    for (let color = 0; color < 2; color++) {
      for (let x = 1; x < W - 1; x++) maxDelta = relaxColumn(u, x * H, 1 + ((x + 1 + color) & 1), H - 2, H, omega, maxDelta);
    }
    if (Math.fround(maxDelta) < tolerance) return it + 1;
  }
  return iters;
}

/**
 * Relaxes every other point of one column, rows `first`, first + 2, ... up to `last`
 * (the column starts at index `base`, its neighbours `stride` away); returns the
 * larger of `maxDelta` and the largest change.
 */
export function relaxColumn(u: Float64Array, base: number, first: number, last: number, stride: number, omega: number, maxDelta: number): number {
  for (let y = first; y <= last; y += 2) {
    const i = base + y;
    const v = relax(omega, u[i], u[i - 1], u[i + 1], u[i + stride], u[i - stride]);
    const d = Math.abs(v - u[i]);
    if (d > maxDelta) maxDelta = d;
    u[i] = v;
  }
  return maxDelta;
}

// ---- a node's block ------------------------------------------------------------
// A node keeps its block column-major with a one-point ghost ring: column lx at
// lx * hh, hh = h + 2. Its loops, like the reference solve's, are small functions of
// their own, a column at a time: V8 optimizes a function once it has been called a few
// times, where a long loop inside one call (or inside the app's main generator) runs
// unoptimized until the engine replaces it mid-run. The results are the same, bit for
// bit (the same operations in the same order); the default run, `sim --platform alewife
// apps/stencil`, takes 0.96x the time as a whole process.

/** Where a node's block lies in the grid, and the grid's size. */
export interface BlockPlace {
  /** Columns and rows of the block (without the ghost ring). */
  w: number;
  h: number;
  /** The grid column and row of the block's first point. */
  x0: number;
  y0: number;
  /** The grid's width and height. */
  W: number;
  H: number;
}

/** What one update did: the points updated and the largest change. */
export interface UpdateResult {
  points: number;
  maxDelta: number;
}

/**
 * Eq. 31 on the block's interior points of `color` (a point (x, y) is red, 0, when
 * x + y is even), column by column, skipping the grid's fixed outer ring.
 */
export function updateBlock(local: Float64Array, b: BlockPlace, color: number, omega: number): UpdateResult {
  const hh = b.h + 2;
  let maxDelta = 0;
  let points = 0;
  for (let lx = 1; lx <= b.w; lx++) {
    const x = b.x0 + lx - 1;
    if (x === 0 || x === b.W - 1) continue;
    // Interior rows only: 1 <= y <= H - 2, where y = y0 + ly - 1.
    let ly = Math.max(1, 2 - b.y0);
    if (((x + b.y0 + ly - 1) & 1) !== color) ly++;
    const yEnd = Math.min(b.h, b.H - 1 - b.y0);
    if (ly > yEnd) continue;
    maxDelta = relaxColumn(local, lx * hh, ly, yEnd, hh, omega, maxDelta);
    points += ((yEnd - ly) >> 1) + 1;
  }
  return { points, maxDelta };
}

/**
 * The first block column (1-based) of row `ly` whose point has colour `color`: block
 * column lx is grid column x0 + lx - 1, and (x, y) has colour (x + y) & 1.
 */
export function firstOfColour(b: BlockPlace, ly: number, color: number): number {
  return 1 + ((b.x0 + b.y0 + ly - 1 + color) & 1);
}

/**
 * Copies the points of row `ly` in columns first, first + 2, ... up to w (one colour of
 * an edge row, to send) into `row`; returns how many.
 */
export function gatherRow(local: Float64Array, hh: number, w: number, ly: number, first: number, row: Float64Array): number {
  let n = 0;
  for (let lx = first; lx <= w; lx += 2) row[n++] = local[lx * hh + ly];
  return n;
}

/** Copies `row` into row `ly`'s columns first, first + 2, ... up to w (a neighbour's edge of one colour into the ghost ring); returns how many. */
export function scatterRow(local: Float64Array, hh: number, w: number, ly: number, first: number, row: Float64Array): number {
  let n = 0;
  for (let lx = first; lx <= w; lx += 2) local[lx * hh + ly] = row[n++];
  return n;
}

/** How a layout splits the grid: processor columns (px) by processor rows (py). */
export interface Partition {
  px: number;
  py: number;
  /** Columns of each processor column, left to right. */
  widths: number[];
  /** Rows of each processor row, top to bottom. */
  heights: number[];
}

/** The processor grid for `layout` on `nodes` processors (uni: 1 x 1 on node 0). */
export function processorGrid(layout: Layout, nodes: number, aspect: number): { px: number; py: number } {
  switch (layout) {
    case 'uni':
      return { px: 1, py: 1 };
    case 'vstrips':
      return { px: nodes, py: 1 };
    case 'hstrips':
      return { px: 1, py: nodes };
    default: {
      // The factorization px x py = nodes whose ratio px / py is closest to the target.
      const target = layout === 'square' ? 1 : aspect;
      let best = { px: nodes, py: 1 };
      for (let py = 1; py <= nodes; py++) {
        if (nodes % py !== 0) continue;
        const px = nodes / py;
        if (Math.abs(Math.log(px / py / target)) < Math.abs(Math.log(best.px / best.py / target)) - 1e-12) best = { px, py };
      }
      return best;
    }
  }
}

/**
 * Splits `total` lines among `parts` processors, the first and last getting `extra`
 * more than the others (thesis 5.2: boundary processors communicate less); the rest
 * is spread one each from the left. Returns null when some part would be empty.
 */
export function split(total: number, parts: number, extra: number): number[] | null {
  if (parts === 1) return [total];
  const base = Math.floor((total - 2 * extra) / parts);
  if (base < 1) return null;
  // Plain loops: the stencil models' critical chain splits hundreds of thousands of
  // grids while a study plans (src/calibrate/stencil-chain.ts).
  const sizes: number[] = [];
  let left = total;
  for (let i = 0; i < parts; i++) {
    const size = base + (i === 0 || i === parts - 1 ? extra : 0);
    sizes.push(size);
    left -= size;
  }
  for (let i = 0; left > 0; i = (i + 1) % parts, left--) sizes[i]++;
  return sizes;
}

/** The layout's partition of a width x height grid, or a reason it cannot be used. */
export function partition(
  layout: Layout,
  nodes: number,
  width: number,
  height: number,
  aspect: number,
  extraCols: number,
  extraRows: number,
): Partition | string {
  if (width < 3 || height < 3) return `a ${width} x ${height} grid has no interior; expected at least 3 x 3`;
  const { px, py } = processorGrid(layout, nodes, aspect);
  const widths = split(width, px, extraCols);
  const heights = split(height, py, extraRows);
  if (widths === null) {
    return `layout ${layout} puts ${px} processors across ${width} columns${extraCols > 0 ? ` with ${extraCols} extra on each edge` : ''}; expected at least one column each`;
  }
  if (heights === null) {
    return `layout ${layout} puts ${py} processors down ${height} rows${extraRows > 0 ? ` with ${extraRows} extra on each edge` : ''}; expected at least one row each`;
  }
  return { px, py, widths, heights };
}

/** Directions a node's neighbours lie in, in the order a node sends its edges (index.ts sendEdges). */
export const LEFT = 0;
export const RIGHT = 1;
export const UP = 2;
export const DOWN = 3;

/** Node `node`'s neighbour in direction d on a processor grid px wide of `nodes` nodes (row by row), or -1. */
export function neighbourOf(node: number, d: number, px: number, nodes: number): number {
  const ix = node % px;
  if (d === LEFT) return ix > 0 ? node - 1 : -1;
  if (d === RIGHT) return ix < px - 1 ? node + 1 : -1;
  if (d === UP) return node >= px ? node - px : -1;
  return node + px < nodes ? node + px : -1;
}

/** Prefix sums: where each part starts. */
export function starts(sizes: readonly number[]): number[] {
  const out = [0];
  for (const s of sizes) out.push(out[out.length - 1] + s);
  return out;
}
