/**
 * What a stencil selection study's misses are made of, from its rows alone: how many
 * trials are near ties, and how well the thesis's model form could have done on these
 * very grids. Per platform and machine size:
 * - near ties: trials whose two best measured layouts are within 0.5% or 1% of each
 *   other, closer than the verification MRE of the calibrated models (1-3%,
 *   platforms/models/apps/README.md; the thesis's 1.0-2.3%, Figs. 4-9, 4-10), so that
 *   no model of that accuracy can be expected to order them;
 * - the in-sample ceiling: the shipped models' form (eq. 33, the packets of the slowest
 *   block's edges, what the critical chain saves (src/calibrate/stencil-chain.ts) and
 *   the queued column edges, apps.spec) fitted (relative error, eq. 26, as the app
 *   models are) to the study's own measurements, one fit per layout and processor grid
 *   as the shipped models are, then asked to choose on the same trials, its predictions bounded below by the even grid
 *   of the fast blocks as the module's are (stencilCycles). No calibration of that form
 *   can predict these runs better than a fit to them, so its accuracy bounds what
 *   recalibrating the models could reach.
 * Both are reported for the module's five layouts and for the thesis's three.
 */
import { processorGrid } from '../../apps/stencil/grid.ts';
import { fitModel, predict } from '../calibrate/fit.ts';
import { stencilColumns, stencilCycles, stencilFacts, type StencilFacts } from '../library/stencil-module.ts';
import { groupBy } from './stats.ts';
import type { Row } from './study.ts';

/** The relative gaps below which two layouts count as a near tie. */
export const NEAR_TIE_GAPS = [0.005, 0.01] as const;
/**
 * The shipped models' terms at a fixed iteration count (the study's), besides the
 * constant: eq. 33's, the packets of the slowest block's edges, what the critical chain
 * saves and the queued column edges (apps.spec).
 */
const TERMS = ['width', 'height', 'wh', 'iter_colPackets', 'iter_rowPackets', 'iter_chain', 'iter_colQueue'] as const;

export interface LayoutSetDiagnosis {
  /** Share of trials whose two best measured layouts are within each of NEAR_TIE_GAPS. */
  nearTies: number[];
  /** Share of trials where the model form fitted to these runs picks a layout measured fastest. */
  inSampleAccuracy: number | null;
}

export interface CeilingDiagnosis {
  /** The module's layouts. */
  all: LayoutSetDiagnosis;
  /** The thesis's square, vstrips and uni. */
  thesis: LayoutSetDiagnosis;
}

/** The processor grid a row's layout ran on (rect: the aspect it ran with). */
function gridOf(r: Row): { px: number; py: number } {
  const layout = r.variant as 'square' | 'vstrips' | 'hstrips' | 'uni' | 'rect';
  return processorGrid(layout, r.nodes as number, layout === 'rect' ? (r.aspect as number) : 1);
}

/** The stencil facts a row carries (the study's rows spread them: stencilFacts). */
function factsOf(r: Row): StencilFacts {
  return stencilFacts(r as unknown as StencilFacts);
}

const termValues = (c: Record<string, number>): number[] => TERMS.map((t) => c[t]);

/**
 * Eq. 33 fitted to each layout and processor grid's runs in `rows`; the fitted time of
 * every row, bounded below by the even grid of the fast blocks as the module's
 * predictions are (stencilCycles).
 */
function inSamplePredictions(rows: readonly Row[]): Map<Row, number> {
  const out = new Map<Row, number>();
  for (const g of groupBy(rows, (r) => {
    const { px, py } = gridOf(r);
    return `${r.variant} ${px}x${py}`;
  }).values()) {
    const { px, py } = gridOf(g[0]);
    const facts = g.map(factsOf);
    const xs = g.map((r, i) => termValues(stencilColumns(r.width as number, r.height as number, r.iters as number, px, py, facts[i])));
    const fit = fitModel(TERMS, g.map((r, i) => ({ y: r.measured as number, x: xs[i] })), true);
    const at = (c: Record<string, number>) => predict(fit.coefficients, termValues(c));
    g.forEach((r, i) => out.set(r, stencilCycles(at, r.width as number, r.height as number, r.iters as number, px, py, facts[i])));
  }
  return out;
}

function diagnose(trials: readonly (readonly Row[])[], fitted: Map<Row, number>): LayoutSetDiagnosis {
  const counted = trials.filter((t) => t.length > 0);
  const gaps = counted.map((t) => {
    const m = t.map((r) => r.measured as number).sort((a, b) => a - b);
    return m.length > 1 ? m[1] / m[0] - 1 : Infinity;
  });
  // The first least fitted time, in the rows' order (the module's declaration order), as the selector breaks ties.
  const right = counted.filter((t) => {
    const pick = t.reduce((a, b) => (fitted.get(b)! < fitted.get(a)! ? b : a));
    return t.every((r) => (pick.measured as number) <= (r.measured as number));
  }).length;
  return {
    nearTies: NEAR_TIE_GAPS.map((g) => (counted.length === 0 ? 0 : gaps.filter((x) => x < g).length / counted.length)),
    inSampleAccuracy: counted.length === 0 ? null : right / counted.length,
  };
}

/**
 * The diagnosis of one platform and machine size's trials (each trial's rows, one per
 * layout run); trials with a failed run are left out, as in the accuracy.
 */
export function diagnoseCeiling(trials: readonly (readonly Row[])[], thesisLayouts: ReadonlySet<string>): CeilingDiagnosis {
  const complete = trials.filter((t) => t.every((r) => r.measured !== null));
  const fitted = inSamplePredictions(complete.flat());
  return {
    all: diagnose(complete, fitted),
    thesis: diagnose(
      complete.map((t) => t.filter((r) => thesisLayouts.has(r.variant as string))),
      fitted,
    ),
  };
}
