/**
 * The stencil library (thesis 4.4): red-black SOR on a width x height grid for iters
 * iterations, with five data layouts (Fig. 4-6) — square blocks, vertical and
 * horizontal strips, everything on one node, and rectangular blocks whose aspect
 * ratio is a tunable (4.4.4: "the right approach is to always use a rectangular-block
 * layout, but to adjust the aspect ratio"; rect here tries the factorizations the other
 * layouts are not). Each layout's model is eq. 33 with the packets of the slowest
 * block's edges (the StencilSquare, ... models of apps/calibration/apps.spec), and rect
 * has one per processor grid (StencilRectCols2, ...), as each of the thesis's layouts
 * has its own. The models see the grid the slowest node works on (slowestLines,
 * apps.spec) and count packets of the platform's size (ctx.xferWords); no prediction
 * is less than the model's at the even grid of the fast blocks (stencilCycles). A
 * layout's precondition is the app's own: it must
 * give every processor at least one line (apps/stencil/grid.ts); uni covers
 * everything. The square layout's extra rows and columns (thesis 5.2) are those that
 * make an iteration's critical chain shortest (extra-lines.ts chainExtraLines), or with
 * ctx.communication factored or hybrid eqs. 38-40 or 54; the prediction with extra
 * lines is the square's model less what the chain says they save, and so is the
 * predicted benefit. They are applied only when asked for with extraRows=auto / extraCols=auto.
 */
import { partition, processorGrid } from '../../apps/stencil/grid.ts';
import stencilApp, { gridSizeProblem } from '../../apps/stencil/index.ts';
import { chainCosts, chainCycles, type LevelCosts } from '../calibrate/stencil-chain.ts';
import { InputError } from '../kernel/errors.ts';
import { packetFacts, type PacketFacts } from '../platform/packets.ts';
import type { Platform } from '../platform/schema.ts';
import { chainExtraLines, chainSaving, extraLines } from './extra-lines.ts';
import { evaluate } from './model-set.ts';
import { frozenModule, modelCycles, type Inputs, type LibraryModule, type Params, type SelectContext, type Tuned, type Variant } from './module.ts';
import { minimize } from './optimize.ts';

/**
 * The lines of `total` split over `parts` processors that the slowest node's block
 * stands for (apps.spec): the split gives the remainder one line each from the first
 * processor (apps/stencil/grid.ts), so the busiest blocks have ceil(total/parts) lines;
 * but with three or more parts and a remainder of one, only the first, a boundary
 * processor, has the extra line, and a boundary processor's missing neighbour leaves
 * it idle long enough to take at least one more line (thesis 5.2, Table 5-1), so the
 * interior's floor(total/parts) is what counts.
 */
export function slowestLines(total: number, parts: number): number {
  return parts * Math.ceil((parts >= 3 ? total - 1 : total) / parts);
}

/** The packet facts and the critical chain's costs the stencil models count with (a SelectContext has them all). */
export type StencilFacts = Pick<PacketFacts, 'xferWords' | 'combineTree' | 'dmaWordCycles' | 'dmaReceiveCycles'> & LevelCosts;

/** The stencil models' facts of a platform: its packet facts and the critical chain's costs. */
export function stencilFactsOf(platform: Pick<Platform, 'cpu' | 'messaging' | 'network' | 'controlNetwork'>): StencilFacts {
  return stencilFacts({ ...packetFacts(platform), ...chainCosts(platform) });
}

/** Just the stencil models' facts, out of a SelectContext or a study row that carries them. */
export function stencilFacts(f: StencilFacts): StencilFacts {
  return {
    xferWords: f.xferWords,
    combineTree: f.combineTree,
    dmaWordCycles: f.dmaWordCycles,
    dmaReceiveCycles: f.dmaReceiveCycles,
    chainPointCycles: f.chainPointCycles,
    chainColumnCycles: f.chainColumnCycles,
    chainRowCopyCycles: f.chainRowCopyCycles,
    chainHopCycles: f.chainHopCycles,
    chainTreeSendCycles: f.chainTreeSendCycles,
    chainSendCycles: f.chainSendCycles,
    chainReceiveCycles: f.chainReceiveCycles,
    chainReceiveWordCycles: f.chainReceiveWordCycles,
  };
}

