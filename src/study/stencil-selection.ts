/**
 * `sim study stencil-selection` (thesis 4.4.2, Tables 4-1 and 4-2, Fig. 4-8): how often
 * the stencil module's selector picks the layout that is measured fastest. Per
 * platform and machine size, grid sizes from the random stream
 * `study/stencil-selection/<platform>/n<nodes>`: two thirds within 15% of a boundary
 * of the predicted-winner map, one third log-uniform in [8, max-grid]² (300 at 64
 * nodes, 100 at 16 and 32 by default). Every layout that can take the grid runs once
 * (seed 1, 4 iterations: the calibrated range is 1-4, apps.spec; on the CM-5 the median
 * of seeds 1-3, study.ts seedsOf), rect with its aspect as the selector tuned it.
 * "Correct" means no layout measured fewer cycles than the choice (strict argmin, no
 * tolerance, 4.4.2; exact ties are counted apart).
 * For wrong picks: the penalty T_selected / T_best - 1 (mean, expected = mean x
 * P(wrong), worst: Table 4-2), the gap between the two best measured layouts and the
 * distance to the nearest predicted boundary (Fig. 4-8's argument). The thesis's
 * module had square, vstrips and uni (plus shared memory): the same trials are also
 * scored as a choice among those three, each placed by the nearest boundary of the
 * three's own map (the misses' Fig. 4-8 argument, and the accuracy near those
 * boundaries, where the thesis concentrated its grids).
 */
import { RandomStream } from '../kernel/random-stream.ts';
import { select } from '../library/module.ts';
import { STENCIL_MODULE, stencilFacts, type StencilFacts } from '../library/stencil-module.ts';
import { drawGrids, nearestBoundary, winnerFunction, type Boundary, type DrawnGrid } from './stencil-grids.ts';
import { selectionFigure } from './stencil-figure.ts';
import { scoreTrials, selectionText, type Scored } from './stencil-scoring.ts';
import { medianCycles, seedsOf, unmeasured, type Measurements, type Row, type Study, type StudyOptions, type StudyRun, type Summary } from './study.ts';

/** Iterations of every run: the models' calibrated range is 1-4 (apps.spec). */
export const STENCIL_ITERS = 4;
/** Smallest grid dimension drawn (thesis Fig. 4-7's range starts at 8). */
export const MIN_GRID = 8;
/** Share of sizes near a predicted boundary, and how near (selection.md 2.3, S2). */
const NEAR_SHARE = 2 / 3;
const SPREAD = 0.15;
/** Boundaries farther than this (relative) are reported as none nearby. */
const DISTANCE_CAP = 1;
/** The thesis's layouts (Table 4-1, less shared memory). */
export const THESIS_LAYOUTS = ['square', 'vstrips', 'uni'];

/**
 * The models the stencil studies depend on: every layout's (Stencil...). The square
 * layout's extra rows and columns come from the critical chain (the platform file's
 * costs), not from a model.
 */
export const usesStencilModel = (name: string): boolean => name.startsWith('Stencil');

export interface StencilTrial {
  platform: string;
  spec: string;
  nodes: number;
  /** The platform's packet facts the models' terms count with; every row carries them, so the in-sample ceiling can recompute the columns. */
  facts: StencilFacts;
  trial: number;
  grid: DrawnGrid;
  boundary: Boundary | null;
  /** The nearest boundary of the map among the thesis's layouts alone, when the study asks for it (selection does: its misses among those three are judged by it). */
  thesisBoundary?: Boundary | null;
  /** Per layout: its prediction, whether it was chosen, and its runs, one per seed (study.ts seedsOf). */
  runs: { variant: string; predicted: number; chosen: boolean; thesisChoice: boolean; aspect: number | null; seeds: StudyRun[] }[];
}

/** Every run of the trials, each once per seed. */
export const runsOf = (trials: readonly StencilTrial[]): StudyRun[] => trials.flatMap((t) => t.runs.flatMap((r) => r.seeds));

const defaultTrials = (nodes: number) => (nodes === 64 ? 300 : 100);

/** Every trial of the study: grids drawn per platform and size, each with its choice and runs. */
export function stencilTrials(study: string, options: StudyOptions, count: (nodes: number) => number, nearShare: number, withThesisBoundary = false): StencilTrial[] {
  const out: StencilTrial[] = [];
  const total = options.platforms.length * options.nodes.reduce((n, nodes) => n + (options.trials ?? count(nodes)), 0);
  for (const p of options.platforms) {
    for (const nodes of options.nodes) {
      const ctx = p.context(nodes);
      const winner = winnerFunction(ctx, STENCIL_ITERS);
      const thesisWinner = withThesisBoundary ? winnerFunction(ctx, STENCIL_ITERS, THESIS_LAYOUTS) : null;
      const random = new RandomStream(options.seed, `study/${study}/${p.name}/n${nodes}`);
      const seeds = seedsOf(p);
      const grids = drawGrids(random, winner, options.trials ?? count(nodes), nearShare, SPREAD, MIN_GRID, options.maxGrid);
      grids.forEach((grid, trial) => {
        // Without the square's extra-lines advice (withAdvice false): a trial runs the layouts
        // as they are, and the advice's chain (up to 0.4 s on a 4096 x 4096 grid) changes no
        // prediction.
        const choice = select(STENCIL_MODULE, { width: grid.width, height: grid.height, iters: STENCIL_ITERS }, ctx, {}, [], false);
        const valid = choice.predictions.filter((q) => q.problem === null);
        const three = valid.filter((q) => THESIS_LAYOUTS.includes(q.variant));
        const threeChoice = three.reduce((a, b) => (b.cycles < a.cycles ? b : a));
        out.push({
          platform: p.name,
          spec: p.spec,
          nodes,
          facts: stencilFacts(ctx),
          trial,
          grid,
          boundary: nearestBoundary(winner, grid, MIN_GRID, options.maxGrid, DISTANCE_CAP),
          ...(thesisWinner === null ? {} : { thesisBoundary: nearestBoundary(thesisWinner, grid, MIN_GRID, options.maxGrid, DISTANCE_CAP) }),
          runs: valid.map((q) => ({
            variant: q.variant,
            predicted: q.cycles,
            chosen: q.variant === choice.variant,
            thesisChoice: q.variant === threeChoice.variant,
            aspect: q.variant === 'rect' ? Number(q.params.aspect) : null,
            seeds: seeds.map((seed) => ({ platform: p.spec, nodes, app: q.app, params: q.params, seed })),
          })),
        });
        options.onPlanned?.(out.length, total);
      });
    }
  }
  return out;
}

