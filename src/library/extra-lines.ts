/**
 * Extra rows and columns for the stencil's square layout (thesis 5.2, Figs. 5-1, 5-2):
 * processors on the top and bottom edges have one neighbour fewer, so they can take
 * r more grid rows (and those on the left and right edges c more columns) for the
 * time the missing block transfer would have cost. Two ways to choose them:
 *
 * chainExtraLines, the default: the values that make an iteration's critical chain
 * (src/calibrate/stencil-chain.ts) shortest, searched over the whole range.
 *
 * extraLines, the thesis's: the composite model of eqs. 38-40, generalized from the
 * thesis's 8 x 8 processor grid to this machine's px x py:
 *
 *   Communication      = 2 BlockTransfer(2 ceil(ceil(width / px) / 2))   (eq. 38, per iteration)
 *   Computation(x)     = (Square(w, h + py x, I) - Square(w, h, I)) / I,  I = 1000   (eq. 39)
 *   f(x)               = Communication - Computation(x),  r = IntegerRoot(0, top, f)  (eq. 40)
 *
 * A row edge is ceil(width/px) doubles, 2 words each (our BlockTransfer model is in
 * words), and our stencil sends one colour of it every half-iteration (red, then black),
 * at most half the points each time: eq. 38's "divided by two because of red-black
 * ordering", twice an iteration. Columns go whole (apps/stencil: contiguous, "a single
 * block transfer to move the entire boundary region", 4.4), so theirs is
 * 2 BlockTransfer(2 ceil(height / py)), with Square(w + px c, h, I). The hybrid model of
 * eq. 54 (8.1.3) is its option: Communication = alpha + beta x the factored value
 * above, alpha and beta fitted by the toolkit (StencilRowComm and StencilColComm,
 * apps/calibration/hybrid.spec) on what the factored model stands for, measured: the
 * exchange work per iteration an edge node does not do (src/calibrate/edge-exchange.ts).
 * Eq. 40 balances a continuous marginal computation and so cannot see the split's
 * integers; chainExtraLines says what that costs.
 *
 * Either way, the time with extra lines is the square's model less what the chain says
 * they save (chainSaving), in place of eq. 41's Square(w - 2c, h - 2r, iter): the models
 * see a grid through its busiest block (slowestLines), so eq. 41 predicts nothing where
 * the interior's busiest blocks keep their lines.
 */
import { longestChain, type Chain, type ChainCosts, type ChainTree } from '../calibrate/stencil-chain.ts';
import type { PacketFacts } from '../platform/packets.ts';
import { evaluate, type ModelSet } from './model-set.ts';
import { integerRoot } from './optimize.ts';

/** Iterations eq. 39 differences over, so the set-up terms drop out. */
const MARGINAL_ITERS = 1000;
/** The thesis's range of interest for the root finder (5.4: [0, 100]). */
const MAX_EXTRA = 100;

/**
 * How the extra lines are chosen: eq. 40 with the factored Communication of eq. 38 or
 * the hybrid of eq. 54, or the shortest critical chain (chainExtraLines).
 */
export type Communication = 'factored' | 'hybrid' | 'chain';

/** Eq. 40's two Communications, the thesis's. */
export type Eq40Communication = Exclude<Communication, 'chain'>;

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
export function extraLines(width: number, height: number, px: number, py: number, square: (w: number, h: number, iter: number) => number, models: ModelSet, communication: Eq40Communication = 'factored'): ExtraLines {
  const blockTransfer = models.get('BlockTransfer', 'the square layout\'s extra rows and columns (eq. 38)');
  const bt = (words: number) => evaluate(blockTransfer, { words });
  // Eq. 54: the hybrid's one term is the factored value (hybrid.spec's column "factored").
  const hybrid = (model: string, factored: number) => evaluate(models.get(model, 'the square layout\'s extra rows and columns with --communication hybrid (eq. 54)'), { factored });
  const comm = (model: string, factored: number) => (communication === 'hybrid' ? hybrid(model, factored) : factored);
  const rowTop = topOf(height, py);
  const colTop = topOf(width, px);
  const base = square(width, height, MARGINAL_ITERS);
  const rowComm = comm(HYBRID_MODELS.rows, 2 * bt(2 * Math.ceil(Math.ceil(width / px) / 2)));
  const colComm = comm(HYBRID_MODELS.cols, 2 * bt(2 * Math.ceil(height / py)));
  const rows = integerRoot(0, rowTop, (x) => rowComm - (square(width, height + py * x, MARGINAL_ITERS) - base) / MARGINAL_ITERS);
  const cols = integerRoot(0, colTop, (c) => colComm - (square(width + px * c, height, MARGINAL_ITERS) - base) / MARGINAL_ITERS);
  // No root: below the range means none helps (bottom - 1), above it as many as the range allows.
  const clamp = (v: number, top: number) => Math.max(0, Math.min(top, v));
  return { extraRows: clamp(rows.value, rowTop), extraCols: clamp(cols.value, colTop), rowSteps: rows.steps, colSteps: cols.steps, rowTop, colTop, rowComm, colComm };
}

/** The most extra lines on each edge: boundary processors exist only with two or more, and interior ones keep at least one line. */
function topOf(lines: number, parts: number): number {
  return parts < 2 ? 0 : Math.max(0, Math.min(MAX_EXTRA, Math.floor((lines - parts) / 2)));
}