/**
 * Cycles per half-iteration the second of a node's two column edges waits, beyond what
 * its receiver would spend anyway, where each edge of `words` data words is one DMA
 * packet. A node sends its left edge and then its right (apps/stencil), and every
 * transfer's first packet tries network 0 first (Appendix A's alternating steps,
 * src/runtime/block-send-op.ts), so the right edge's packet queues in the injection
 * FIFO behind the left's until the left's has left: words + 1 words (the data and the
 * port word) at dmaWordCycles each. A neighbour receives two edges, handling each in
 * dmaReceiveCycles, which hides that much of the wait. Edges of two or more packets
 * alternate networks and do not queue so; the rows are copied out word by word before
 * each is sent, which spaces their packets. 0 without DMA (both costs are 0).
 */
function edgeQueueCycles(words: number, platform: StencilFacts): number {
  return words <= platform.xferWords ? Math.max(0, platform.dmaWordCycles * (words + 1) - platform.dmaReceiveCycles) : 0;
}

/**
 * Eq. 33's columns for a width x height grid on a px x py processor grid, iter
 * iterations: width and height are those of the grid the slowest node sees,
 * slowestLines(width, px) and slowestLines(height, py) (apps.spec; 1 x 1 leaves them).
 * Given the platform's packet facts (PacketFacts, as a SelectContext has them), also
 * the columns the shipped models add to eq. 33 (apps.spec). The packets of the slowest
 * block's edges: a column edge of h lines is 2h words (doubles) sent whole to each left
 * and right neighbour every half-iteration (apps/stencil), ceil(2h / xferWords) packets
 * (Appendix A 7.1), so iter_colPackets = iter x that where there are such neighbours
 * (px > 1), 0 otherwise; a row edge of w lines is sent one colour a half-iteration,
 * ceil(w / 2) doubles in one half and floor(w / 2) in the other (eq. 38), so
 * iter_rowPackets = iter x (ceil(2 ceil(w / 2) / xferWords) + ceil(2 floor(w / 2) /
 * xferWords)), both halves' packets, where there are rows above or below (py > 1). iter_colQueue = iter x edgeQueueCycles of a column edge where interior
 * nodes have both a left and a right neighbour (px >= 3), 0 otherwise. iter_chain = iter
 * x what the true grid's critical chain (src/calibrate/stencil-chain.ts) is shorter than
 * that of the grid the models see, where reductions climb a tree, 0 with a control
 * network (the CM-5's).
 */
export function stencilColumns(width: number, height: number, iter: number, px = 1, py = 1, platform?: StencilFacts): Record<string, number> {
  const w = px === 1 ? width : slowestLines(width, px);
  const h = py === 1 ? height : slowestLines(height, py);
  const columns: Record<string, number> = { width: w, height: h, iter, wh: w * h, iter_w: iter * w, iter_h: iter * h, iter_wh: iter * w * h };
  if (platform !== undefined) {
    columns.iter_colPackets = px === 1 ? 0 : iter * Math.ceil((2 * h) / py / platform.xferWords);
    columns.iter_rowPackets = py === 1 ? 0 : iter * (Math.ceil((2 * Math.ceil(w / px / 2)) / platform.xferWords) + Math.ceil((2 * Math.floor(w / px / 2)) / platform.xferWords));
    columns.iter_colQueue = px < 3 ? 0 : iter * edgeQueueCycles((2 * h) / py, platform);
    columns.iter_chain = platform.combineTree ? iter * (chainCycles(w, h, px, py, platform.xferWords, platform) - chainCycles(width, height, px, py, platform.xferWords, platform)) : 0;
  }
  return columns;
}

/**
 * A stencil model's cycles for a width x height grid on px x py processors, `at` being
 * the model's value at a grid's columns (stencilColumns): its value at this grid (with a
 * control network, plus what the grid's chain adds: controlNetworkChain), but
 * never less than at the even grid of the fast blocks, px floor(width / px) x
 * py floor(height / py). An uneven grid gives every node at least a fast block's work and
 * leaves the deepest node of the combining tree (the last one) a fast block, so it cannot
 * run faster than that even grid; a fitted term for what uneven grids save could have it
 * so where few nodes hold the slowest block and the extra line's work is small. Measured
 * on Alewife, 64 vstrips of 27 rows: with 2 holders an iteration is 704 cycles shorter
 * than with 64, the whole of one line's 705 (test/library/stencil-chain.test.ts).
 */
