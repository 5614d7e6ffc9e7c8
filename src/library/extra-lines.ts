/**
 * Extra rows and columns for the stencil's square layout (thesis 5.2, Figs. 5-1, 5-2):
 * processors on the top and bottom edges have one neighbour fewer, so they can take
 * r more grid rows (and those on the left and right edges c more columns) for the
 * time the missing block transfer would have cost. The composite model of eqs. 38-40,
 * generalized from the thesis's 8 x 8 processor grid to this machine's px x py:
 *
 *   Communication      = 2 BlockTransfer(2 ceil(width / px))     (eq. 38, per iteration)
 *   Computation(x)     = (Square(w, h + py x, I) - Square(w, h, I)) / I,  I = 1000   (eq. 39)
 *   f(x)               = Communication - Computation(x),  r = IntegerRoot(0, top, f)  (eq. 40)
 *
 * A row edge is ceil(width/px) doubles, 2 words each (our BlockTransfer model is in
 * words), and our stencil sends its edges every half-iteration (red and black), so
 * two per iteration where the thesis's sent half an edge once (selection.md 4.2).
 * Columns likewise with ceil(height/py) and Square(w + px c, h, I). The predicted
 * benefit is eq. 41: OptimizedSquare(w, h, iter) = Square(w - 2c, h - 2r, iter).
 *
 * The hybrid model of eq. 54 (8.1.3) is the option: Communication = alpha + beta x the
 * factored value above, alpha and beta fitted by the toolkit (StencilRowComm and
 * StencilColComm, apps/calibration/hybrid.spec) on what the factored model stands
 * for, measured: the exchange work per iteration an edge node does not do
 * (src/calibrate/edge-exchange.ts).
 */
import { evaluate, type ModelSet } from './model-set.ts';
import { integerRoot } from './optimize.ts';

/** Iterations eq. 39 differences over, so the set-up terms drop out. */
const MARGINAL_ITERS = 1000;
/** The thesis's range of interest for the root finder (5.4: [0, 100]). */
const MAX_EXTRA = 100;

/** Where eq. 40's Communication comes from: the factored eq. 38 or the hybrid eq. 54. */
export type Communication = 'factored' | 'hybrid';

/** The hybrid models' names (apps/calibration/hybrid.spec), for rows and for columns. */
export const HYBRID_MODELS = { rows: 'StencilRowComm', cols: 'StencilColComm' } as const;

export interface ExtraLines {
  extraRows: number;
  extraCols: number;
  /** Bisection steps of each root search. */
  rowSteps: number;
  colSteps: number;
  /** The ranges searched. */
  rowTop: number;
  colTop: number;
  /** The per-iteration Communication each root balanced against the marginal computation (cycles). */
  rowComm: number;
  colComm: number;
}

/**
 * The extra rows and columns by eq. 40 for a `width` x `height` grid on a px x py
 * processor grid, `square(w, h, iter)` being the square layout's model (cycles).
 */
export function extraLines(width: number, height: number, px: number, py: number, square: (w: number, h: number, iter: number) => number, models: ModelSet, communication: Communication = 'factored'): ExtraLines {
  const blockTransfer = models.get('BlockTransfer', 'the square layout\'s extra rows and columns (eq. 38)');
  const bt = (words: number) => evaluate(blockTransfer, { words });
  // Eq. 54: the hybrid's one term is the factored value (hybrid.spec's column "factored").
  const hybrid = (model: string, factored: number) => evaluate(models.get(model, 'the square layout\'s extra rows and columns with --communication hybrid (eq. 54)'), { factored });
  const comm = (model: string, factored: number) => (communication === 'hybrid' ? hybrid(model, factored) : factored);
  // Boundary processor rows exist only with two or more processor rows; interior ones keep at least one line.
  const rowTop = py < 2 ? 0 : Math.max(0, Math.min(MAX_EXTRA, Math.floor((height - py) / 2)));
  const colTop = px < 2 ? 0 : Math.max(0, Math.min(MAX_EXTRA, Math.floor((width - px) / 2)));
  const base = square(width, height, MARGINAL_ITERS);
  const rowComm = comm(HYBRID_MODELS.rows, 2 * bt(2 * Math.ceil(width / px)));
  const colComm = comm(HYBRID_MODELS.cols, 2 * bt(2 * Math.ceil(height / py)));
  const rows = integerRoot(0, rowTop, (x) => rowComm - (square(width, height + py * x, MARGINAL_ITERS) - base) / MARGINAL_ITERS);
  const cols = integerRoot(0, colTop, (c) => colComm - (square(width + px * c, height, MARGINAL_ITERS) - base) / MARGINAL_ITERS);
  // No root: below the range means none helps (bottom - 1), above it as many as the range allows.
  const clamp = (v: number, top: number) => Math.max(0, Math.min(top, v));
  return { extraRows: clamp(rows.value, rowTop), extraCols: clamp(cols.value, colTop), rowSteps: rows.steps, colSteps: cols.steps, rowTop, colTop, rowComm, colComm };
}
