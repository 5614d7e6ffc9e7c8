/**
 * What eq. 54's Communication(width) stands for, measured (thesis 5.2, Fig. 5-1, 8.1.3):
 * the work per iteration that a boundary node of the stencil's square layout does not
 * do because it has no neighbour on one side. "Nodes with fewer directions sit idle
 * part of the time, since the middle nodes have the same amount of computation to do,
 * but have more communication" (5.2): in the steady state every node keeps the same
 * pace, so a top or bottom node is idle, per iteration, for exactly the exchange work
 * an interior node does and it does not — gathering and sending a row, and receiving
 * and scattering one, in each half-iteration — which is what eq. 40 balances its
 * extra rows' computation against. Likewise left and right nodes for a column.
 *
 * A sample runs the square layout for 1 and for 2 iterations on fresh machines and
 * takes each node's work (its busy cycles: computation, message overheads, handlers;
 * not polls that found nothing, waiting or timer interrupts) in the second iteration
 * alone, so set-up and the closing barrier drop out. Each iteration also ends in a
 * global max-reduction whose work depends on a node's place in the combining tree; the
 * least-working node of each class (interior, top/bottom edge, left/right edge; corners
 * excluded) has the least of it, the same in every class, so the difference of the
 * classes' minima is the exchange alone:
 *
 *   StencilRowComm = min over interior nodes - min over top and bottom nodes
 *   StencilColComm = min over interior nodes - min over left and right nodes
 *
 * Both need an interior, so a processor grid of at least 3 x 3.
 */
import { InputError, RunFailure } from '../kernel/errors.ts';
import { processorGrid } from '../../apps/stencil/grid.ts';

/** What one run of an app on a fresh machine gives a measurement: its timed cycles and each node's busy cycles. */
export interface AppRunResult {
  cycles: number;
  busy: readonly number[];
}

/** Runs the task's app once with `params` (the unit's platform, machine size and seed). */
export type AppRun = (params: Record<string, number | string>) => AppRunResult;

export type Direction = 'rows' | 'cols';

/** Each node's busy cycles in the second iteration of the square layout on the width x height grid. */
function secondIterationWork(run: AppRun, width: number, height: number): number[] {
  const one = run({ layout: 'square', width, height, iters: 1 });
  const two = run({ layout: 'square', width, height, iters: 2 });
  return two.busy.map((b, n) => b - one.busy[n]);
}

/** The measurement of one sample: the class minima's difference (file comment). */
export function edgeExchange(direction: Direction, work: readonly number[], px: number, py: number): number {
  const min = (inClass: (ix: number, iy: number) => boolean) => {
    let m = Infinity;
    // apps/stencil numbers its processor grid row by row: node = iy * px + ix.
    work.forEach((w, node) => {
      if (node < px * py && inClass(node % px, Math.floor(node / px)) && w < m) m = w;
    });
    return m;
  };
  const inner = (i: number, n: number) => i > 0 && i < n - 1;
  const edge = (i: number, n: number) => i === 0 || i === n - 1;
  const interior = min((ix, iy) => inner(ix, px) && inner(iy, py));
  const boundary = direction === 'rows' ? min((ix, iy) => inner(ix, px) && edge(iy, py)) : min((ix, iy) => edge(ix, px) && inner(iy, py));
  return interior - boundary;
}

/** The model a direction's measurement is for (app-tasks.ts). */
const EDGE_MODEL: Record<Direction, string> = { rows: 'StencilRowComm', cols: 'StencilColComm' };

/** The square layout's processor grid on `nodes`, which must have an interior node. */
export function gridWithInterior(direction: Direction, nodes: number): { px: number; py: number } {
  const { px, py } = processorGrid('square', nodes, 1);
  if (px < 3 || py < 3) throw new InputError(`${EDGE_MODEL[direction]} on ${nodes} nodes: the square layout's ${px} x ${py} processor grid has no interior node; expected at least 3 x 3 processors (9, 12, 16, ... nodes)`);
  return { px, py };
}

/** One sample: the exchange work per iteration a boundary node in `direction` does not do, on a width x height grid. */
export function measureEdgeExchange(direction: Direction, run: AppRun, width: number, height: number, nodes: number): number {
  const { px, py } = gridWithInterior(direction, nodes);
  const y = edgeExchange(direction, secondIterationWork(run, width, height), px, py);
  if (!Number.isFinite(y)) throw new RunFailure(`${EDGE_MODEL[direction]}(${width}, ${height}) on ${nodes} nodes: no interior or ${direction === 'rows' ? 'top' : 'left'} node to compare`);
  return y;
}
