/**
 * The stencil library (thesis 4.4): red-black SOR on a width x height grid for iters
 * iterations, with five data layouts (Fig. 4-6) — square blocks, vertical and
 * horizontal strips, everything on one node, and rectangular blocks whose aspect
 * ratio is a tunable (4.4.4: "the right approach is to always use a rectangular-block
 * layout, but to adjust the aspect ratio"; rect here tries the factorizations the other
 * layouts are not). Each layout's model is eq. 33 (the
 * StencilSquare, ... models of apps/calibration/apps.spec); rect's is eq. 33 over its
 * blocks with neighbour counts. A layout's precondition is the app's own: it must
 * give every processor at least one line (apps/stencil/grid.ts); uni covers
 * everything. The square layout's extra rows and columns are worked out by eqs. 38-40
 * (extra-lines.ts), with eq. 41's predicted benefit; they are applied (and the
 * prediction is eq. 41's) only when asked for with extraRows=auto / extraCols=auto.
 */
import { partition, processorGrid } from '../../apps/stencil/grid.ts';
import { extraLines } from './extra-lines.ts';
import { modelCycles, type Inputs, type LibraryModule, type SelectContext, type Variant } from './module.ts';
import { minimize } from './optimize.ts';

/** Eq. 33's columns for a w x h grid and iter iterations. */
export function stencilColumns(width: number, height: number, iter: number): Record<string, number> {
  return { width, height, iter, wh: width * height, iter_w: iter * width, iter_h: iter * height, iter_wh: iter * width * height };
}

/** The rect model's columns (apps.spec): eq. 33 over each node's block, and the busiest node's neighbours. */
export function rectColumns(width: number, height: number, iter: number, px: number, nodes: number): Record<string, number> {
  const py = nodes / px;
  const bw = Math.ceil(width / px);
  const bh = Math.ceil(height / py);
  const cx = Math.min(px - 1, 2);
  const cy = Math.min(py - 1, 2);
  return { px, bw, bh, iter, bwbh: bw * bh, iter_bwbh: iter * bw * bh, iter_cx: iter * cx, iter_cy: iter * cy, iter_cx_bh: iter * cx * bh, iter_cy_bw: iter * cy * bw };
}

type Layout = 'square' | 'vstrips' | 'hstrips' | 'uni';

const MODEL_NAMES: Record<Layout, string> = { square: 'StencilSquare', vstrips: 'StencilVstrips', hstrips: 'StencilHstrips', uni: 'StencilUni' };

function layoutProblem(layout: Layout | 'rect', x: Inputs, nodes: number, aspect = 1): string | null {
  const p = partition(layout, nodes, x.width, x.height, aspect, 0, 0);
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
    predict: (x, _tuned, ctx) => modelCycles(v, ctx, stencilColumns(x.width, x.height, x.iters)),
  };
  return v;
}

const square: Variant = {
  name: 'square',
  app: 'apps/stencil',
  fixed: { layout: 'square' },
  model: MODEL_NAMES.square,
  tunables: ['extraRows', 'extraCols'],
  // Eqs. 38-40 are a factored model; measured, its advice helps on some platforms and
  // hurts on others (platforms/models/apps/README.md), so it applies only when asked for.
  advisory: ['extraRows', 'extraCols'],
  problem: (x, ctx) => layoutProblem('square', x, ctx.nodes),
  tune(x, ctx) {
    const { px, py } = processorGrid('square', ctx.nodes, 1);
    const model = (w: number, h: number, iter: number) => modelCycles(square, ctx, stencilColumns(w, h, iter));
    const e = extraLines(x.width, x.height, px, py, model, ctx.models);
    // Eq. 41: the optimized square costs what the square of the interior-sized grid would.
    const plain = model(x.width, x.height, x.iters);
    const optimized = model(x.width - 2 * e.extraCols, x.height - 2 * e.extraRows, x.iters);
    return {
      params: { extraRows: e.extraRows, extraCols: e.extraCols },
      notes: [
        `extraRows ${e.extraRows}: IntegerRoot over [0, ${e.rowTop}] in ${e.rowSteps} steps (eqs. 38-40)`,
        `extraCols ${e.extraCols}: IntegerRoot over [0, ${e.colTop}] in ${e.colSteps} steps`,
      ],
      benefit: plain / optimized - 1,
    };
  },
  predict(x, tuned, ctx) {
    const r = Number(tuned.extraRows ?? 0);
    const c = Number(tuned.extraCols ?? 0);
    return modelCycles(square, ctx, stencilColumns(x.width - 2 * c, x.height - 2 * r, x.iters));
  },
};

/**
 * Processor columns of the px x py factorizations rect tries: those that fit the grid,
 * less the ones the other layouts are (px = P, px = 1 and square's), so that every
 * variant is a different partition and the selector compares each partition once.
 */
function rectCandidates(x: Inputs, nodes: number): number[] {
  const squarePx = processorGrid('square', nodes, 1).px;
  const out: number[] = [];
  for (let px = 2; px < nodes; px++) {
    if (nodes % px === 0 && px !== squarePx && layoutProblem('rect', x, nodes, px / (nodes / px)) === null) out.push(px);
  }
  return out;
}

/** The rect layout's processor columns minimizing its model, by enumeration over the factorizations. */
function bestRect(x: Inputs, ctx: SelectContext, rect: Variant): { px: number; cycles: number; disagree: boolean } {
  const pxs = rectCandidates(x, ctx.nodes);
  const f = (k: number) => modelCycles(rect, ctx, rectColumns(x.width, x.height, x.iters, pxs[k], ctx.nodes));
  const found = minimize(0, pxs.length - 1, f);
  return { px: pxs[found.value], cycles: f(found.value), disagree: found.disagree };
}

const rect: Variant = {
  name: 'rect',
  app: 'apps/stencil',
  fixed: { layout: 'rect' },
  model: 'StencilRect',
  tunables: ['aspect'],
  problem: (x, ctx) => (rectCandidates(x, ctx.nodes).length === 0 ? `no px x py factorization of ${ctx.nodes} besides square's and the strips' fits a ${x.width} x ${x.height} grid` : null),
  tune(x, ctx) {
    const b = bestRect(x, ctx, rect);
    const py = ctx.nodes / b.px;
    return {
      params: { aspect: b.px / py },
      notes: [`aspect ${b.px}/${py}: ${b.px} x ${py} processors, the best of ${rectCandidates(x, ctx.nodes).length} rectangular factorizations by enumeration${b.disagree ? ' (IntegerMinimum would have missed it: several minima)' : ''}`],
    };
  },
  predict(x, tuned, ctx) {
    const aspect = Number(tuned.aspect);
    const px = Math.round(Math.sqrt(aspect * ctx.nodes));
    return modelCycles(rect, ctx, rectColumns(x.width, x.height, x.iters, px, ctx.nodes));
  },
};

export const STENCIL_MODULE: LibraryModule = {
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
};