export const STENCIL_COLUMNS = ['platform', 'nodes', 'xferWords', 'combineTree', 'dmaWordCycles', 'dmaReceiveCycles', 'chainPointCycles', 'chainColumnCycles', 'chainRowCopyCycles', 'chainHopCycles', 'chainTreeSendCycles', 'chainSendCycles', 'chainReceiveCycles', 'chainReceiveWordCycles', 'trial', 'kind', 'width', 'height', 'iters', 'boundaryDistance', 'boundaryAxis', 'boundaryBetween', 'variant', 'aspect', 'predicted', 'measured', 'chosen', 'thesisChoice'] as const;
/** The selection study's columns: the stencil columns and the nearest boundary of the thesis's three layouts' map. */
export const SELECTION_COLUMNS = [...STENCIL_COLUMNS, 'thesisBoundaryDistance', 'thesisBoundaryBetween'] as const;

/** One row per trial and layout run. */
export function stencilRows(trials: readonly StencilTrial[], measured: Measurements): Row[] {
  return trials.flatMap((t) =>
    t.runs.map((r) => ({
      platform: t.platform,
      nodes: t.nodes,
      ...t.facts,
      trial: t.trial,
      kind: t.grid.kind,
      width: t.grid.width,
      height: t.grid.height,
      iters: STENCIL_ITERS,
      boundaryDistance: t.boundary?.distance ?? null,
      boundaryAxis: t.boundary?.axis ?? null,
      boundaryBetween: t.boundary === null ? null : `${t.boundary.from}/${t.boundary.to}`,
      variant: r.variant,
      aspect: r.aspect,
      predicted: r.predicted,
      measured: medianCycles(measured, r.seeds),
      chosen: r.chosen,
      thesisChoice: r.thesisChoice,
      ...(t.thesisBoundary === undefined
        ? {}
        : { thesisBoundaryDistance: t.thesisBoundary?.distance ?? null, thesisBoundaryBetween: t.thesisBoundary === null ? null : `${t.thesisBoundary.from}/${t.thesisBoundary.to}` }),
    })),
  );
}

const cache = new WeakMap<StudyOptions, StencilTrial[]>();
function trialsOf(options: StudyOptions): StencilTrial[] {
  let t = cache.get(options);
  if (t === undefined) {
    t = stencilTrials('stencil-selection', options, defaultTrials, NEAR_SHARE, true);
    cache.set(options, t);
  }
  return t;
}

export const STENCIL_SELECTION: Study = {
  name: 'stencil-selection',
  reproduces: 'Tables 4-1 and 4-2, Fig. 4-8',
  usesModel: usesStencilModel,
  about:
    'Per platform and machine size, grid sizes two thirds within 15% of a predicted layout boundary and one third log-uniform in [8, max-grid]² (by default 300 at 64 nodes, 100 at 16 and 32; --trials sets them all); every layout runs once (4 iterations; on the CM-5, whose nodes take timer interrupts, the median of three seeds, thesis 3.4.1, as its models were calibrated). Reports the percentage of choices that were the fastest measured, the penalty of wrong picks (mean, expected, worst), each miss with the gap between the two best layouts and its distance to the nearest predicted boundary, and the same for a choice among the thesis\'s three layouts (square, vstrips, uni), its misses placed on those three layouts\' own map, with its accuracy on the trials near that map\'s boundaries; and what the misses are made of: the share of near ties (the two best layouts within 0.5% or 1%) and the in-sample ceiling (the models\' terms fitted to these runs, then choosing). Figure: the predicted-winner map with the trials, misses marked.',
  defaults: { takes: ['trials', 'max-grid'], trials: null, minTrials: 1, maxGrid: 4096, maxKeys: null, nodes: [16, 32, 64], inRounds: false, mostRunsPerTrial: (p) => STENCIL_MODULE.variants.length * seedsOf(p).length },
  columns: SELECTION_COLUMNS,
  next(options, measured) {
    return unmeasured(runsOf(trialsOf(options)), measured);
  },
  rows(options, measured) {
    return stencilRows(trialsOf(options), measured);
  },
  summarize(rows): Summary {
    return scoreTrials(rows) as unknown as Summary;
  },
  text(summary) {
    return selectionText(summary as unknown as Scored);
  },
  figure(rows, _summary, options) {
    return selectionFigure(rows, options, STENCIL_ITERS);
  },
};
