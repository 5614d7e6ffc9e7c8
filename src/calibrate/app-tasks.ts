/**
 * App-level calibration tasks (thesis 4.2: a high-level library's designer supplies
 * "a superset of the inputs required by the auto-calibration toolkit" — the code of
 * each implementation, its terms and its parameter ranges). A spec's Task may name a
 * whole app run instead of a Strata operation: each sample runs the app with the
 * task's parameters on a fresh simulated machine, checks that it verified, and
 * reports the app's own `cycles` metric (its timed section, from the barrier after
 * loading the input to the end of the algorithm, on the slowest node; node 0 on
 * `uni`). An app that draws random numbers, or a platform whose nodes take timer
 * interrupts (whose phase comes from the seed, 3.4.1), is timed with several seeds and
 * the median kept.
 *
 * The apps are named by folder; the CLI loads them (src/cli/calibrate-unit.ts) and
 * hands them to runAppUnit (app-units.ts), so nothing here reads from disk.
 */
import { InputError } from '../kernel/errors.ts';
import { gridWithInterior, measureEdgeExchange, type AppRun, type Direction } from './edge-exchange.ts';

export interface AppTask {
  /** The app folder, relative to the project root. */
  app: string;
  arity: number;
  /** Smallest machine it runs on. */
  minNodes: number;
  /** What the arguments mean, for messages. */
  signature: string;
  /** Seeds whose median is the sample: 3 where the app draws random numbers that change its time. */
  seeds: number;
  /** The app's parameters for these arguments on `nodes` processors (those of its first run, checked before anything runs). */
  params(args: readonly number[], nodes: number): Record<string, number | string>;
  /**
   * A sample measured from runs of the app other than one run's timed cycles (thesis
   * 6.3's custom collection), given a way to run it; absent: the `cycles` metric of one
   * run with params().
   */
  measure?(run: AppRun, args: readonly number[], nodes: number): number;
}

/** Seeds per sample on a platform whose nodes take timer interrupts (thesis 3.4.1: the median of three). */
export const NOISY_SEEDS = 3;

/** The median of a sample's timings (of a non-empty list; the mean of the middle two for an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

const stencil = (layout: string) => (args: readonly number[]) => ({ layout, width: args[0], height: args[1], iters: args[2] });

/**
 * The rect layout with `pxOf(P)` processor columns; aspect = px / py picks exactly that
 * px x py factorization (apps/stencil/grid.ts processorGrid). It needs P divisible by 4.
 */
function rectTask(grid: string, pxOf: (nodes: number) => number): AppTask {
  return {
    app: 'apps/stencil',
    arity: 3,
    minNodes: 4,
    seeds: 1,
    signature: `StencilRect${grid}(width, height, iter): the rect layout on ${grid === 'Cols2' || grid === 'Cols4' ? `${grid.slice(4)} processor columns` : `${grid.slice(4)} processor rows`}`,
    params: ([width, height, iters], nodes) => {
      const px = pxOf(nodes);
      // Another px would quietly time another factorization than the model names (apps/stencil/grid.ts processorGrid).
      if (!Number.isInteger(px) || nodes % px !== 0) throw new InputError(`StencilRect${grid} on ${nodes} nodes: ${px} processor columns do not divide P = ${nodes}`);
      return { layout: 'rect', width, height, iters, aspect: px / (nodes / px) };
    },
  };
}

/**
 * Eq. 54's Communication, measured (edge-exchange.ts): per iteration, the exchange work
 * an interior node of the square layout does and a top or bottom (rows) or left or
 * right (cols) node does not, on a width x height grid.
 */
function edgeTask(direction: Direction, name: string): AppTask {
  return {
    app: 'apps/stencil',
    arity: 2,
    minNodes: 9,
    seeds: 1,
    signature: `${name}(width, height): per iteration, the exchange work an interior node of the square layout does and a ${direction === 'rows' ? 'top or bottom' : 'left or right'} node does not (thesis 5.2, eq. 54)`,
    params: ([width, height], nodes) => {
      gridWithInterior(direction, nodes);
      return { layout: 'square', width, height, iters: 1 };
    },
    measure: (run, [width, height], nodes) => measureEdgeExchange(direction, run, width, height, nodes),
  };
}

export const APP_TASKS: Record<string, AppTask> = {
  // Thesis 4.4.3, eq. 33: the stencil's layouts with inputs width, height and iter.
  StencilSquare: { app: 'apps/stencil', arity: 3, minNodes: 1, seeds: 1, signature: 'StencilSquare(width, height, iter)', params: stencil('square') },
  StencilVstrips: { app: 'apps/stencil', arity: 3, minNodes: 1, seeds: 1, signature: 'StencilVstrips(width, height, iter)', params: stencil('vstrips') },
  StencilHstrips: { app: 'apps/stencil', arity: 3, minNodes: 1, seeds: 1, signature: 'StencilHstrips(width, height, iter)', params: stencil('hstrips') },
  StencilUni: { app: 'apps/stencil', arity: 3, minNodes: 1, seeds: 1, signature: 'StencilUni(width, height, iter)', params: stencil('uni') },
  // The rect layout on one processor grid each (apps.spec): 2 or 4 processor columns, or 2 or 4 processor rows.
  StencilRectCols2: rectTask('Cols2', () => 2),
  StencilRectCols4: rectTask('Cols4', () => 4),
  StencilRectRows2: rectTask('Rows2', (nodes) => nodes / 2),
  StencilRectRows4: rectTask('Rows4', (nodes) => nodes / 4),
  // Thesis 4.5.5: radix sort by keys per node, digit width and key width; sample sort by keys and key width.
  RadixSort: { app: 'apps/radix-sort', arity: 3, minNodes: 1, seeds: 1, signature: 'RadixSort(keys, keyBits, digitBits)', params: ([keys, keyBits, digitBits]) => ({ keys, keyBits, digitBits }) },
  // Thesis 8.1.3, eq. 54: the hybrid extra-lines model's samples (apps/calibration/hybrid.spec).
  StencilRowComm: edgeTask('rows', 'StencilRowComm'),
  StencilColComm: edgeTask('cols', 'StencilColComm'),
  SampleSort: { app: 'apps/sample-sort', arity: 2, minNodes: 1, seeds: 3, signature: 'SampleSort(keys, keyBits): median of three seeds (the samples are random, 4.5.4)', params: ([keys, keyBits]) => ({ keys, keyBits }) },
};

/** The app task a spec names, or undefined for a Strata operation. */
export function appTask(name: string): AppTask | undefined {
  return Object.hasOwn(APP_TASKS, name) ? APP_TASKS[name] : undefined;
}