export function stencilCycles(at: (columns: Record<string, number>) => number, width: number, height: number, iter: number, px: number, py: number, platform: StencilFacts): number {
  const columns = stencilColumns(width, height, iter, px, py, platform);
  const cycles = at(columns) + controlNetworkChain(width, height, columns.width, columns.height, iter, px, py, platform);
  const fastWidth = px * Math.floor(width / px);
  const fastHeight = py * Math.floor(height / py);
  if (fastWidth === width && fastHeight === height) return cycles;
  return Math.max(cycles, at(stencilColumns(fastWidth, fastHeight, iter, px, py, platform)));
}

/**
 * With a control network (the CM-5), iter x what the true grid's critical chain (without
 * tree levels) is longer than that of the grid the models see (w x h), at the chain's own
 * cycles; 0 where reductions climb a tree, whose models count it in their fitted
 * iter_chain term (coefficients -0.83 to -1.17 on Alewife, -1 being the chain exactly).
 * The CM-5's samples cannot fit it: their uneven grids' chains equal those of their
 * slowest-block grids but for 6 of 98 square samples, by 31 cycles, and a fit drops the
 * term. Yet it decides where a remainder of one line makes a boundary block the slowest,
 * which slowestLines counts as having time to spare: 8 x 17 on 8 x 8 processors, whose
 * top blocks' third row takes their 4-word column edges to two packets, ran 1,655 cycles
 * an iteration against 8 x 16's 1,325 (the chain: 1,338 against 1,108).
 */
function controlNetworkChain(width: number, height: number, w: number, h: number, iter: number, px: number, py: number, platform: StencilFacts): number {
  if (platform.combineTree || (w === width && h === height)) return 0;
  const chain = (cw: number, ch: number) => chainCycles(cw, ch, px, py, platform.xferWords, platform, false);
  return iter * (chain(width, height) - chain(w, h));
}

/** The rect model of a px x py processor grid (apps.spec: 2 or 4 processor columns or rows), or null for another grid. */
export function rectModel(px: number, py: number): string | null {
  if (px === 2 || px === 4) return `StencilRectCols${px}`;
  if (py === 2 || py === 4) return `StencilRectRows${py}`;
  return null;
}

type Layout = 'square' | 'vstrips' | 'hstrips' | 'uni';

const MODEL_NAMES: Record<Layout, string> = { square: 'StencilSquare', vstrips: 'StencilVstrips', hstrips: 'StencilHstrips', uni: 'StencilUni' };

function layoutProblem(layout: Layout | 'rect', x: Inputs, nodes: number, aspect = 1): string | null {
  return extraLinesProblem(layout, x, nodes, aspect, 0, 0);
}

/** Why the layout's split cannot give its edge processors these extra lines (apps/stencil/grid.ts), or null. */
function extraLinesProblem(layout: Layout | 'rect', x: Inputs, nodes: number, aspect: number, extraRows: number, extraCols: number): string | null {
  const p = partition(layout, nodes, x.width, x.height, aspect, extraCols, extraRows);
  return typeof p === 'string' ? p : null;
}

function fixedLayout(layout: Exclude<Layout, 'square'>): Variant {
  const v: Variant = {
    name: layout,
    app: 'apps/stencil',
    fixed: { layout },
    model: MODEL_NAMES[layout],
    tunables: [],
    problem: (x, ctx) => layoutProblem(layout, x, ctx.nodes),
    predict: (x, _tuned, ctx) => {
      const { px, py } = processorGrid(layout, ctx.nodes, 1);
      return stencilCycles((c) => modelCycles(v, ctx, c), x.width, x.height, x.iters, px, py, ctx);
    },
  };
  return v;
}

