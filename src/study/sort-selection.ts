/**
 * `sim study sort-selection` (thesis 4.5.4, Table 4-4, Fig. 4-14): the sorting
 * module of the thesis (radix sort with 4-, 10- and 14-bit digits, and sample sort)
 * at 64 nodes, three key widths per platform (Table 4-4's: 16, 24, 32 on Alewife and
 * the CM-5; 8, 16, 32 on the Paragon and ATM), keys per node in [1, max-keys]. The
 * models give each algorithm's predicted interval; each predicted crossover is then
 * found in measured times by bisection (crossover-search.ts), a probe comparing the
 * two algorithms' cycles (sample sort the mean over seeds 1-5, its time varies with the
 * random splitters; radix sort seed 1, on the CM-5 the median of seeds 1-3, whose timer
 * interrupts' phases come from the seed: study.ts seedsOf). Error ratio per row = sum
 * of |actual - predicted| / max-keys; mean accuracy = 1 - the rows' mean ratio. Then the penalty at
 * 32 points (--trials) on the wrong side of the crossovers, drawn round-robin over the
 * crossovers that have any from the stream `study/sort-selection/penalty`: the model's
 * pick against the other over seeds 1-12, mean with its 95% t-interval. Every run's
 * row carries its variant's predicted cycles beside the measured, so the summary can
 * say which model put a crossover where it did.
 */
import { RandomStream } from '../kernel/random-stream.ts';
import type { SelectContext, Variant } from '../library/module.ts';
import { radixWithDigits, SAMPLE } from '../library/sort-module.ts';
import { searchCrossover } from './crossover-search.ts';
import { probeCycles, sortText, sortFigure, scoreSort } from './sort-scoring.ts';
import { runId as runIdOf, seedsOf, unmeasured, type Measurements, type Row, type Study, type StudyOptions, type StudyRun, type Summary } from './study.ts';

/** The thesis's module (4.5.3): three fixed radix sorts and sample sort, in its order of preference for ties. */
export const SORT_VARIANTS: readonly Variant[] = [radixWithDigits(4), radixWithDigits(10), radixWithDigits(14), SAMPLE];
/** Table 4-4's key widths per platform; others get 8, 16 and 32. */
const KEY_WIDTHS: Record<string, number[]> = { alewife: [16, 24, 32], cm5: [16, 24, 32], paragon: [8, 16, 32], atm: [8, 16, 32] };
const SAMPLE_SEEDS = 5;
const PENALTY_SEEDS = 12;

export interface Segment {
  variant: string;
  from: number;
  to: number;
}

export interface SortTable {
  platform: string;
  spec: string;
  nodes: number;
  keyBits: number;
  segments: Segment[];
  /** The platform's models at this machine size. */
  ctx: SelectContext;
  /** The seeds a radix sort probe runs with (seedsOf: 1-3 on the CM-5, else 1). */
  radixSeeds: number[];
}

/** The predicted winner's intervals over keys 1..top (ties to the earlier variant). */
export function predictedSegments(ctx: SelectContext, keyBits: number, top: number): Segment[] {
  const out: Segment[] = [];
  for (let k = 1; k <= top; k++) {
    let best = 0;
    let tb = Infinity;
    SORT_VARIANTS.forEach((v, i) => {
      const t = v.predict({ keys: k, keyBits }, {}, ctx);
      if (t < tb) (best = i), (tb = t);
    });
    const name = SORT_VARIANTS[best].name;
    const last = out[out.length - 1];
    if (last !== undefined && last.variant === name) last.to = k;
    else out.push({ variant: name, from: k, to: k });
  }
  return out;
}

export const sortRun = (t: SortTable, variant: string, keys: number, seed: number): StudyRun =>
  variant === 'sample'
    ? { platform: t.spec, nodes: t.nodes, app: 'apps/sample-sort', params: { keys, keyBits: t.keyBits }, seed }
    : { platform: t.spec, nodes: t.nodes, app: 'apps/radix-sort', params: { keys, keyBits: t.keyBits, digitBits: Number(variant.slice('radix'.length)) }, seed };