/** What the chain needs of a platform: its chain costs, edge packet size and whether reductions climb a tree. */
export type ChainFacts = ChainCosts & Pick<PacketFacts, 'xferWords' | 'combineTree'>;

/**
 * An iteration's critical chain with `extraRows` and `extraCols` extra lines on each
 * edge, counting a node's start by the tree's sends, one after another
 * (stencil-chain.ts), where reductions climb a tree.
 */
function splitChain(width: number, height: number, px: number, py: number, extraRows: number, extraCols: number, facts: ChainFacts): Chain {
  const tree: ChainTree = facts.combineTree ? 'sends' : 'none';
  return longestChain({ width, height, px, py, extraRows, extraCols, tree }, facts.xferWords, facts);
}

/** The extra lines of chainExtraLines, with the chains they were chosen by. */
export interface ChainExtraLines {
  extraRows: number;
  extraCols: number;
  rowTop: number;
  colTop: number;
  /** The critical chain per iteration without extra lines, with the extra rows alone, the extra columns alone, and both. */
  plain: number;
  withRows: number;
  withCols: number;
  withBoth: number;
}

/**
 * The extra rows and columns that make an iteration's critical chain shortest
 * (src/calibrate/stencil-chain.ts, from the platform's costs and the split alone):
 * each searched over its whole range [0, top] with the other 0, as eq. 40 finds each
 * apart. Why not eq. 40: its balance of the marginal computation against a continuous
 * Communication cannot see the split's integers. An iteration lasts as long as its
 * busiest interior node, and an extra line on each edge moves two lines out of the
 * interior, which helps only when that leaves fewer interior nodes with the most lines
 * (CM-5, 200 x 200 on 8 x 8: 3 extra rows leave two interior processor rows 25 lines,
 * 4 leave all 24; measured 3.1% faster at 4 than with none, 1.8% at 3). The chain sees
 * which nodes hold what, and that a boundary node has a neighbour fewer to exchange
 * edges with. Where two values have the same chain, the one whose busiest node does
 * less work wins, then the one with fewer such nodes, then the fewer lines: the chain
 * runs through the slowest nodes of the grid's worst spot, and where it does not
 * change, the fewer and lighter the busiest nodes, the less often their neighbours
 * wait on them (Paragon, 91 x 98: 1, 2 and 3 extra rows have the same chain, and
 * measured 0.7, 2.2 and 2.7% faster than none, as 6, 5 and 3 interior processor rows
 * keep 12 lines against 11). The chain counts the tree's sends one after another
 * ('sends'): a node that must forward a reduction's result to its children first is
 * slower to start (on the ATM, 1,110 cycles a send), and its receives up the tree one
 * after another, so that values coming together wait (stencil-chain.ts climbInTurn).
 * In the extra-rows study's 17 grids a platform, that makes the pick optimal or within
 * 0.5% for the ATM's rows in 17 and columns in 15 (17 and 12 counting the receives
 * apart), the Paragon's in 17 and 17 (16 and 16), Alewife's in 14 and 17 (16 and 17).
 * Since then a node enters the reduction once its neighbours' edges are in, each tree
 * level and edge crosses its own pair's links and the tree's own work is counted
 * (stencil-chain.ts 'sends'): optimal or within 0.5% in 17 and 17 on the ATM (optimal
 * 13 and 15, where it was 12 and 10), 17 and 17 on the Paragon (17 and 16), 16 and 17 on
 * Alewife (14 and 17; 64 x 63 rows 2 where 1 is best); in the extra-lines bench (8
 * iterations) rows optimal in 15 of 20 and columns in 17 (14 before), at worst 0.1%
 * slower than the best (0.7%: ATM 100 x 100 rows 8, where 7 is best).
 */
export function chainExtraLines(width: number, height: number, px: number, py: number, facts: ChainFacts): ChainExtraLines {
  const chainOf = (extraRows: number, extraCols: number): Chain => splitChain(width, height, px, py, extraRows, extraCols, facts);
  const plain = chainOf(0, 0);
  const best = (top: number, at: (v: number) => Chain): { value: number; chain: Chain } => {
    let value = 0;
    let chosen = plain;
    for (let v = 1; v <= top; v++) {
      const c = at(v);
      if (c.cycles < chosen.cycles || (c.cycles === chosen.cycles && (c.most < chosen.most || (c.most === chosen.most && c.busiest < chosen.busiest)))) (value = v), (chosen = c);
    }
    return { value, chain: chosen };
  };
  const rowTop = topOf(height, py);
  const colTop = topOf(width, px);
  const rows = best(rowTop, (r) => chainOf(r, 0));
  const cols = best(colTop, (c) => chainOf(0, c));
  const extraRows = rows.value;
  const extraCols = cols.value;
  return { extraRows, extraCols, rowTop, colTop, plain: plain.cycles, withRows: rows.chain.cycles, withCols: cols.chain.cycles, withBoth: chainOf(extraRows, extraCols).cycles };
}

/**
 * The cycles an iteration's critical chain is shorter with `extraRows` and `extraCols`
 * extra lines on each edge than with none (negative when longer): what the square
 * layout's model (fitted on splits without extra lines) is less with them.
 */
export function chainSaving(width: number, height: number, px: number, py: number, extraRows: number, extraCols: number, facts: ChainFacts): number {
  if (extraRows === 0 && extraCols === 0) return 0;
  return splitChain(width, height, px, py, 0, 0, facts).cycles - splitChain(width, height, px, py, extraRows, extraCols, facts).cycles;
}