const square: Variant = {
  name: 'square',
  app: 'apps/stencil',
  fixed: { layout: 'square' },
  model: MODEL_NAMES.square,
  tunables: ['extraRows', 'extraCols'],
  // The extra lines are advice, applied only when asked for (studies/extra-rows and
  // `npm run bench extra-lines` compare them with the measured optimum).
  advisory: ['extraRows', 'extraCols'],
  problem: (x, ctx) => layoutProblem('square', x, ctx.nodes),
  // Extra lines given (pinned) that the grid cannot take: the square cannot run them (4.4.2: it
  // predicts Infinity), and layout=auto picks among the layouts that can (givenExtraLines).
  tunedProblem: (x, tuned, ctx) => extraLinesProblem('square', x, ctx.nodes, 1, Number(tuned.extraRows ?? 0), Number(tuned.extraCols ?? 0)),
  tune(x, ctx) {
    const { px, py } = processorGrid('square', ctx.nodes, 1);
    const communication = ctx.communication ?? 'chain';
    let extraRows: number;
    let extraCols: number;
    let notes: string[];
    if (communication === 'chain') {
      const e = chainExtraLines(x.width, x.height, px, py, ctx);
      const shorter = (chain: number) => `${Math.round(e.plain - chain)} cycles an iteration shorter than with none`;
      ({ extraRows, extraCols } = e);
      notes = [`extraRows ${extraRows}: the shortest critical chain over [0, ${e.rowTop}] (${shorter(e.withRows)})`, `extraCols ${extraCols}: the shortest critical chain over [0, ${e.colTop}] (${shorter(e.withCols)}; both ${shorter(e.withBoth)})`];
    } else {
      const model = (w: number, h: number, iter: number) => stencilCycles((c) => modelCycles(square, ctx, c), w, h, iter, px, py, ctx);
      const e = extraLines(x.width, x.height, px, py, model, ctx.models, communication);
      ({ extraRows, extraCols } = e);
      notes = [
        `extraRows ${extraRows}: IntegerRoot over [0, ${e.rowTop}] in ${e.rowSteps} steps (eqs. ${communication === 'hybrid' ? '54, 39-40' : '38-40'}: ${communication} Communication ${Math.round(e.rowComm)} cycles per iteration)`,
        `extraCols ${extraCols}: IntegerRoot over [0, ${e.colTop}] in ${e.colSteps} steps (${communication} Communication ${Math.round(e.colComm)} cycles per iteration)`,
      ];
    }
    const params = { extraRows, extraCols };
    return { params, notes, benefit: square.predict(x, {}, ctx) / square.predict(x, params, ctx) - 1 };
  },
  // The square's model of the split without extra lines, less what the critical chain
  // says they save each iteration (in place of eq. 41's square of the interior-sized
  // grid, which the models see through slowestLines and so find no faster wherever
  // the interior's busiest blocks keep their lines: CM-5, 200 x 200, 3 extra rows and 2
  // columns, 0.00% predicted against 2.40% measured).
  predict(x, tuned, ctx) {
    const r = Number(tuned.extraRows ?? 0);
    const c = Number(tuned.extraCols ?? 0);
    const { px, py } = processorGrid('square', ctx.nodes, 1);
    // Extra lines the grid cannot take are not a split to predict (select() asks tunedProblem first).
    const problem = extraLinesProblem('square', x, ctx.nodes, 1, r, c);
    if (problem !== null) throw new InputError(`extraRows=${r} extraCols=${c}: ${problem}`);
    return stencilCycles((columns) => modelCycles(square, ctx, columns), x.width, x.height, x.iters, px, py, ctx) - x.iters * chainSaving(x.width, x.height, px, py, r, c, ctx);
  },
};

/**
 * Processor columns of the px x py factorizations rect tries: those that fit the grid
 * and have a model (rectModel), less the ones the other layouts are (px = P, px = 1 and
 * square's), so that every variant is a different partition and the selector compares
 * each partition once; with extra lines given (givenExtraLines), those whose split can
 * give its edge processors `extraRows` and `extraCols` more.
 */
function rectCandidates(x: Inputs, nodes: number, extraRows = 0, extraCols = 0): number[] {
  const squarePx = processorGrid('square', nodes, 1).px;
  const out: number[] = [];
  for (let px = 2; px < nodes; px++) {
    if (nodes % px !== 0 || px === squarePx || rectModel(px, nodes / px) === null) continue;
    if (extraLinesProblem('rect', x, nodes, px / (nodes / px), extraRows, extraCols) === null) out.push(px);
  }
  return out;
}