const SAMPLE_SEED_LIST = Array.from({ length: SAMPLE_SEEDS }, (_, k) => k + 1);
/** The seeds a probe of `variant` on table `t` runs with (its measurement: probeCycles). */
const probeSeeds = (t: SortTable, variant: string): number[] => (variant === 'sample' ? SAMPLE_SEED_LIST : t.radixSeeds);

const cache = new WeakMap<StudyOptions, SortTable[]>();
function tablesOf(options: StudyOptions): SortTable[] {
  let t = cache.get(options);
  if (t === undefined) {
    t = options.platforms.flatMap((p) =>
      options.nodes.flatMap((nodes) => {
        const ctx = p.context(nodes);
        return (KEY_WIDTHS[p.name] ?? [8, 16, 32]).map((keyBits) => ({ platform: p.name, spec: p.spec, nodes, keyBits, segments: predictedSegments(ctx, keyBits, options.maxKeys), ctx, radixSeeds: seedsOf(p) }));
      }),
    );
    cache.set(options, t);
  }
  return t;
}

/** The probe of `variant` at k over its seeds (probeCycles): undefined if not all measured, null if one failed. */
function probeAt(t: SortTable, variant: string, k: number, measured: Measurements): number | undefined | null {
  const cycles: number[] = [];
  for (const seed of probeSeeds(t, variant)) {
    const m = measured.get(runIdOf(sortRun(t, variant, k, seed)));
    if (m === undefined) return undefined;
    if (m.cycles === null) return null;
    cycles.push(m.cycles);
  }
  return probeCycles(variant, cycles);
}

interface Crossover {
  table: SortTable;
  index: number;
  left: string;
  right: string;
  predicted: number;
}

const crossoversOf = (t: SortTable): Crossover[] => t.segments.slice(1).map((s, i) => ({ table: t, index: i, left: t.segments[i].variant, right: s.variant, predicted: t.segments[i].to }));

function searchOf(c: Crossover, top: number, measured: Measurements) {
  return searchCrossover(c.predicted, top, (k) => {
    const l = probeAt(c.table, c.left, k, measured);
    const r = probeAt(c.table, c.right, k, measured);
    if (l === undefined || r === undefined) return undefined;
    if (l === null || r === null) return null;
    return l < r;
  });
}

/** The probes every search has made or asks for now, as runs. */
const probeRuns = (c: Crossover, k: number): StudyRun[] => [c.left, c.right].flatMap((v) => probeSeeds(c.table, v).map((seed) => sortRun(c.table, v, k, seed)));

/** The wrong-side points (keys between predicted and actual crossover), round-robin over crossovers. */
export function penaltyPoints(done: { c: Crossover; actual: number }[], count: number, seed: number): { c: Crossover; keys: number; pick: string; other: string }[] {
  const random = new RandomStream(seed, 'study/sort-selection/penalty');
  const pools = done
    .map(({ c, actual }) => {
      const lo = Math.min(c.predicted, actual) + 1;
      const hi = Math.max(c.predicted, actual);
      return { c, lo, hi, used: new Set<number>() };
    })
    .filter((p) => p.hi >= p.lo);
  const out: { c: Crossover; keys: number; pick: string; other: string }[] = [];
  for (let round = 0; out.length < count && pools.some((p) => p.used.size < p.hi - p.lo + 1); round++) {
    for (const p of pools) {
      if (out.length >= count || p.used.size >= p.hi - p.lo + 1) continue;
      let k = p.lo + random.int(p.hi - p.lo + 1);
      while (p.used.has(k)) k = k === p.hi ? p.lo : k + 1;
      p.used.add(k);
      // The model picks left up to its predicted crossover and right after it.
      const pick = k <= p.c.predicted ? p.c.left : p.c.right;
      out.push({ c: p.c, keys: k, pick, other: pick === p.c.left ? p.c.right : p.c.left });
    }
  }
  return out;
}

const PENALTY_SEED_LIST = Array.from({ length: PENALTY_SEEDS }, (_, k) => k + 1);

