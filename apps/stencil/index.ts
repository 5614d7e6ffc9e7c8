/**
 * stencil: 2-D red-black successive over-relaxation (thesis 4.4, eq. 31) on a
 * `width` x `height` virtual grid, for `iters` iterations or until the largest change
 * in an iteration (a global max-reduction each iteration) falls below `tolerance`.
 *
 * Layouts (thesis Fig. 4-6, 5.2): `square` (a near-square processor grid), `vstrips`,
 * `hstrips`, `uni` (everything on node 0) and `rect` (a processor grid of aspect ratio
 * `aspect`); boundary processors take `extraCols` / `extraRows` more grid lines.
 * Each node keeps its block column-major with a one-point ghost ring. After each
 * half-iteration it sends its updated edges to its neighbours by Strata block
 * transfer: columns go whole, straight from the block (they are contiguous: "a single
 * block transfer to move the entire boundary region", 4.4); rows are strided, so only
 * the points of the colour just updated are gathered into a buffer and sent, and the
 * receiver scatters them (eq. 38's row edge, "divided by two because of red-black
 * ordering", 5.2.1; the other colour's ghost points have not changed since the last
 * half-iteration sent them).
 * Each node has one port per neighbour and half-iteration parity, so a neighbour
 * one half-iteration ahead cannot disturb the current one. Computation is charged
 * from the platform's CPU table per point updated.
 *
 * Verification: the final grid equals, bit for bit, a sequential red-black SOR of the
 * same initial grid (grid.ts documents it) with the same number of iterations.
 */
import { CompositeOp, defineApp, State, type Op } from '../../src/runtime/index.ts';
import { COLUMN_OPS, POINT_OPS, ROW_COPY_OPS, rowPointsOfColour } from './costs.ts';
import { DOWN, firstOfColour, gatherRow, initialGrid, LEFT, neighbourOf, partition, RIGHT, scatterRow, solveSequential, starts, UP, updateBlock, type BlockPlace, type Grid, type Layout, type Partition } from './grid.ts';

/** Largest grid, in points (see check); the shipped experiments stay within 4096 x 4096 (2^24). */
const MAX_POINTS = 1 << 26;

/** Why the host cannot hold a width x height grid (see check), or null; the stencil module asks it too. */
export function gridSizeProblem(width: number, height: number): string | null {
  if (width * height <= MAX_POINTS) return null;
  return `a ${width} x ${height} grid has ${width * height} points; the simulator holds 32 bytes of host memory per point, so expected width x height at most ${MAX_POINTS} (2^26, 2 GiB)`;
}

interface Input {
  grid: Grid;
  part: Partition;
  colStarts: number[];
  rowStarts: number[];
}

interface Result {
  x0: number;
  y0: number;
  w: number;
  h: number;
  /** The node's block after the last iteration, column-major (w x h). */
  block: Float64Array;
  iterations: number;
  cycles: number;
}

// Data from direction d (grid.ts LEFT, RIGHT, UP, DOWN) lands in port 2d + parity.

/** State-graph state while sending edges (Busy while updating, Idle while waiting). */
const SENDING = 8;