/** The rect layout's predicted cycles on px processor columns, by that grid's own model. */
function rectCycles(x: Inputs, ctx: SelectContext, px: number): number {
  const py = ctx.nodes / px;
  const model = ctx.models.get(rectModel(px, py)!, `variant rect on ${px} x ${py} processors`);
  return stencilCycles((c) => evaluate(model, c), x.width, x.height, x.iters, px, py, ctx);
}

/**
 * What `extraRows` and `extraCols` extra lines on each edge save a layout's run on px x py
 * processors over `x.iters` iterations, by its critical chain (negative when they cost):
 * what its model, fitted on splits without them, is less with them (givenExtraLines). One
 * processor column (row) has no edge to give extra columns (rows) to.
 */
function linesSaving(x: Inputs, ctx: SelectContext, px: number, py: number, extraRows: number, extraCols: number): number {
  return x.iters * chainSaving(x.width, x.height, px, py, py > 1 ? extraRows : 0, px > 1 ? extraCols : 0, ctx);
}

/**
 * Rect's aspect: the factorization its models predict fastest, by enumeration. With extra
 * lines given (givenExtraLines) only the factorizations that can take them are tried, each
 * less what the lines save, so aspect=auto is the best rect the run can be: the best split
 * without them could not always take them (Alewife, 64 nodes, 64 x 16 with extraCols=20:
 * 32 x 2 processors cannot, and rect was passed over where 4 x 16 ran 16,200 cycles against
 * the chosen square's 17,480). When none takes them the plain best is returned, and its
 * tunedProblem gives the app's reason.
 */
function tuneRect(x: Inputs, ctx: SelectContext, extraRows: number, extraCols: number): Tuned {
  const given = extraRows > 0 || extraCols > 0;
  const taking = given ? rectCandidates(x, ctx.nodes, extraRows, extraCols) : [];
  const withLines = taking.length > 0;
  const pxs = withLines ? taking : rectCandidates(x, ctx.nodes);
  const f = (k: number) => rectCycles(x, ctx, pxs[k]) - (withLines ? linesSaving(x, ctx, pxs[k], ctx.nodes / pxs[k], extraRows, extraCols) : 0);
  const found = minimize(0, pxs.length - 1, f);
  const px = pxs[found.value];
  const py = ctx.nodes / px;
  const lines = `extraRows=${extraRows} extraCols=${extraCols}`;
  const taken = withLines ? ` that take ${lines}` : '';
  const less = !given ? '' : withLines ? ', less what its critical chain says they save' : ` (none takes ${lines})`;
  return {
    params: { aspect: px / py },
    notes: [`aspect ${px}/${py}: ${px} x ${py} processors, the best of ${pxs.length} rectangular factorizations${taken} by enumeration, each by its own model${less}${found.disagree ? ' (IntegerMinimum would have missed it: several minima)' : ''}`],
  };
}

const rect: Variant = {
  name: 'rect',
  app: 'apps/stencil',
  fixed: { layout: 'rect' },
  // One model per processor grid (rectModel): StencilRectCols2, StencilRectCols4, StencilRectRows2, StencilRectRows4.
  model: 'StencilRect<Cols|Rows><2|4>',
  tunables: ['aspect'],
  problem: (x, ctx) => (rectCandidates(x, ctx.nodes).length === 0 ? `no px x py factorization of ${ctx.nodes} with 2 or 4 processor columns or rows, besides square's, fits a ${x.width} x ${x.height} grid` : null),
  tune: (x, ctx) => tuneRect(x, ctx, 0, 0),
  // The app's default aspect, pinned under layout=auto, crashed the prediction on a grid it does not fit (3 x 16 over 8 x 2).
  // A given aspect whose processor grid has no rect model (aspect 1: square's) predicted Infinity with no reason given.
  tunedProblem: (x, tuned, ctx) => {
    const aspect = Number(tuned.aspect);
    const { px, py } = processorGrid('rect', ctx.nodes, aspect);
    if (rectModel(px, py) === null) return `aspect ${aspect} gives ${px} x ${py} processors, for which rect has no model (its models: 2 or 4 processor columns or rows)`;
    return layoutProblem('rect', x, ctx.nodes, aspect);
  },
  predict(x, tuned, ctx) {
    const aspect = Number(tuned.aspect);
    const { px } = processorGrid('rect', ctx.nodes, aspect);
    if (rectModel(px, ctx.nodes / px) === null) return Infinity;
    return rectCycles(x, ctx, px);
  },
};