/** Every run the study has asked for so far, with a row for each (rows carry null where not measured). */
function plan(options: StudyOptions, measured: Measurements): { runs: StudyRun[]; rows: Row[] } {
  const runs: StudyRun[] = [];
  const rows: Row[] = [];
  const row = (t: SortTable, kind: string, c: Crossover | null, keys: number, variant: string, seed: number | null, last: number | null, run: StudyRun | null): void => {
    if (run !== null) runs.push(run);
    const predicted = run === null ? null : SORT_VARIANTS.find((v) => v.name === variant)!.predict({ keys, keyBits: t.keyBits }, {}, t.ctx);
    rows.push({ platform: t.platform, nodes: t.nodes, keyBits: t.keyBits, kind, crossover: c?.index ?? null, left: c?.left ?? null, right: c?.right ?? null, predictedLast: last, keys, variant, seed, predicted, measured: run === null ? null : (measured.get(runIdOf(run))?.cycles ?? null) });
  };
  const done: { c: Crossover; actual: number }[] = [];
  let searching = false;
  for (const t of tablesOf(options)) {
    for (const s of t.segments) row(t, 'interval', null, s.from, s.variant, null, s.to, null);
    for (const c of crossoversOf(t)) {
      const state = searchOf(c, options.maxKeys, measured);
      // The probes made so far are those measured among the search's keys: replay them by asking again.
      for (const k of probedKeys(c, options.maxKeys, measured)) for (const v of [c.left, c.right]) for (const seed of probeSeeds(t, v)) row(t, 'probe', c, k, v, seed, c.predicted, sortRun(t, v, k, seed));
      if (state.status === 'need') {
        searching = true;
        for (const k of state.probes) runs.push(...probeRuns(c, k));
      } else if (state.status === 'done') done.push({ c, actual: state.actual });
    }
  }
  if (!searching) {
    for (const p of penaltyPoints(done, options.trials ?? 32, options.seed)) {
      for (const v of [p.pick, p.other]) for (const seed of PENALTY_SEED_LIST) row(p.c.table, 'penalty', p.c, p.keys, v, seed, p.c.predicted, sortRun(p.c.table, v, p.keys, seed));
    }
  }
  return { runs, rows };
}

/** The keys a search has probed (measured), in the order it probed them. */
function probedKeys(c: Crossover, top: number, measured: Measurements): number[] {
  const keys: number[] = [];
  searchCrossover(c.predicted, top, (k) => {
    const l = probeAt(c.table, c.left, k, measured);
    const r = probeAt(c.table, c.right, k, measured);
    if (l === undefined || r === undefined) return undefined;
    if (!keys.includes(k)) keys.push(k);
    if (l === null || r === null) return null;
    return l < r;
  });
  return keys;
}

export const SORT_COLUMNS = ['platform', 'nodes', 'keyBits', 'kind', 'crossover', 'left', 'right', 'predictedLast', 'keys', 'variant', 'seed', 'predicted', 'measured'] as const;

export const SORT_SELECTION: Study = {
  name: 'sort-selection',
  reproduces: 'Table 4-4, Fig. 4-14',
  usesModel: (name) => name === 'RadixSort' || name === 'SampleSort',
  about: 'At 64 nodes by default (--nodes), three key widths per platform (Table 4-4\'s), radix sort with 4-, 10- and 14-bit digits and sample sort, keys per node in [1, max-keys] (default 10000): the predicted intervals, the measured crossovers by bisection (sample sort: mean of seeds 1-5 at each probe; radix sort on the CM-5, whose nodes take timer interrupts, the median of seeds 1-3, as its models were calibrated), each row\'s error ratio and the mean accuracy, each crossover\'s two models against its probes; then the penalty at 32 points by default (--trials) on the wrong side of the crossovers (seeds 1-12 each, 95% interval). Runs in rounds: one per bisection step. Figure: the predicted intervals with the measured crossovers marked (Fig. 4-14).',
  defaults: { takes: ['trials', 'max-keys'], trials: 32, minTrials: 1, maxGrid: null, maxKeys: 10000, nodes: [64], inRounds: true },
  columns: SORT_COLUMNS,
  next: (options, measured) => unmeasured(plan(options, measured).runs, measured),
  rows: (options, measured) => plan(options, measured).rows,
  summarize: (rows, options) => scoreSort(rows, options.maxKeys) as unknown as Summary,
  text: (summary) => sortText(summary as unknown as ReturnType<typeof scoreSort>),
  figure: (_rows, summary) => sortFigure(summary as unknown as ReturnType<typeof scoreSort>),
};