export default defineApp({
  name: 'stencil',
  states: { [SENDING]: 'Send edges' },
  description: 'red-black SOR on a 2-D grid with a choice of data layouts (thesis 4.4)',
  params: {
    width: { type: 'int', default: 256, min: 3, max: 1 << 16, doc: 'grid columns' },
    height: { type: 'int', default: 256, min: 3, max: 1 << 16, doc: 'grid rows' },
    iters: { type: 'int', default: 20, min: 1, max: 1 << 20, doc: 'iterations (red + black) at most' },
    tolerance: { type: 'float', default: 0, min: 0, doc: 'stop once an iteration changes no point by this much (0: run all iters)' },
    layout: { type: 'enum', values: ['square', 'vstrips', 'hstrips', 'uni', 'rect'], default: 'square', doc: 'data layout (thesis Fig. 4-6)' },
    aspect: { type: 'float', default: 4, min: 1 / 4096, max: 4096, doc: 'rect: processor columns per processor row' },
    extraCols: { type: 'int', default: 0, min: 0, doc: 'extra columns for the leftmost and rightmost processors (thesis 5.2)' },
    extraRows: { type: 'int', default: 0, min: 0, doc: 'extra rows for the top and bottom processors (thesis 5.2)' },
    omega: { type: 'float', default: 1.87, min: 1, max: 2, doc: 'over-relaxation factor (thesis 4.4: 1.87)' },
  },
  check(p, machine) {
    // The simulator holds the grid four times in the host's memory (the input, the
    // nodes' blocks, their results and the sequential reference: 32 bytes a point), so
    // a grid the host cannot hold is refused here instead of failing to allocate.
    const size = gridSizeProblem(p.width, p.height);
    if (size !== null) return size;
    const part = partition(p.layout as Layout, machine.nodes, p.width, p.height, p.aspect, p.extraCols, p.extraRows);
    return typeof part === 'string' ? part : null;
  },
  setup({ params, machine, random }): Input {
    const part = partition(params.layout as Layout, machine.nodes, params.width, params.height, params.aspect, params.extraCols, params.extraRows) as Partition;
    const grid = initialGrid(params.width, params.height, () => random.float());
    return { grid, part, colStarts: starts(part.widths), rowStarts: starts(part.heights) };
  },

  *main(rt, p, input): Op<Result> {
    const { part, colStarts, rowStarts, grid } = input;
    const { px, py } = part;
    const empty: Result = { x0: 0, y0: 0, w: 0, h: 0, block: new Float64Array(0), iterations: 0, cycles: 0 };
    const isUni = p.layout === 'uni';
    if (rt.self >= px * py) {
      // Only `uni` leaves nodes out; they have nothing to do.
      yield* rt.barrier();
      return empty;
    }
    const ix = rt.self % px;
    const iy = Math.floor(rt.self / px);
    const w = part.widths[ix];
    const h = part.heights[iy];
    const x0 = colStarts[ix];
    const y0 = rowStarts[iy];
    const hh = h + 2;
    const W = grid.width;
    const H = grid.height;
    const place: BlockPlace = { w, h, x0, y0, W, H };

    // The block with its ghost ring, copied from this node's part of the input.
    const local = new Float64Array((w + 2) * hh);
    for (let lx = 0; lx < w + 2; lx++) {
      const x = x0 + lx - 1;
      if (x < 0 || x >= W) continue;
      for (let ly = 0; ly < hh; ly++) {
        const y = y0 + ly - 1;
        if (y >= 0 && y < H) local[lx * hh + ly] = grid.values[x * H + y];
      }
    }
    const words = new Uint32Array(local.buffer);

    const neighbour = [LEFT, RIGHT, UP, DOWN].map((d) => neighbourOf(rt.self, d, px, px * py));
    // Rows arrive, one colour at a time, in staging buffers (one per parity) and are
    // scattered into the ghost rows.
    const half = (w + 1) >> 1;
    const staging = [UP, DOWN].map(() => [new Float64Array(half), new Float64Array(half)]);
    const sendRow = new Float64Array(half);
    for (let parity = 0; parity < 2; parity++) {
      if (neighbour[LEFT] >= 0) rt.port(2 * LEFT + parity).setBase(words, 2 * 1);
      if (neighbour[RIGHT] >= 0) rt.port(2 * RIGHT + parity).setBase(words, 2 * ((w + 1) * hh + 1));
      for (const d of [UP, DOWN]) if (neighbour[d] >= 0) rt.port(2 * d + parity).setBase(new Uint32Array(staging[d - UP][parity].buffer));
    }
    // Every port has its base before anyone leaves the barrier: a neighbour that leaves
    // first may send its edges at once, and on a DMA platform (Alewife) they land
    // without a header, straight into the port.
    yield* rt.barrier();
    // Words expected on each port in the half-iteration of colour c: a whole column, or
    // the colour's points of the neighbour's edge row (ghost row 0 or h + 1: grid row
    // y0 - 1 or y0 + h), 2 words a double.
    const expectedWords = (d: number, color: number): number =>
      d === LEFT || d === RIGHT ? 2 * h : 2 * rowPointsOfColour(x0, w, d === UP ? y0 - 1 : y0 + h, color);
    const directions = [LEFT, RIGHT, UP, DOWN].filter((d) => neighbour[d] >= 0);

    /** Sends this node's updated edges to every neighbour for half-iteration `parity`. */
    function* sendEdges(parity: number): Op {
      for (const d of directions) {
        const dest = neighbour[d];
        // Data sent towards d arrives from the opposite direction at the receiver.
        const port = 2 * (d ^ 1) + parity;
        if (d === LEFT || d === RIGHT) {
          const lx = d === LEFT ? 1 : w;
          yield* rt.sendBlockXferPollBoth(dest, port, 0, words.subarray(2 * (lx * hh + 1), 2 * (lx * hh + 1 + h)));
        } else {
          const ly = d === UP ? 1 : h;
          const n = gatherRow(local, hh, w, ly, firstOfColour(place, ly, parity), sendRow);
          rt.computeOps({ loads: n * ROW_COPY_OPS.loads, stores: n * ROW_COPY_OPS.stores });
          // A one-column block has no point of one colour in the row: nothing to send.
          if (n > 0) yield* rt.sendBlockXferPollBoth(dest, port, 0, new Uint32Array(sendRow.buffer, 0, 2 * n));
        }
      }
    }

    /** Updates this node's interior points of `color`; returns the largest change. */
    function update(color: number): number {
      const r = updateBlock(local, place, color, p.omega);
      rt.compute(r.points * rt.cost(POINT_OPS) + w * rt.cost(COLUMN_OPS));
      return r.maxDelta;
    }

    const start = rt.cycleCount();
    let iterations = 0;
    for (let it = 0; it < p.iters; it++) {
      let maxDelta = 0;
      for (let color = 0; color < 2; color++) {
        const parity = color;
        for (const d of directions) rt.port(2 * d + parity).count += expectedWords(d, color);
        rt.setState(State.Busy);
        maxDelta = Math.max(maxDelta, update(color));
        rt.setState(SENDING);
        yield* sendEdges(parity);
        rt.setState(State.Idle);
        yield* rt.pollBothUntil(() => directions.every((d) => rt.port(2 * d + parity).count === 0), 'waiting for edges');
        for (const d of [UP, DOWN]) {
          if (neighbour[d] < 0) continue;
          const ly = d === UP ? 0 : h + 1;
          const n = scatterRow(local, hh, w, ly, firstOfColour(place, ly, parity), staging[d - UP][parity]);
          rt.computeOps({ loads: n * ROW_COPY_OPS.loads, stores: n * ROW_COPY_OPS.stores });
        }
      }
      iterations++;
      const change = isUni ? Math.fround(maxDelta) : yield* rt.compositeFloat(Math.fround(maxDelta), CompositeOp.Max);
      if (change < p.tolerance) break;
    }
    const cycles = rt.elapsedCycles(start);
    if (!isUni) yield* rt.barrier();

    const block = new Float64Array(w * h);
    for (let lx = 1; lx <= w; lx++) block.set(local.subarray(lx * hh + 1, lx * hh + 1 + h), (lx - 1) * h);
    return { x0, y0, w, h, block, iterations, cycles };
  },

  verify({ params, machine, input, results }) {
    const reference: Grid = { width: input.grid.width, height: input.grid.height, values: input.grid.values.slice() };
    const iterations = solveSequential(reference, params.omega, params.iters, params.tolerance);
    const H = reference.height;
    const problems: string[] = [];
    let covered = 0;
    results.forEach((r, node) => {
      if (r.w === 0) return;
      if (r.iterations !== iterations) problems.push(`node ${node} ran ${r.iterations} iterations, the reference ${iterations}`);
      let wrong = 0;
      for (let lx = 0; lx < r.w; lx++) {
        for (let ly = 0; ly < r.h; ly++) {
          if (!Object.is(r.block[lx * r.h + ly], reference.values[(r.x0 + lx) * H + r.y0 + ly])) wrong++;
        }
      }
      if (wrong > 0) problems.push(`node ${node} has ${wrong} points that differ from the sequential solve`);
      covered += r.w * r.h;
    });
    if (covered !== reference.width * H) problems.push(`the blocks cover ${covered} of ${reference.width * H} points`);
    const cycles = Math.max(...results.map((r) => r.cycles));
    return {
      ok: problems.length === 0,
      detail:
        problems.length === 0
          ? `the ${params.width} x ${params.height} grid after ${iterations} iterations equals the sequential red-black SOR bit for bit`
          : problems.slice(0, 3).join('; ') + (problems.length > 3 ? `; and ${problems.length - 3} more` : ''),
      metrics: {
        cycles,
        iterations,
        cyclesPerIteration: Math.round(cycles / iterations),
        processorColumns: input.part.px,
        processorRows: input.part.py,
        microseconds: Math.round((cycles / machine.clockMHz) * 100) / 100,
      },
    };
  },
});
