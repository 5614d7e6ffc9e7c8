/**
 * What a validation study is (issue 21; thesis Tables 4-1 to 4-4, 5-1, Figs. 4-7,
 * 4-8, 5-3): a deterministic plan of simulator runs, issued in rounds (a study whose
 * later runs depend on earlier measurements, such as a bisection, asks for them one
 * round at a time), the raw rows it makes of the measurements, a summary computed from
 * those rows alone, its text beside the thesis's numbers, and a figure. Pure: the CLI
 * (src/cli/study-command.ts) runs each round as a sweep and writes the files.
 */
import { median, NOISY_SEEDS } from '../calibrate/app-tasks.ts';
import type { Params, SelectContext } from '../library/module.ts';
import { canonicalJson } from '../sweep/canonical.ts';

/** One simulator run a study asks for: its app's cycles metric is the measurement. */
export interface StudyRun {
  /** The platform as the sweep names it (a name in platforms/ or a path). */
  platform: string;
  nodes: number;
  app: string;
  params: Params;
  seed: number;
}

/** A run's identity within a study: equal runs are measured once. */
export const runId = (r: StudyRun): string => canonicalJson({ app: r.app, nodes: r.nodes, params: r.params, platform: r.platform, seed: r.seed });

/** What a run measured: the app's `cycles` metric, or null with the reason when the run failed. */
export interface Measured {
  cycles: number | null;
  failure: string | null;
}

/** Measurements by runId. */
export type Measurements = ReadonlyMap<string, Measured>;

/** A platform as a study sees it: the name the sweep gives it, and its models per machine size. */
export interface StudyPlatform {
  /** As given on the command line (a name in platforms/ or a path); runs name it so. */
  spec: string;
  /** The platform's own name (models, thesis rows). */
  name: string;
  clockMHz: number;
  /** Whether its nodes take timer interrupts, whose phases come from the seed (thesis 3.4.1): its runs' times vary with the seed. */
  timerInterrupts: boolean;
  /** The selection context (models) for `nodes` processors. */
  context(nodes: number): SelectContext;
}

/** The study's inputs besides its measurements. */
export interface StudyOptions {
  platforms: readonly StudyPlatform[];
  nodes: readonly number[];
  /** Trials (grid sizes, configurations, penalty points) where the study counts them; null for the study's own default. */
  trials: number | null;
  /** Largest grid dimension (stencil studies). */
  maxGrid: number;
  /** Largest keys per node (sort studies). */
  maxKeys: number;
  /** Seed of the study's random streams (grid sizes, trials). */
  seed: number;
  /**
   * Told as trials are planned, where planning is slow (about 5 ms a stencil trial:
   * minutes for 100,000), so that sim study can show it on a terminal; it changes no
   * trial.
   */
  onPlanned?: (planned: number, total: number) => void;
}

/** A raw result row: named cells, the same columns in every row of a study. */
export type Row = Record<string, string | number | boolean | null>;

/** A study's summary: plain JSON data. */
export type Summary = Record<string, unknown>;

/** The size options a study takes, with their defaults (null: not an option of this study, or trials counted per machine size). */
export interface StudyDefaults {
  takes: readonly ('trials' | 'max-grid' | 'max-keys')[];
  trials: number | null;
  /** The fewest --trials the study can run (1 where a study of none would measure nothing). */
  minTrials: number;
  maxGrid: number | null;
  maxKeys: number | null;
  /** Machine sizes when --nodes is absent. */
  nodes: readonly number[];
  /** Whether it plans later rounds from earlier rounds' results (bisections, searches); else it has one round. */
  inRounds: boolean;
  /**
   * The most runs one trial makes in a round, on a platform (per machine size), so that
   * sim study refuses a --trials no round could hold before spending minutes planning it
   * (the stencil studies search the predicted-winner map for every trial; extra-rows
   * drew and tuned 100,000 grids a platform for 71 s, digit-width planned for 16 s).
   */
  mostRunsPerTrial?: (platform: StudyPlatform) => number;
  /** Whether --trials counts over all the platforms together (digit-width), not per platform. */
  trialsOverPlatforms?: boolean;
}

export interface Study {
  name: string;
  /** What it reproduces (tables, figures), for the help and the summary. */
  reproduces: string;
  /** One paragraph: what it runs and what it reports (the summary text opens with it). */
  about: string;
  /**
   * Whether its results depend on the model called `name`: the summary names the hash of
   * each such model, so recalibrating one fails the shipped-studies test until the study
   * is run again, and recalibrating another does not. sim study checks after a run that
   * the study asked for no model outside this.
   */
  usesModel(name: string): boolean;
  defaults: StudyDefaults;
  /** The columns of its rows, in order. */
  columns: readonly string[];
  /**
   * The runs still needed, given every measurement so far; empty when the study is
   * complete. The same options and measurements always give the same runs in the
   * same order, so an interrupted study rerun asks for the same rounds again.
   */
  next(options: StudyOptions, measured: Measurements): StudyRun[];
  /** The raw rows of a complete study. */
  rows(options: StudyOptions, measured: Measurements): Row[];
  /** The summary, computed from the rows alone (the test checks it against them). */
  summarize(rows: readonly Row[], options: StudyOptions): Summary;
  /** The summary as text, beside the thesis's numbers. */
  text(summary: Summary): string;
  /** The study's figure as standalone SVG. */
  figure(rows: readonly Row[], summary: Summary, options: StudyOptions): string;
}

/** The measurement of `run`; throws if the study asks for one it did not plan (a bug). */
export function cyclesOf(measured: Measurements, run: StudyRun): number | null {
  const m = measured.get(runId(run));
  if (m === undefined) throw new Error(`study: run ${runId(run)} was not measured`);
  return m.cycles;
}

/**
 * The seeds a study repeats each of its runs with: on a platform whose nodes take timer
 * interrupts (the CM-5) seeds 1-3, the measurement their median (medianCycles), the
 * thesis's rule for a robust CM-5 timing (3.4.1) and the one its models were calibrated
 * with (calibrate/app-tasks.ts NOISY_SEEDS); elsewhere seed 1 alone. One CM-5 run of a
 * small problem lasts a few thousand cycles, and whether a node's timer interrupt falls
 * into it moves it by up to a fifth (a 16 x 24 stencil, square: 7,640 cycles with seed 1,
 * 9,115 and 9,344 with seeds 2 and 3, each with a node interrupted), more than the
 * differences being judged.
 */
export function seedsOf(p: Pick<StudyPlatform, 'timerInterrupts'>): number[] {
  return Array.from({ length: p.timerInterrupts ? NOISY_SEEDS : 1 }, (_, k) => k + 1);
}

/** A measurement over its seeds' runs: their median, or null if one failed. */
export function medianCycles(measured: Measurements, runs: readonly StudyRun[]): number | null {
  const cycles = runs.map((r) => cyclesOf(measured, r));
  return cycles.some((c) => c === null) ? null : median(cycles as number[]);
}

/** The runs of `wanted` not yet measured, each once, in first-asked order. */
export function unmeasured(wanted: readonly StudyRun[], measured: Measurements): StudyRun[] {
  const seen = new Set<string>();
  const out: StudyRun[] = [];
  for (const r of wanted) {
    const id = runId(r);
    if (measured.has(id) || seen.has(id)) continue;
    seen.add(id);
    out.push(r);
  }
  return out;
}