/** The processor grid's aspect a layout's tuned values give: rect's own, 1 for the others. */
function aspectOf(layout: Layout | 'rect', tuned: Params): number {
  return layout === 'rect' ? Number(tuned.aspect) : 1;
}

/**
 * A layout as a run of apps/stencil with `extraRows` and `extraCols` given takes it
 * (layout=auto, auto.ts). The app gives every layout's edge processors the extra lines
 * (apps/stencil/grid.ts: vstrips the columns, hstrips the rows, rect both, uni neither),
 * not only the square's, so the selector compares the layouts at those (4.2: each
 * variant's predicted time for the run it would be): a layout whose split cannot take
 * them cannot run (Infinity, with the app's reason), and its model, fitted on splits
 * without extra lines, is less what its critical chain says they save (chainSaving),
 * as the square's is; rect's aspect is tuned among the factorizations that take them
 * (tuneRect). The square takes them pinned, as its tunables, and is returned as it is.
 */
export function givenExtraLines(v: Variant, extraRows: number, extraCols: number): Variant {
  if (v === square || (extraRows === 0 && extraCols === 0)) return v;
  const layout = v.fixed.layout as Layout | 'rect';
  return {
    ...v,
    // Rect's aspect is tuned among the factorizations that take them (tuneRect).
    ...(layout === 'rect' ? { tune: (x: Inputs, ctx: SelectContext) => tuneRect(x, ctx, extraRows, extraCols) } : {}),
    tunedProblem: (x, tuned, ctx) => v.tunedProblem?.(x, tuned, ctx) ?? extraLinesProblem(layout, x, ctx.nodes, aspectOf(layout, tuned), extraRows, extraCols),
    predict(x, tuned, ctx) {
      const { px, py } = processorGrid(layout, ctx.nodes, aspectOf(layout, tuned));
      return v.predict(x, tuned, ctx) - linesSaving(x, ctx, px, py, extraRows, extraCols);
    },
  };
}

/**
 * What the layout `name` chosen with `extraRows` and `extraCols` given was weighed with, for
 * the auto notes: each line count it gives its edge processors is "given", as the square's
 * pinned ones are (select()), and one it has no edge for (vstrips' rows, hstrips' columns,
 * uni's both) says so. The square's own notes already say it: none here.
 */
export function givenExtraLinesNotes(name: string, tuned: Params, nodes: number, extraRows: number, extraCols: number): string[] {
  if (name === 'square') return [];
  const layout = name as Layout | 'rect';
  const { px, py } = processorGrid(layout, nodes, aspectOf(layout, tuned));
  const notes: string[] = [];
  for (const [key, value, parts, lines, across] of [['extraRows', extraRows, py, 'rows', 'row'], ['extraCols', extraCols, px, 'columns', 'column']] as const) {
    if (value === 0) continue;
    notes.push(parts > 1 ? `${key} ${value}: given` : `${key} ${value}: given, but ${name} has one processor ${across}: no edge ${lines} to take them`);
  }
  return notes;
}

export const STENCIL_MODULE: LibraryModule = frozenModule({
  name: 'stencil',
  description: 'red-black SOR on a width x height grid (thesis 4.4): square, vstrips, hstrips, rect (aspect tuned) and uni layouts',
  apps: ['apps/stencil'],
  inputs: [
    { name: 'width', doc: 'grid columns', min: 3, max: 1 << 16 },
    { name: 'height', doc: 'grid rows', min: 3, max: 1 << 16 },
    { name: 'iters', doc: 'iterations', min: 1, max: 1 << 20 },
  ],
  // Declaration order breaks ties: square first ("the best overall", 4.4.2), uni last (the fallback).
  variants: [square, fixedLayout('vstrips'), fixedLayout('hstrips'), rect, fixedLayout('uni')],
  inputProblem: (x) => gridSizeProblem(x.width, x.height),
  tunableSpecs: { extraRows: stencilApp.params.extraRows, extraCols: stencilApp.params.extraCols, aspect: stencilApp.params.aspect },
});
